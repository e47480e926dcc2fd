import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { FailedAttemptLimiter } from "#app/auth/rate-limit.server.ts";
import { leadingZeroBits, POW_BITS, POW_NONCE_PATTERN, powInput } from "./contact-fields.ts";

/**
 * The contact form's spam checks, none of which asks anyone else (no captcha service, no tracking):
 *
 * - a signed token issued with the form: when it was issued and a random challenge, with an HMAC whose key is
 *   derived from AUTH_SECRET (as the posts' preview links are). A form sent back within MIN_FORM_AGE_MS is a bot;
 *   one older than MAX_FORM_AGE_MS is refused with a message (a person who left the tab open sends it again);
 * - a proof of work on the token's challenge, found by the browser (app/components/contact/proof-of-work.ts);
 * - each token sends one message (a replay is dropped);
 * - limits per client address and per sender address, and tighter ones for forms sent without the proof of work.
 *
 * Without JavaScript there is no proof of work. Such a form is still accepted (a person without JavaScript must be
 * able to write), but counts against tighter limits: per client address, and for the whole site, so that a bot
 * that skips the proof gains little: at most NO_SCRIPT_PER_SITE messages an hour get through that way, while
 * people with JavaScript are not held up by it.
 */

export const MIN_FORM_AGE_MS = 3_000;
export const MAX_FORM_AGE_MS = 6 * 60 * 60_000;

export const CONTACT_WINDOW_MS = 60 * 60_000;
/** Messages an hour from one client address, and to the owner from one sender address. */
export const MESSAGES_PER_CLIENT = 5;
export const MESSAGES_PER_SENDER = 3;
/** Messages an hour without the proof of work: from one client address, and from everyone together. */
export const NO_SCRIPT_PER_CLIENT = 2;
export const NO_SCRIPT_PER_SITE = 20;

/** The key of the form's tokens, derived from the auth secret (never the secret itself). */
export function contactSecretOf(authSecret: string): string {
  return createHmac("sha256", authSecret).update("vitrine contact form").digest("base64url");
}

function signatureOf(secret: string, issuedAt: number, challenge: string): string {
  return createHmac("sha256", secret).update(`contact-form\n${issuedAt}\n${challenge}`).digest("base64url");
}

/** A fresh token: `<issued at, ms>.<challenge>.<signature>`. */
export function issueContactToken(secret: string, now = Date.now()): string {
  const challenge = randomBytes(16).toString("base64url");
  return `${now}.${challenge}.${signatureOf(secret, now, challenge)}`;
}

const TOKEN_PATTERN = /^(\d{13})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** The token's time and challenge when its signature holds; null for anything made up or changed. */
export function readContactToken(secret: string, token: string): { issuedAt: number; challenge: string } | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const [, issuedText = "", challenge = "", signature = ""] = match;
  const issuedAt = Number(issuedText);
  const expected = Buffer.from(signatureOf(secret, issuedAt, challenge));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { issuedAt, challenge };
}

/** Whether `nonce` solves the challenge (the digest starts with `bits` zero bits). */
export function isProofOfWork(challenge: string, nonce: string, bits = POW_BITS): boolean {
  if (!POW_NONCE_PATTERN.test(nonce)) return false;
  const digest = createHash("sha256").update(powInput(challenge, nonce), "utf8").digest();
  return leadingZeroBits(digest) >= bits;
}

export type Screening =
  /** A bot: answered as if sent, nothing kept, nothing mailed. */
  | { verdict: "drop"; reason: "honeypot" | "badToken" | "tooFast" | "badProof" | "reused" }
  /** A person who kept the form open too long: told so, their text kept, a fresh token given. */
  | { verdict: "expired" }
  | { verdict: "pass"; challenge: string; issuedAt: number; noScript: boolean };

export type ContactGuard = {
  screen(input: { token: string; nonce: string; honeypot: string }): Screening;
  /** Counts a message that passed the screening; the wait in ms when a limit is reached (nothing counted then). */
  admit(input: { client: string; email: string; noScript: boolean }): number;
  /** Remembers that a token has sent its message. */
  spend(challenge: string, issuedAt: number): void;
};

/** The most spent tokens remembered; past that the oldest are forgotten (their forms have long expired). */
const MAX_SPENT = 50_000;

/** Made once by the runtime (in memory, like the sign-in limiter: a restart forgetting the counts is acceptable). */
export function createContactGuard(options: { secret: string; now?: () => number }): ContactGuard {
  const now = options.now ?? Date.now;
  const perClient = new FailedAttemptLimiter(MESSAGES_PER_CLIENT, CONTACT_WINDOW_MS, now);
  const perSender = new FailedAttemptLimiter(MESSAGES_PER_SENDER, CONTACT_WINDOW_MS, now);
  const noScriptPerClient = new FailedAttemptLimiter(NO_SCRIPT_PER_CLIENT, CONTACT_WINDOW_MS, now);
  const noScriptPerSite = new FailedAttemptLimiter(NO_SCRIPT_PER_SITE, CONTACT_WINDOW_MS, now);
  // challenge → when its token expires (insertion order is age order).
  const spent = new Map<string, number>();

  const prune = () => {
    const at = now();
    for (const [challenge, expires] of spent) if (expires <= at) spent.delete(challenge);
    for (const challenge of spent.keys()) {
      if (spent.size <= MAX_SPENT * 0.9) break;
      spent.delete(challenge);
    }
  };

  return {
    screen({ token, nonce, honeypot }) {
      if (honeypot !== "") return { verdict: "drop", reason: "honeypot" };
      const read = readContactToken(options.secret, token);
      if (!read) return { verdict: "drop", reason: "badToken" };
      const age = now() - read.issuedAt;
      if (age < MIN_FORM_AGE_MS) return { verdict: "drop", reason: "tooFast" };
      if (spent.has(read.challenge)) return { verdict: "drop", reason: "reused" };
      if (age > MAX_FORM_AGE_MS) return { verdict: "expired" };
      const noScript = nonce === "";
      if (!noScript && !isProofOfWork(read.challenge, nonce)) return { verdict: "drop", reason: "badProof" };
      return { verdict: "pass", challenge: read.challenge, issuedAt: read.issuedAt, noScript };
    },
    admit({ client, email, noScript }) {
      const waits = [
        perClient.retryAfterMs(client),
        perSender.retryAfterMs(email),
        noScript ? noScriptPerClient.retryAfterMs(client) : 0,
        noScript ? noScriptPerSite.retryAfterMs("site") : 0,
      ];
      const wait = Math.max(...waits);
      if (wait > 0) return wait;
      perClient.recordFailure(client);
      perSender.recordFailure(email);
      if (noScript) {
        noScriptPerClient.recordFailure(client);
        noScriptPerSite.recordFailure("site");
      }
      return 0;
    },
    spend(challenge, issuedAt) {
      spent.set(challenge, issuedAt + MAX_FORM_AGE_MS);
      if (spent.size > MAX_SPENT) prune();
    },
  };
}
