import { createHmac, timingSafeEqual } from "node:crypto";

/*
 * The token of an unsubscribe link (issue 21): the account's id and an HMAC of it with a key derived from
 * AUTH_SECRET. Nothing is stored, so every mail to an account carries the same working link without a table of
 * tokens, and no one can make a link for another account without the secret. A token never expires: a mail's
 * unsubscribe button must work however old the mail is (RFC 8058). Changing AUTH_SECRET voids every link sent.
 */

/** The address of the unsubscribe page and of its one-click POST (app/routes/unsubscribe.$token.tsx). */
export const UNSUBSCRIBE_PATH = "/unsubscribe/";

/** The key of unsubscribe links, derived from the auth secret (never the secret itself). */
export function unsubscribeSecretOf(authSecret: string): string {
  return createHmac("sha256", authSecret).update("vitrine unsubscribe").digest("base64url");
}

function signatureOf(secret: string, userId: string): string {
  return createHmac("sha256", secret).update(`unsubscribe\n${userId}`).digest("base64url");
}

/** The token for `userId`: `<id in base64url>.<signature>`, safe in a path segment. */
export function unsubscribeTokenFor(secret: string, userId: string): string {
  return `${Buffer.from(userId, "utf8").toString("base64url")}.${signatureOf(secret, userId)}`;
}

/** The absolute unsubscribe address for `userId` on the site at `baseUrl`; its page in German for `de`. */
export function unsubscribeUrlFor(baseUrl: string, secret: string, userId: string, lang: "en" | "de" = "en"): string {
  const url = new URL(`${UNSUBSCRIBE_PATH}${unsubscribeTokenFor(secret, userId)}`, baseUrl);
  if (lang === "de") url.searchParams.set("lang", "de");
  return url.href;
}

/** The account a token names when its signature holds; null for anything else (checked in constant time). */
export function verifyUnsubscribeToken(secret: string, token: string): string | null {
  const match = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match?.[1] || !match[2]) return null;
  const userId = Buffer.from(match[1], "base64url").toString("utf8");
  if (userId.length === 0 || Buffer.from(userId, "utf8").toString("base64url") !== match[1]) return null;
  const expected = Buffer.from(signatureOf(secret, userId));
  const given = Buffer.from(match[2]);
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
}
