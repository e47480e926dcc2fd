import { PUBLIC_MEDIA_PATH } from "./storage.server.ts";

// Media addresses and storage keys, both ways, and a file's type by its name: shared by the server that answers
// /media/… (app/web/serve-media.server.ts) and what describes a file without serving it (the feeds' enclosures).

const CONTENT_TYPES: Record<string, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  ico: "image/x-icon",
  mp4: "video/mp4",
  webm: "video/webm",
};

export function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf(".") + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? "application/octet-stream";
}

/**
 * What `/media/…` sends: public names carry a content hash (see storage.server.ts), so they are cacheable for a
 * year and never change. A storage that keeps headers with each file (S3) stores the same, so that a file served
 * from there one day behaves as it does through the site.
 */
export const PUBLIC_MEDIA_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** What `/media-private/…` sends: a signed link's file is for whoever holds the link, never a shared cache. */
export const PRIVATE_MEDIA_CACHE_CONTROL = "private, no-store";
/** A valid key is `public/…` or `private/…` (assertValidKey); anything not public is kept out of shared caches. */
export function cacheControlOf(key: string): string {
  return key.startsWith("public/") ? PUBLIC_MEDIA_CACHE_CONTROL : PRIVATE_MEDIA_CACHE_CONTROL;
}

export function keyFromPath(pathname: string, prefix: string, area: "public" | "private"): string | null {
  let rest: string;
  try {
    rest = decodeURIComponent(pathname.slice(prefix.length));
  } catch {
    return null;
  }
  return `${area}/${rest}`;
}

/** The storage key of a public media address (`/media/images/…` → `public/images/…`), or null for any other. */
export function publicMediaKey(pathname: string): string | null {
  return pathname.startsWith(PUBLIC_MEDIA_PATH) ? keyFromPath(pathname, PUBLIC_MEDIA_PATH, "public") : null;
}
