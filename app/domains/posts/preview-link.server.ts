import { createHmac, timingSafeEqual } from "node:crypto";
import { ROW_ID_PATTERN } from "#app/lib/text-schema.ts";

/**
 * "Preview as visitor" links for posts visitors cannot see yet (drafts, scheduled): whoever holds one sees the
 * post as a visitor would, until it expires. The link names the post and its expiry and carries an HMAC of both
 * (the key derived from AUTH_SECRET, so no new setting); nothing is stored, so a link cannot be revoked early
 * except by changing AUTH_SECRET.
 */

/** The page that shows a preview (app/routes/blog.preview.tsx). */
export const PREVIEW_PATH = "/blog/preview";
/** How long a link works unless asked otherwise: a week, time enough to send it to a proofreader. */
export const PREVIEW_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** The key for preview links, derived from the auth secret (never the secret itself). */
export function previewSecretOf(authSecret: string): string {
  return createHmac("sha256", authSecret).update("vitrine post preview").digest("base64url");
}

function signatureOf(secret: string, postId: string, expires: number): string {
  return createHmac("sha256", secret).update(`post-preview\n${postId}\n${expires}`).digest("base64url");
}

/**
 * The preview address of post `postId` (path and query, e.g. `/blog/preview?post=…&expires=…&signature=…`),
 * valid until `now + lifetimeMs`. Add `&lang=de` for the German version.
 */
export function signPreviewLink(postId: string, options: { secret: string; now?: Date; lifetimeMs?: number }): string {
  const expires = (options.now ?? new Date()).getTime() + (options.lifetimeMs ?? PREVIEW_LIFETIME_MS);
  const query = new URLSearchParams({
    post: postId,
    expires: String(expires),
    signature: signatureOf(options.secret, postId, expires),
  });
  return `${PREVIEW_PATH}?${query}`;
}

/** The post a preview address names when its signature holds and it has not expired; null for anything else. */
export function verifyPreviewLink(
  params: URLSearchParams,
  options: { secret: string; now?: Date },
): { postId: string; expiresAt: Date } | null {
  const postId = params.get("post") ?? "";
  const expiresText = params.get("expires") ?? "";
  const signature = params.get("signature") ?? "";
  if (!ROW_ID_PATTERN.test(postId) || !/^\d{1,15}$/.test(expiresText)) return null;
  const expires = Number(expiresText);
  if (expires <= (options.now ?? new Date()).getTime()) return null;
  const expected = Buffer.from(signatureOf(options.secret, postId, expires));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { postId, expiresAt: new Date(expires) };
}
