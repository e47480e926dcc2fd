import type { IncomingMessage, ServerResponse } from "node:http";
import express from "express";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { finishPendingImages } from "#app/domains/media/image-finishing.server.ts";
import { mediaHandler } from "#app/domains/media/serve-media.server.ts";
import { getStorage } from "#app/domains/media/storage.server.ts";
import { type Env, parseEnv } from "#app/lib/env.server.ts";
import { MAX_BODY_BYTES } from "#app/lib/forms.server.ts";
import { clientAddressContext, databaseUnreachableContext } from "#app/lib/request-context.ts";
import { getRuntime, startRuntime, stopRuntime } from "#app/lib/runtime.server.ts";
import { sweepStorage } from "#app/lib/storage-sweeps.server.ts";
import { databaseUnavailableResponse } from "./database-unavailable.ts";
import { sendFetchResponse, sendRenderedPage, toFetchRequest } from "./fetch-bridge.ts";
import { PageCache, pageCacheKey, sendKeptPage } from "./page-cache.ts";

export { EnvError } from "#app/lib/env.server.ts";

/**
 * Uploads are posted to these resource routes, which stream the body and enforce the exact limit per kind of
 * file; here only the most a request to that route may carry (its files plus form overhead) is checked.
 */
export function bodyLimitFor(pathname: string, env: Pick<Env, "uploadMaxBytes" | "videoUploadMaxBytes">): number {
  if (pathname === "/admin/uploads/videos") return env.videoUploadMaxBytes + env.uploadMaxBytes + MAX_BODY_BYTES;
  if (pathname === "/admin/uploads/gallery" || /^\/admin\/uploads\/site\/[a-z-]+$/.test(pathname)) {
    return env.uploadMaxBytes + MAX_BODY_BYTES;
  }
  return MAX_BODY_BYTES;
}
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Validates the environment, migrates the database and seeds defaults. */
export async function startup(source: Record<string, string | undefined> = process.env) {
  const env: Env = parseEnv(source);
  const { adminSetupCode, runtime } = await startRuntime(env);
  app.set("trust proxy", env.trustProxy);
  pageCache = env.pageCache ? new PageCache({ changeVersion: runtime.database.changeVersion }) : null;
  // On PostgreSQL the first call starts listening for other processes' commits; until then nothing is kept.
  runtime.database.changeVersion();
  // Not awaited: the site answers while leftovers of interrupted uploads are removed.
  void sweepStorage(runtime.database.db, env);
  // Pictures whose sizes were not all made when the server stopped are finished now (visitors see them then).
  void finishPendingImages(runtime.database.db);
  return { env, adminSetupCode };
}

export async function shutdown() {
  await stopRuntime();
}

const SECURITY_HEADERS: [string, string][] = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["X-Frame-Options", "DENY"],
];

/** On every response, static files included (server.js mounts this before them). */
export const securityHeaders: express.RequestHandler = (_req, res, next) => {
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
  next();
};

/** Anonymous visitors' pages, rendered once per change (null when PAGE_CACHE=off, and in development). */
let pageCache: PageCache | null = null;

/**
 * The fast path, called by server.js for every request before Express sees it: a kept page is sent as it is
 * (already compressed, no routing, no file lookup). Returns false when the request goes on to Express.
 */
export function serveKeptPage(req: IncomingMessage, res: ServerResponse): boolean {
  const key = pageCache ? pageCacheKey(req) : null;
  const page = key === null ? undefined : pageCache?.lookup(key);
  if (key === null || !page) return false;
  pageCache?.touch(key, page);
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
  sendKeptPage(req, res, page, "hit");
  return true;
}

export const app = express();
app.disable("x-powered-by");
app.use(securityHeaders);

app.use((req, res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();

  const length = req.headers["content-length"];
  if (length === undefined && req.headers["transfer-encoding"]) {
    res.status(411).type("text/plain").send("A request body needs a Content-Length header.");
    return;
  }
  // The router resolves `..` and `%2e%2e` segments; a path that would change that way could borrow an upload
  // route's body limit and land elsewhere, so such writes are refused outright.
  const rawPath = req.originalUrl.split("?")[0] ?? "/";
  const pathname = new URL(rawPath, "http://localhost").pathname;
  if (pathname !== rawPath) {
    res.status(400).type("text/plain").send("The request path is not in its plain form.");
    return;
  }
  const env = getRuntime().env;
  const limit = bodyLimitFor(pathname, env);
  if (Number(length ?? 0) > limit) {
    const megabytes = Math.round(limit / 1024 / 1024);
    res.status(413).type("text/plain").send(`The request body is too large (at most ${megabytes} MB).`);
    return;
  }

  // Whatever a write request changed (rows, and files beside them), pages kept before it are stale once it is
  // answered; the database's own count already moved with each statement, this also covers the commit.
  res.on("finish", () => getRuntime().database.noteChange());

  // Refuse form posts from other sites (CSRF), on top of the SameSite=Lax session cookie.
  const origin = req.headers.origin;
  const ownOrigins = new Set([`${req.protocol}://${req.headers.host}`, env.baseUrl]);
  if (origin !== undefined ? !ownOrigins.has(origin) : req.headers["sec-fetch-site"] === "cross-site") {
    res.status(403).type("text/plain").send("Cross-site requests are refused.");
    return;
  }
  next();
});

// Uploaded media: public files by content-hashed name, private ones by signed URL (see serve-media.server.ts).
app.use(mediaHandler(getStorage));

const handleRequest = createRequestHandler(() => import("virtual:react-router/server-build"), process.env.NODE_ENV);

app.use(async (req, res, next) => {
  try {
    const context = new RouterContextProvider();
    context.set(clientAddressContext, req.ip ?? req.socket.remoteAddress ?? "unknown");
    // A request that failed because the database is away is answered 503 with a page saying so, not 500.
    const render = async () => {
      const request = toFetchRequest(req, res);
      const response = await handleRequest(request, context);
      if (!context.get(databaseUnreachableContext)) return response;
      await response.body?.cancel();
      return databaseUnavailableResponse(request);
    };
    const key = pageCache && req.method === "GET" ? pageCacheKey(req) : null;
    if (!pageCache || key === null) {
      await sendFetchResponse(res, await render());
      return;
    }
    const page = await pageCache.fill(key, async () => {
      const response = await render();
      return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
    });
    if ("etag" in page) sendKeptPage(req, res, page, "miss");
    else sendRenderedPage(res, page);
  } catch (error) {
    next(error);
  }
});
