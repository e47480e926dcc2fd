import { createRequestHandler } from "@react-router/express";
import express from "express";
import { RouterContextProvider } from "react-router";
import { mediaHandler } from "#app/domains/media/serve-media.server.ts";
import { getStorage } from "#app/domains/media/storage.server.ts";
import { type Env, parseEnv } from "#app/lib/env.server.ts";
import { MAX_BODY_BYTES } from "#app/lib/forms.server.ts";
import { clientAddressContext } from "#app/lib/request-context.ts";
import { getRuntime, startRuntime, stopRuntime } from "#app/lib/runtime.server.ts";
import { sweepStorage } from "#app/lib/storage-sweeps.server.ts";

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
  // Not awaited: the site answers while leftovers of interrupted uploads are removed.
  void sweepStorage(runtime.database.db, env);
  return { env, adminSetupCode };
}

export async function shutdown() {
  await stopRuntime();
}

/** On every response, static files included (server.js mounts this before them). */
export const securityHeaders: express.RequestHandler = (_req, res, next) => {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  next();
};

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

app.use(
  createRequestHandler({
    build: () => import("virtual:react-router/server-build"),
    getLoadContext(req) {
      const context = new RouterContextProvider();
      context.set(clientAddressContext, req.ip ?? req.socket.remoteAddress ?? "unknown");
      return context;
    },
  }),
);
