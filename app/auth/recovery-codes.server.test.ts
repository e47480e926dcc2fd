import { describe, expect, it } from "vitest";
import { hashSecretToken } from "#app/lib/secret-token.server.ts";
import {
  countRecoveryCodes,
  generateRecoveryCodes,
  hashRecoveryCodeList,
  normalizeRecoveryCode,
  readRecoveryCodeList,
  recoveryCodeInput,
} from "./recovery-codes.server.ts";

describe("recovery codes", () => {
  it("makes ten distinct codes that are easy to read off paper", () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[2-9a-hjkmnp-z]{5}-[2-9a-hjkmnp-z]{5}$/);
  });

  it("stores only hashes, and keeps hashes as they are when the plugin stores the remaining list again", () => {
    const codes = generateRecoveryCodes();
    const stored = hashRecoveryCodeList(JSON.stringify(codes));
    for (const code of codes) expect(stored).not.toContain(code);
    const hashes = JSON.parse(stored) as string[];
    expect(hashes).toEqual(codes.map((code) => hashSecretToken(code)));
    // After a code is used, better-auth encodes the rest again: no hash may be hashed twice.
    expect(hashRecoveryCodeList(JSON.stringify(hashes.slice(1)))).toBe(JSON.stringify(hashes.slice(1)));
    expect(readRecoveryCodeList(stored)).toBe(stored);
    expect(countRecoveryCodes(stored)).toBe(10);
    expect(countRecoveryCodes("not json")).toBe(0);
  });

  it("hashes what a person types, forgiving case, spaces and the dash; a stored hash is no code", () => {
    const [code = ""] = generateRecoveryCodes();
    const expected = hashSecretToken(code);
    expect(recoveryCodeInput(code)).toBe(expected);
    expect(recoveryCodeInput(` ${code.toUpperCase().replace("-", " ")} `)).toBe(expected);
    expect(recoveryCodeInput(code.replace("-", ""))).toBe(expected);
    expect(recoveryCodeInput(expected)).toBeNull();
    expect(normalizeRecoveryCode("abcde-fghj")).toBeNull();
    expect(normalizeRecoveryCode("abcde-fghj0")).toBeNull();
  });
});
