import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { isBucketUnavailable, isS3Storage, type S3FileStorage } from "#app/domains/media/bucket-storage.server.ts";
import { MEMBER_MEDIA_PATH } from "#app/domains/media/image-display.ts";
import {
  contentTypeOf,
  keyFromPath,
  PRIVATE_MEDIA_CACHE_CONTROL,
  PUBLIC_MEDIA_CACHE_CONTROL,
} from "#app/domains/media/media-keys.server.ts";
import { MEMBER_PREFIX } from "#app/domains/media/member-files.server.ts";
import {
  type FileStorage,
  PRIVATE_MEDIA_PATH,
  PUBLIC_MEDIA_PATH,
  StorageError,
  type StoredFile,
} from "#app/domains/media/storage.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";

/** One `bytes=` range of a file `size` bytes long; null for none or several (served whole), "invalid" for unsatisfiable. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | "invalid" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return header.includes(",") ? null : "invalid";
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return "invalid";
  let start: number;
  let end: number;
  if (first === "") {
    // The last N bytes.
    const suffix = Number(last);
    if (suffix === 0) return "invalid";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(first);
    end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  }
  if (start >= size || start > end) return "invalid";
  return { start, end };
}

/** What describes a file's bytes: dropped when the answer turns out to be no file after all. */
const FILE_HEADERS = ["Content-Length", "Content-Range", "Accept-Ranges", "ETag", "Last-Modified"];

function send(res: ServerResponse, status: number, text: string) {
  // A file that vanished between its look-up and its read (removed by another instance) is answered 404 with
  // the headers of this text, not with the length and ETag of the file it no longer is.
  for (const name of FILE_HEADERS) res.removeHeader(name);
  res.statusCode = status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.end(text);
}

/** Public files' sizes and dates kept per bucket storage, at most KEPT_STATS, each for STAT_KEPT_MS. */
const keptStats = new WeakMap<FileStorage, Map<string, { info: StoredFile; until: number }>>();
const KEPT_STATS = 10_000;
const STAT_KEPT_MS = 10 * 60_000;

/**
 * A file's size and date. A public file's in a bucket is kept a while: its name carries its content hash (a video's
 * a random id), so what is kept never goes stale, only missing, and a kept one saves a round trip to the bucket per
 * request (the HEAD before the GET; a 304 asks the bucket nothing). A kept file removed meanwhile is answered 404 by
 * its read. The local disk answers a look-up in microseconds: nothing is kept for it.
 */
async function statOf(storage: FileStorage, key: string): Promise<StoredFile | null> {
  if (!key.startsWith("public/") || !isS3Storage(storage)) return storage.stat(key);
  const kept = keptStats.get(storage) ?? new Map();
  keptStats.set(storage, kept);
  const now = Date.now();
  const hit = kept.get(key);
  if (hit && hit.until > now) return hit.info;
  const info = await storage.stat(key);
  kept.delete(key);
  if (info) {
    kept.set(key, { info, until: now + STAT_KEPT_MS });
    // A Map keeps the order of insertion: the first entry is the oldest.
    if (kept.size > KEPT_STATS) kept.delete(kept.keys().next().value as string);
  }
  return info;
}

