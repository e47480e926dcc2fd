import { describe, expect, it } from "vitest";
import { generateInviteCode, INVITE_ALPHABET, normalizeInviteCode } from "./invite-code.ts";

const CODE_FORMAT = /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/;

describe("invite code generation", () => {
  it("makes codes of four groups of four symbols", () => {
    for (let i = 0; i < 200; i++) expect(generateInviteCode()).toMatch(CODE_FORMAT);
  });

  it("leaves out symbols that look alike when read aloud or from paper", () => {
    for (const lookalike of ["0", "O", "1", "I", "L", "U", "V"]) expect(INVITE_ALPHABET).not.toContain(lookalike);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) for (const symbol of generateInviteCode().replaceAll("-", "")) seen.add(symbol);
    // Every symbol used comes from the alphabet, and with 32,000 draws every symbol turns up.
    expect([...seen].sort().join("")).toBe([...INVITE_ALPHABET].sort().join(""));
  });

  it("does not repeat itself over many codes", () => {
    const codes = new Set(Array.from({ length: 20_000 }, generateInviteCode));
    expect(codes.size).toBe(20_000);
  });
});

describe("invite code normalisation", () => {
  it("ignores case, spaces and dashes when a code is typed in", () => {
    expect(normalizeInviteCode("kx7m-q2pa-9htz-r4wn")).toBe("KX7M-Q2PA-9HTZ-R4WN");
    expect(normalizeInviteCode("  KX7M Q2PA 9HTZ R4WN ")).toBe("KX7M-Q2PA-9HTZ-R4WN");
    expect(normalizeInviteCode("KX7MQ2PA9HTZR4WN")).toBe("KX7M-Q2PA-9HTZ-R4WN");
    expect(normalizeInviteCode("kx7m--q2pa—9htz_r4wn")).toBe("KX7M-Q2PA-9HTZ-R4WN");
  });

  it("leaves a generated code unchanged", () => {
    for (let i = 0; i < 50; i++) {
      const code = generateInviteCode();
      expect(normalizeInviteCode(code)).toBe(code);
    }
  });

  it("turns input without letters or digits into an empty code", () => {
    expect(normalizeInviteCode("")).toBe("");
    expect(normalizeInviteCode("   ")).toBe("");
    expect(normalizeInviteCode(" - - ")).toBe("");
  });
});
