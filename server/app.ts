import { createRequestHandler } from "@react-router/express";
import express from "express";
import { RouterContextProvider } from "react-router";
import { type Env, parseEnv } from "#app/lib/env.server.ts";
import { clientAddressContext } from "#app/lib/request-context.ts";
import { getRuntime, startRuntime, stopRuntime } from "#app/lib/runtime.server.ts";

export { EnvError } from "#app/lib/env.server.ts";

/** Form posts and API bodies are small; anything larger is refused before it is read. */
export const MAX_BODY_BYTES = 1024 * 1024;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Validates the environment, migrates the database and seeds defaults. */
export async function startup(source: Record<string, string | undefined> = process.env) {
  const env: Env = parseEnv(source);
  const { adminSetupCode } = await startRuntime(env);
  app.set("trust proxy", env.trustProxy);
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
  if (Number(length ?? 0) > MAX_BODY_BYTES) {
    res.status(413).type("text/plain").send("The request body is too large (at most 1 MB).");
    return;
  }

  // Refuse form posts from other sites (CSRF), on top of the SameSite=Lax session cookie.
  const origin = req.headers.origin;
  const ownOrigins = new Set([`${req.protocol}://${req.headers.host}`, getRuntime().env.baseUrl]);
  if (origin !== undefined ? !ownOrigins.has(origin) : req.headers["sec-fetch-site"] === "cross-site") {
    res.status(403).type("text/plain").send("Cross-site requests are refused.");
    return;
  }
  next();
});

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
