import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
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

describe.each(databaseKinds)("the contact form's guard (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  function guardAt(clock: { now: number }) {
    return createContactGuard({ db: database.db, secret, now: () => clock.now });
  }

  /** A message from `client` and `email` on a fresh token (each message spends its own). */
  let tokens = 0;
  function message(client: string, email: string, noScript: boolean) {
    tokens += 1;
    return { client, email, noScript, challenge: `challenge-${tokens}`, issuedAt: START };
  }

  describe("screening a sent form", () => {
    it("drops a filled honeypot, a bad token and a form sent within three seconds", async () => {
      const clock = { now: START };
      const guard = guardAt(clock);
      const token = issueContactToken(secret, START);
      const nonce = solve(token);
      clock.now = START + 2_900;
      expect(await guard.screen({ token, nonce, honeypot: "" })).toEqual({ verdict: "drop", reason: "tooFast" });
      clock.now = START + 3_100;
      expect(await guard.screen({ token, nonce, honeypot: "https://spam.example" })).toEqual({
        verdict: "drop",
        reason: "honeypot",
      });
      expect(await guard.screen({ token: "forged", nonce, honeypot: "" })).toEqual({
        verdict: "drop",
        reason: "badToken",
      });
      expect(await guard.screen({ token, nonce, honeypot: "" })).toMatchObject({ verdict: "pass", noScript: false });
    });

    it("drops a wrong proof of work, takes a form without one as sent without JavaScript", async () => {
      const clock = { now: START + 10_000 };
      const guard = guardAt(clock);
      const token = issueContactToken(secret, START);
      const wrong = String(Number(solve(token)) + 1);
      // The next nonce may solve it too (rarely): then the check is about the one after.
      const bad = isProofOfWork(readContactToken(secret, token)?.challenge ?? "", wrong) ? "x" : wrong;
      expect(await guard.screen({ token, nonce: bad, honeypot: "" })).toEqual({ verdict: "drop", reason: "badProof" });
      expect(await guard.screen({ token, nonce: "", honeypot: "" })).toMatchObject({ verdict: "pass", noScript: true });
    });

    it("tells a form kept open too long apart from a bot, and drops a token that already sent its message", async () => {
      const clock = { now: START + MAX_FORM_AGE_MS + 1 };
      const guard = guardAt(clock);
      const old = issueContactToken(secret, START);
      expect(await guard.screen({ token: old, nonce: solve(old), honeypot: "" })).toEqual({ verdict: "expired" });

      const token = issueContactToken(secret, clock.now - 5_000);
      const screened = await guard.screen({ token, nonce: solve(token), honeypot: "" });
      if (screened.verdict !== "pass") throw new Error(`not passed: ${JSON.stringify(screened)}`);
      const { challenge, issuedAt, noScript } = screened;
      expect(await guard.admit({ client: "10.0.0.1", email: "a@example.test", noScript, challenge, issuedAt })).toEqual(
        {
          verdict: "admitted",
        },
      );
      expect(await guard.screen({ token, nonce: solve(token), honeypot: "" })).toEqual({
        verdict: "drop",
        reason: "reused",
      });
    });

    it("spends a token once when its form is sent twice at once, and not at all when a limit refuses it", async () => {
      const guard = guardAt({ now: START + 10_000 });
      const sending = { client: "10.0.0.1", email: "a@example.test", noScript: false, challenge: "c", issuedAt: START };
      const verdicts = await Promise.all([guard.admit(sending), guard.admit(sending)]);
      expect(verdicts.map((verdict) => verdict.verdict).sort()).toEqual(["admitted", "reused"]);

      // The sender's limit reached: the refused message's token stays unspent, to be sent again later.
      for (let index = 1; index < MESSAGES_PER_SENDER; index++) {
        expect(await guard.admit(message(`10.0.3.${index}`, "a@example.test", false))).toEqual({ verdict: "admitted" });
      }
      const refused = { ...sending, challenge: "refused" };
      expect(await guard.admit(refused)).toMatchObject({ verdict: "wait" });
      expect(await guard.admit(refused)).toMatchObject({ verdict: "wait" });
    });
  });

  describe("the contact form's limits", () => {
    it("limits messages per client address and per sender address for an hour", async () => {
      const clock = { now: START };
      const guard = guardAt(clock);
      for (let index = 0; index < MESSAGES_PER_CLIENT; index++) {
        expect(await guard.admit(message("10.0.0.1", `person${index}@example.test`, false))).toEqual({
          verdict: "admitted",
        });
      }
      expect(await guard.admit(message("10.0.0.1", "another@example.test", false))).toMatchObject({ verdict: "wait" });

      for (let index = 0; index < MESSAGES_PER_SENDER; index++) {
        expect(await guard.admit(message(`10.0.1.${index}`, "same@example.test", false))).toEqual({
          verdict: "admitted",
        });
      }
      const refused = await guard.admit(message("10.0.2.1", "same@example.test", false));
      expect(refused.verdict === "wait" && refused.ms).toBeGreaterThan(59 * 60_000);
      // Refused attempts are not counted: an hour after the first, the sender may write again.
      clock.now += 60 * 60_000;
      expect(await guard.admit(message("10.0.2.1", "same@example.test", false))).toEqual({ verdict: "admitted" });
    });

    it("holds forms without the proof of work to tighter limits, per client and for the whole site", async () => {
      const guard = guardAt({ now: START });
      for (let index = 0; index < NO_SCRIPT_PER_CLIENT; index++) {
        expect(await guard.admit(message("10.1.0.1", `n${index}@example.test`, true))).toEqual({ verdict: "admitted" });
      }
      expect(await guard.admit(message("10.1.0.1", "n9@example.test", true))).toMatchObject({ verdict: "wait" });
      // The same client may still send with the proof of work.
      expect(await guard.admit(message("10.1.0.1", "n9@example.test", false))).toEqual({ verdict: "admitted" });

      let admitted = NO_SCRIPT_PER_CLIENT;
      for (let client = 2; admitted < NO_SCRIPT_PER_SITE; client++) {
        expect(await guard.admit(message(`10.1.0.${client}`, `s${client}@example.test`, true))).toEqual({
          verdict: "admitted",
        });
        admitted++;
      }
      expect(await guard.admit(message("10.9.9.9", "late@example.test", true))).toMatchObject({ verdict: "wait" });
      expect(await guard.admit(message("10.9.9.9", "late@example.test", false))).toEqual({ verdict: "admitted" });
    });

    it("counts a refused message nowhere", async () => {
      const guard = guardAt({ now: START });
      for (let index = 0; index < NO_SCRIPT_PER_CLIENT; index++) {
        await guard.admit(message("10.2.0.1", `r${index}@example.test`, true));
      }
      // Refused by the no-script limit: the client's and the sender's counts are as they were.
      expect(await guard.admit(message("10.2.0.1", "fresh@example.test", true))).toMatchObject({ verdict: "wait" });
      const counts = await database.db
        .selectFrom("attempt_counts")
        .select(["scope", "key", "failures"])
        .where("scope", "in", ["contact-client", "contact-sender"])
        .orderBy("scope")
        .orderBy("key")
        .execute();
      expect(counts).toEqual([
        { scope: "contact-client", key: "10.2.0.1", failures: NO_SCRIPT_PER_CLIENT },
        { scope: "contact-sender", key: "r0@example.test", failures: 1 },
        { scope: "contact-sender", key: "r1@example.test", failures: 1 },
      ]);
    });
  });
});
