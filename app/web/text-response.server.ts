import { createHash } from "node:crypto";
import { PUBLIC_PAGE_CACHE_CONTROL } from "#app/web/cache-policy.ts";

/**
 * A sitemap, feed or robots.txt as the answer: revalidated on every request like the pages, with an ETag, so
 * a feed reader or crawler that polls gets a 304 without the body while nothing has changed.
 */
export function textResponse(request: Request, body: string, contentType: string): Response {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  const headers = { "Content-Type": contentType, "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL, ETag: etag };
  const match = request.headers.get("If-None-Match");
  if (match?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { headers });
}
