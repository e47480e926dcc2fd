import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "#app/lib/logger.server.ts";

/** A request id from a proxy in front is taken only in this plain form; anything else gets a fresh one. */
const INCOMING_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,99}$/;
/** Query parameters that carry secrets (signed media URLs, invite links, tokens): their values are not logged. */
const SECRET_PARAMS = /^(sig|signature|token|invite|code|password|secret|key|auth.*|session.*)$/i;
const HEALTH_PATHS = new Set(["/healthz", "/readyz"]);
/** Paths whose last segment is a token: an unsubscribe link's (it unsubscribes whoever holds it). */
const SECRET_PATH = /^(\/unsubscribe\/)[^/?]+/;

export const REQUEST_ID_HEADER = "X-Request-Id";

/** The path and, when there is one, the query with known secret values replaced. */
export function loggedTarget(url: string): { path: string; query?: string } {
  const mark = url.indexOf("?");
  const path = (mark === -1 ? url : url.slice(0, mark)).replace(SECRET_PATH, "$1[redacted]");
  if (mark === -1) return { path };
  const params = new URLSearchParams(url.slice(mark + 1));
  if (params.size === 0) return { path };
  for (const name of new Set(params.keys())) if (SECRET_PARAMS.test(name)) params.set(name, "[redacted]");
  return { path, query: params.toString().replaceAll("%5Bredacted%5D", "[redacted]") };
}

export type RequestLogOptions = {
  logger: Logger;
  /** Whether an `X-Request-Id` from the client may be used: only behind a proxy (TRUST_PROXY). */
  trustIncomingId: boolean;
};

/**
 * Gives the request its id (answered as `X-Request-Id`) and logs one line when its response is done, whoever
 * answers it (the page cache's fast path or Express). Health checks are logged at debug level only.
 */
export function startRequestLog(req: IncomingMessage, res: ServerResponse, options: RequestLogOptions): string {
  const started = performance.now();
  const incoming = options.trustIncomingId ? req.headers["x-request-id"] : undefined;
  const id = typeof incoming === "string" && INCOMING_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  res.once("close", () => {
    const target = loggedTarget(req.url ?? "/");
    const level = HEALTH_PATHS.has(target.path) ? "debug" : "info";
    if (!options.logger.isLevelEnabled(level)) return;
    const line: Record<string, unknown> = {
      reqId: id,
      method: req.method,
      ...target,
      status: res.statusCode,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    // The visitor went away before the whole answer was sent.
    if (!res.writableFinished) line.aborted = true;
    options.logger[level](line, "request");
  });
  return id;
}
