import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import {
  contentTypeOf,
  keyFromPath,
  PRIVATE_MEDIA_CACHE_CONTROL,
  PUBLIC_MEDIA_CACHE_CONTROL,
} from "#app/domains/media/media-keys.server.ts";
import {
  type FileStorage,
  PRIVATE_MEDIA_PATH,
  PUBLIC_MEDIA_PATH,
  StorageError,
} from "#app/domains/media/storage.server.ts";

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

function send(res: ServerResponse, status: number, text: string) {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.end(text);
}

/** Streams a stored file with its content type, ETag, and single byte ranges (video seeking). */
async function serveFile(
  storage: FileStorage,
  key: string,
  req: IncomingMessage,
  res: ServerResponse,
  cacheControl: string,
): Promise<void> {
  const info = await storage.stat(key);
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

/**
 * `/media/<key under public/>` for everyone (names carry a content hash: cached for a year, immutable) and
 * `/media-private/<key under private/>?expires=…&sig=…` only with a valid, unexpired signature.
 * Anything else is passed on (`next`).
 */
export function mediaHandler(storageOf: () => FileStorage) {
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const url = new URL(req.url ?? "/", "http://localhost");
    const isPublic = url.pathname.startsWith(PUBLIC_MEDIA_PATH);
    const isPrivate = url.pathname.startsWith(PRIVATE_MEDIA_PATH);
    if (!isPublic && !isPrivate) return next();
    const storage = storageOf();
    const key = isPublic
      ? keyFromPath(url.pathname, PUBLIC_MEDIA_PATH, "public")
      : keyFromPath(url.pathname, PRIVATE_MEDIA_PATH, "private");
    const run = async () => {
      if (!key) return send(res, 404, "Not found");
      if (isPrivate) {
        if (!storage.verifySignature(key, url.searchParams.get("expires"), url.searchParams.get("sig"))) {
          return send(res, 403, "This link is invalid or has expired.");
        }
        return serveFile(storage, key, req, res, PRIVATE_MEDIA_CACHE_CONTROL);
      }
      return serveFile(storage, key, req, res, PUBLIC_MEDIA_CACHE_CONTROL);
    };
    run().catch((error) => {
      if (error instanceof StorageError) return send(res, 404, "Not found");
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      next(error);
    });
  };
}