/** Streams a stored file with its content type, ETag, and single byte ranges (video seeking). */
async function serveFile(
  storage: FileStorage,
  key: string,
  req: IncomingMessage,
  res: ServerResponse,
  cacheControl: string,
): Promise<void> {
  const info = await statOf(storage, key);
  if (!info) return send(res, 404, "Not found");
  const etag = `"${info.size.toString(16)}-${info.modifiedAt.getTime().toString(16)}"`;
  res.setHeader("Content-Type", contentTypeOf(key));
  res.setHeader("Cache-Control", cacheControl);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Accept-Ranges", "bytes");
  res.setHeader("ETag", etag);
  res.setHeader("Last-Modified", info.modifiedAt.toUTCString());
  if (req.headers["if-none-match"] === etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const ifRange = req.headers["if-range"];
  const range = ifRange && ifRange !== etag ? null : parseRange(req.headers.range, info.size);
  if (range === "invalid") {
    res.statusCode = 416;
    res.setHeader("Content-Range", `bytes */${info.size}`);
    res.end();
    return;
  }
  if (range) {
    res.statusCode = 206;
    res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${info.size}`);
    res.setHeader("Content-Length", String(range.end - range.start + 1));
  } else {
    res.statusCode = 200;
    res.setHeader("Content-Length", String(info.size));
  }
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  // A visitor who stopped waiting (a lazy picture scrolled away, a page left) is no error; nor is a file
  // opened for nobody: it is closed at once instead of when the garbage collector finds it.
  if (res.destroyed) return;
  const stream = await storage.readStream(key, range ?? undefined);
  if (res.destroyed) {
    stream.destroy();
    return;
  }
  await pipeline(stream, res).catch((error: unknown) => {
    stream.destroy();
    if (!res.destroyed) throw error;
  });
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return typeof code === "string" && !message?.includes(code) ? `${code}: ${message}` : (message ?? "");
}

/**
 * Bench only (scripts/bench/media-serving.ts, decision 012): `VITRINE_BENCH_MEDIA_REDIRECT=signed` answers a
 * public file on a bucket with a 302 to a URL signed for that request, `=bucketed` to one signed for the current
 * REDIRECT_WINDOW_S (the same URL for everyone in it). Read once at start. Measured and not chosen: media are
 * served through the site. Private files are never redirected, whatever the switch says.
 */
const BENCH_REDIRECT = ((value) => (value === "signed" || value === "bucketed" ? value : null))(
  process.env.VITRINE_BENCH_MEDIA_REDIRECT,
);
const REDIRECT_WINDOW_S = 3600;

async function redirectToBucket(storage: S3FileStorage, key: string, res: ServerResponse): Promise<void> {
  const now = Date.now() / 1000;
  const windowStart = Math.floor(now / REDIRECT_WINDOW_S) * REDIRECT_WINDOW_S;
  // A bucketed URL is valid for two windows from its window's start, so that one kept until its window ends works.
  const signed =
    BENCH_REDIRECT === "bucketed"
      ? await storage.signedObjectUrl(key, 2 * REDIRECT_WINDOW_S, new Date(windowStart * 1000))
      : await storage.signedObjectUrl(key, REDIRECT_WINDOW_S);
  res.statusCode = 302;
  res.setHeader("Location", signed);
  res.setHeader(
    "Cache-Control",
    BENCH_REDIRECT === "bucketed" ? `public, max-age=${Math.floor(windowStart + REDIRECT_WINDOW_S - now)}` : "no-store",
  );
  res.end();
}

/**
 * `/media/<key under public/>` for everyone (names carry a content hash: cached for a year, immutable) and
 * `/media-private/<key under private/>?expires=…&sig=…` only with a valid, unexpired signature.
 * Anything else is passed on (`next`).
 */
export function mediaHandler(storageOf: () => FileStorage, mayReadMemberFolder: MemberFolderCheck = noMemberFiles) {
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname.startsWith(MEMBER_MEDIA_PATH)) {
      serveMemberFile(storageOf(), mayReadMemberFolder, url.pathname, req, res).catch((error) =>
        failed(error, url, res, next),
      );
      return;
    }
    const isPublic = url.pathname.startsWith(PUBLIC_MEDIA_PATH);
    const isPrivate = url.pathname.startsWith(PRIVATE_MEDIA_PATH);
    if (!isPublic && !isPrivate) return next();
    const storage = storageOf();
    const key = isPublic
      ? keyFromPath(url.pathname, PUBLIC_MEDIA_PATH, "public")
      : keyFromPath(url.pathname, PRIVATE_MEDIA_PATH, "private");
    const run = async () => {
      if (!key) return send(res, 404, "Not found");
      if (isPublic && BENCH_REDIRECT && isS3Storage(storage)) return redirectToBucket(storage, key, res);
      if (isPrivate) {
        if (!storage.verifySignature(key, url.searchParams.get("expires"), url.searchParams.get("sig"))) {
          return send(res, 403, "This link is invalid or has expired.");
        }
        return serveFile(storage, key, req, res, PRIVATE_MEDIA_CACHE_CONTROL);
      }
      return serveFile(storage, key, req, res, PUBLIC_MEDIA_CACHE_CONTROL);
    };
    run().catch((error) => failed(error, url, res, next));
  };
}

/** A file that could not be served: gone (404), the bucket away (503), else the error page. */
function failed(error: unknown, url: URL, res: ServerResponse, next: (error?: unknown) => void) {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  if (error instanceof StorageError) return send(res, 404, "Not found");
  if (isBucketUnavailable(error)) {
    // The bucket is away or overloaded, not this file: "try again shortly", kept by no cache, one line
    // without a stack (as for an unreachable database; /readyz takes the instance out of rotation meanwhile).
    getLogger().warn({ path: url.pathname, reason: reasonOf(error) }, "Storage unreachable");
    res.setHeader("Retry-After", "5");
    return send(res, 503, "The media storage is not answering. Please try again shortly.");
  }
  next(error);
}

/** Whether the request's reader may see the picture or video whose files are in a member folder (member-media.server.ts). */
export type MemberFolderCheck = (req: IncomingMessage, folder: string) => Promise<boolean>;

/** Without a check (a handler of public and signed files only), no member file is served. */
const noMemberFiles: MemberFolderCheck = async () => false;

/**
 * A member file's address: `/media/members/<folder>/<width>-<hash>.<ext>` (a picture's or a video poster's size), or
 * `/media/members/<folder>/<uuid>.<mp4|webm>` (a restricted uploaded video).
 */
const MEMBER_FILE = /^([A-Za-z0-9_-]+)\/(\d+-[0-9a-f]+\.(?:avif|webp|jpg)|[0-9a-f-]{36}\.(?:mp4|webm))$/;
/**
 * A restricted picture's or video's file (issue 21), for its own reader only: checked on every request, kept by no shared
 * cache, and revalidated by the browser each time (its ETag answers 304), so that a reader who loses access loses
 * the files at their next request. Anyone else gets the answer of a file that does not exist.
 */
export const MEMBER_MEDIA_CACHE_CONTROL = "private, no-cache";

async function serveMemberFile(
  storage: FileStorage,
  mayRead: MemberFolderCheck,
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const match = MEMBER_FILE.exec(pathname.slice(MEMBER_MEDIA_PATH.length));
  const [, folder = "", file = ""] = match ?? [];
  if (!match || !(await mayRead(req, folder))) return send(res, 404, "Not found");
  return serveFile(storage, `${MEMBER_PREFIX}${folder}/${file}`, req, res, MEMBER_MEDIA_CACHE_CONTROL);
}
