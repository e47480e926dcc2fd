import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { leadingZeroBits, POW_BITS, powInput } from "./contact-fields.ts";
import {
  contactSecretOf,
  createContactGuard,
  isProofOfWork,
  issueContactToken,
  MAX_FORM_AGE_MS,
  MESSAGES_PER_CLIENT,
  MESSAGES_PER_SENDER,
  NO_SCRIPT_PER_CLIENT,
  NO_SCRIPT_PER_SITE,
  readContactToken,
} from "./contact-guard.server.ts";

const secret = contactSecretOf("a".repeat(40));
const START = Date.UTC(2026, 10, 24, 12, 0, 0);

/** What the browser's solver does (proof-of-work.ts), with Node's hash. */
function solve(token: string, bits = POW_BITS): string {
  const challenge = readContactToken(secret, token)?.challenge ?? "";
  for (let nonce = 0; ; nonce++) {
    const digest = createHash("sha256")
      .update(powInput(challenge, String(nonce)))
      .digest();
    if (leadingZeroBits(digest) >= bits) return String(nonce);
  }
}

function guardAt(clock: { now: number }) {
  return createContactGuard({ secret, now: () => clock.now });
}

describe("the contact form's token", () => {
  it("carries its time and challenge, and is refused when made up, changed or signed with another key", () => {
    const token = issueContactToken(secret, START);
    expect(readContactToken(secret, token)).toEqual({ issuedAt: START, challenge: expect.any(String) });
    const [issued, challenge, signature] = token.split(".");
    expect(readContactToken(secret, `${Number(issued) - 60_000}.${challenge}.${signature}`)).toBeNull();
    expect(readContactToken(secret, `${issued}.${"A".repeat(22)}.${signature}`)).toBeNull();
    expect(readContactToken(contactSecretOf("b".repeat(40)), token)).toBeNull();
    for (const junk of ["", "x", "1.2.3", `${token}x`, token.replaceAll(".", "-")]) {
      expect(readContactToken(secret, junk), junk).toBeNull();
    }
  });

  it("counts leading zero bits, and accepts only a nonce that solves the challenge", () => {
    expect(leadingZeroBits(new Uint8Array([0, 0, 0x0f, 0xff]))).toBe(20);
    expect(leadingZeroBits(new Uint8Array([0x80]))).toBe(0);
    expect(leadingZeroBits(new Uint8Array([0, 1]))).toBe(15);
    const token = issueContactToken(secret, START);
    const challenge = readContactToken(secret, token)?.challenge ?? "";
    const nonce = solve(token);
    expect(isProofOfWork(challenge, nonce)).toBe(true);
    expect(isProofOfWork(`${challenge}x`, nonce)).toBe(false);
    expect(isProofOfWork(challenge, "not digits")).toBe(false);
  });
});

describe("screening a sent form", () => {
  it("drops a filled honeypot, a bad token and a form sent within three seconds", () => {
    const clock = { now: START };
    const guard = guardAt(clock);
    const token = issueContactToken(secret, START);
    const nonce = solve(token);
    clock.now = START + 2_900;
    expect(guard.screen({ token, nonce, honeypot: "" })).toEqual({ verdict: "drop", reason: "tooFast" });
    clock.now = START + 3_100;
    expect(guard.screen({ token, nonce, honeypot: "https://spam.example" })).toEqual({
      verdict: "drop",
      reason: "honeypot",
    });
    expect(guard.screen({ token: "forged", nonce, honeypot: "" })).toEqual({ verdict: "drop", reason: "badToken" });
    expect(guard.screen({ token, nonce, honeypot: "" })).toMatchObject({ verdict: "pass", noScript: false });
  });

  it("drops a wrong proof of work, takes a form without one as sent without JavaScript", () => {
    const clock = { now: START + 10_000 };
    const guard = guardAt(clock);
    const token = issueContactToken(secret, START);
    const wrong = String(Number(solve(token)) + 1);
    // The next nonce may solve it too (rarely): then the check is about the one after.
    const bad = isProofOfWork(readContactToken(secret, token)?.challenge ?? "", wrong) ? "x" : wrong;
    expect(guard.screen({ token, nonce: bad, honeypot: "" })).toEqual({ verdict: "drop", reason: "badProof" });
    expect(guard.screen({ token, nonce: "", honeypot: "" })).toMatchObject({ verdict: "pass", noScript: true });
  });

  it("tells a form kept open too long apart from a bot, and drops a token that already sent its message", () => {
    const clock = { now: START + MAX_FORM_AGE_MS + 1 };
    const guard = guardAt(clock);
    const old = issueContactToken(secret, START);
    expect(guard.screen({ token: old, nonce: solve(old), honeypot: "" })).toEqual({ verdict: "expired" });

    const token = issueContactToken(secret, clock.now - 5_000);
    const screened = guard.screen({ token, nonce: solve(token), honeypot: "" });
    if (screened.verdict !== "pass") throw new Error(`not passed: ${JSON.stringify(screened)}`);
    guard.spend(screened.challenge, screened.issuedAt);
    expect(guard.screen({ token, nonce: solve(token), honeypot: "" })).toEqual({ verdict: "drop", reason: "reused" });
  });
});

describe("the contact form's limits", () => {
  it("limits messages per client address and per sender address for an hour", () => {
    const clock = { now: START };
    const guard = guardAt(clock);
    for (let index = 0; index < MESSAGES_PER_CLIENT; index++) {
      expect(guard.admit({ client: "10.0.0.1", email: `person${index}@example.test`, noScript: false })).toBe(0);
    }
    expect(guard.admit({ client: "10.0.0.1", email: "another@example.test", noScript: false })).toBeGreaterThan(0);

    for (let index = 0; index < MESSAGES_PER_SENDER; index++) {
      expect(guard.admit({ client: `10.0.1.${index}`, email: "same@example.test", noScript: false })).toBe(0);
    }
    const wait = guard.admit({ client: "10.0.2.1", email: "same@example.test", noScript: false });
    expect(wait).toBeGreaterThan(59 * 60_000);
    // Refused attempts are not counted: an hour after the first, the sender may write again.
    clock.now += 60 * 60_000;
    expect(guard.admit({ client: "10.0.2.1", email: "same@example.test", noScript: false })).toBe(0);
  });

  it("holds forms without the proof of work to tighter limits, per client and for the whole site", () => {
    const guard = guardAt({ now: START });
    for (let index = 0; index < NO_SCRIPT_PER_CLIENT; index++) {
      expect(guard.admit({ client: "10.1.0.1", email: `n${index}@example.test`, noScript: true })).toBe(0);
    }
    expect(guard.admit({ client: "10.1.0.1", email: "n9@example.test", noScript: true })).toBeGreaterThan(0);
    // The same client may still send with the proof of work.
    expect(guard.admit({ client: "10.1.0.1", email: "n9@example.test", noScript: false })).toBe(0);

    let admitted = NO_SCRIPT_PER_CLIENT;
    for (let client = 2; admitted < NO_SCRIPT_PER_SITE; client++) {
      expect(guard.admit({ client: `10.1.0.${client}`, email: `s${client}@example.test`, noScript: true })).toBe(0);
      admitted++;
    }
    expect(guard.admit({ client: "10.9.9.9", email: "late@example.test", noScript: true })).toBeGreaterThan(0);
    expect(guard.admit({ client: "10.9.9.9", email: "late@example.test", noScript: false })).toBe(0);
  });
});
