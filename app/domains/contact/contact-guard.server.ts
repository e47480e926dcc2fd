import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import { FailedAttemptLimiter } from "#app/auth/rate-limit.server.ts";
import type { Database } from "#app/db/schema.ts";
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
 * The limits and the spent tokens are counted in the database (attempt_counts): with several server processes a
 * bot gets no more messages through, nor a token replayed on another process.
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

export type Admission =
  /** Counted, and the token is spent: the message may be kept and mailed. */
  | { verdict: "admitted" }
  /** The same form sent again while its first sending was under way: dropped like any replay. */
  | { verdict: "reused" }
  /** A limit is reached: the wait in ms. Nothing was counted, and the token may still send its message. */
  | { verdict: "wait"; ms: number };

export type ContactGuard = {
  screen(input: { token: string; nonce: string; honeypot: string }): Promise<Screening>;
  /** Spends the screened form's token and counts its message against every limit that applies to it. */
  admit(input: {
    client: string;
    email: string;
    noScript: boolean;
    challenge: string;
    issuedAt: number;
  }): Promise<Admission>;
};

/**
 * Made once by the runtime. The counts and the spent tokens are in the database (app/auth/rate-limit.server.ts),
 * like the sign-in limiter's: every server process counts the same messages, and a restart forgives none.
 */
export function createContactGuard(options: {
  db: Kysely<Database>;
  secret: string;
  now?: () => number;
}): ContactGuard {
  const now = options.now ?? Date.now;
  const limiter = (scope: string, max: number) =>
    new FailedAttemptLimiter(options.db, scope, max, CONTACT_WINDOW_MS, now);
  const perClient = limiter("contact-client", MESSAGES_PER_CLIENT);
  const perSender = limiter("contact-sender", MESSAGES_PER_SENDER);
  const noScriptPerClient = limiter("contact-noscript-client", NO_SCRIPT_PER_CLIENT);
  const noScriptPerSite = limiter("contact-noscript-site", NO_SCRIPT_PER_SITE);
  // A token's challenge, counted once until the token expires: a second sending of it is a replay.
  const spent = limiter("contact-token", 1);

  return {
    async screen({ token, nonce, honeypot }) {
      if (honeypot !== "") return { verdict: "drop", reason: "honeypot" };
      const read = readContactToken(options.secret, token);
      if (!read) return { verdict: "drop", reason: "badToken" };
      const age = now() - read.issuedAt;
      if (age < MIN_FORM_AGE_MS) return { verdict: "drop", reason: "tooFast" };
      if ((await spent.retryAfterMs(read.challenge)) > 0) return { verdict: "drop", reason: "reused" };
      if (age > MAX_FORM_AGE_MS) return { verdict: "expired" };
      const noScript = nonce === "";
      if (!noScript && !isProofOfWork(read.challenge, nonce)) return { verdict: "drop", reason: "badProof" };
      return { verdict: "pass", challenge: read.challenge, issuedAt: read.issuedAt, noScript };
    },
    async admit({ client, email, noScript, challenge, issuedAt }) {
      // The token first, in one statement: of the same form sent twice at once (to one process or two), one
      // spends it and the other is a replay, whatever the screening saw before either was counted.
      if ((await spent.begin(challenge, issuedAt + MAX_FORM_AGE_MS)) > 0) return { verdict: "reused" };
      const limits: (readonly [FailedAttemptLimiter, string])[] = [
        [perClient, client],
        [perSender, email],
      ];
      if (noScript) limits.push([noScriptPerClient, client], [noScriptPerSite, "site"]);
      // Each limit counts atomically; when any refuses, the ones that counted take it back, so that a refused
      // message counts nowhere and its token is not spent (the visitor sends the same form again later).
      const waits: number[] = [];
      for (const [limit, key] of limits) waits.push(await limit.begin(key));
      const wait = Math.max(...waits);
      if (wait === 0) return { verdict: "admitted" };
      for (const [index, [limit, key]] of limits.entries()) if (waits[index] === 0) await limit.forgive(key);
      await spent.forgive(challenge);
      return { verdict: "wait", ms: wait };
    },
  };
}
