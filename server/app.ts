import type { IncomingMessage, ServerResponse } from "node:http";
import express from "express";
import { createRequestHandler, matchPath, RouterContextProvider, type ServerBuild } from "react-router";
import { recordWrites, WriteLog } from "#app/db/change-versions.server.ts";
import { keptStamp, settleKept } from "#app/db/version-cache.server.ts";
import { groupEventReaders } from "#app/domains/live/group-readers.server.ts";
import { formatMegabytes } from "#app/domains/media/upload.server.ts";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import { type Env, parseEnv } from "#app/lib/env.server.ts";
import { createLogger, getLogger, type Logger, logLevelFrom, setLogger } from "#app/lib/logger.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import {
  clientAddressContext,
  databaseUnreachableContext,
  requestIdContext,
  visitNotesContext,
} from "#app/lib/request-context.ts";
import {
  MAX_BODY_BYTES,
  type UploadFileLimits,
  type UploadSizes,
  uploadBodyLimit,
  uploadLimitsOf,
} from "#app/lib/upload-limit.ts";
import { getRuntime, startRuntime, stopRuntime } from "#app/runtime/runtime.server.ts";
import { runtimeContext } from "#app/runtime/runtime-context.ts";
import { noteRequest } from "#app/runtime/settle-memory.server.ts";
import { memberFolderCheck } from "#app/web/member-media.server.ts";
import { mediaHandler } from "#app/web/serve-media.server.ts";
import { identifyStreamHolder } from "#app/web/session.server.ts";
import { databaseUnavailableResponse } from "./database-unavailable.ts";
import { createEventStreams } from "./event-streams.ts";
import { sendFetchResponse, sendRenderedPage, toFetchRequest } from "./fetch-bridge.ts";
import { healthHandler } from "./health.ts";
import { pageDependenciesOfKey } from "./page-areas.ts";
import { PageCache, pageCacheKey, sendKeptPage } from "./page-cache.ts";
import { startRequestLog } from "./request-log.ts";
import { countKeptPage, pictureSeenHandler, visitHoldFor } from "./visit-count.ts";

export { EnvError } from "#app/lib/env.server.ts";
export { whenLogWritten } from "#app/lib/logger.server.ts";

/**
 * The upload routes of the build, each with the full path React Router matches and the limits its module declares
 * in its `handle` (see upload-limit.ts); read once per build (in development, each reload brings a new one).
 */
type UploadRoute = { path: string; fileLimits: UploadFileLimits };
const uploadRoutesByBuild = new WeakMap<ServerBuild, UploadRoute[]>();

export function uploadRoutesOf(build: ServerBuild): UploadRoute[] {
  const known = uploadRoutesByBuild.get(build);
  if (known) return known;
  const fullPath = (id: string | undefined): string => {
    const route = id ? build.routes[id] : undefined;
    if (!route) return "";
    const own = route.path ?? "";
    const parent = fullPath(route.parentId);
    return own.startsWith("/") ? own : `${parent.replace(/\/$/, "")}/${own}`;
  };
  const found: UploadRoute[] = [];
  for (const route of Object.values(build.routes)) {
    const fileLimits = uploadLimitsOf(route?.module.handle);
    if (route && fileLimits) found.push({ path: fullPath(route.id), fileLimits });
  }
  uploadRoutesByBuild.set(build, found);
  return found;
}

/**
 * The most a write to the path may carry: an upload route's own limit (its files streamed to disk by the route,
 * which enforces each file's size), otherwise the small limit of a form or API body.
 */
export function bodyLimitFor(
  pathname: string,
  sizes: UploadSizes,
  uploadRoutes: UploadRoute[],
): { bytes: number; upload: UploadFileLimits | null } {
  const route = uploadRoutes.find((candidate) => matchPath({ path: candidate.path, end: true }, pathname));
  return route
    ? { bytes: uploadBodyLimit(route.fileLimits, sizes), upload: route.fileLimits }
    : { bytes: MAX_BODY_BYTES, upload: null };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** The largest body of a refused write that is read before the answer (larger ones: answered, connection closed). */
const REFUSED_BODY_READ_BYTES = 8 * 1024 * 1024;
const REFUSED_BODY_QUIET_MS = 1000;

/**
 * The process's logger, made once by server.js before the start (the composition root) at the LOG_LEVEL asked
 * for; every module reaches it through `getLogger()`. A bad LOG_LEVEL is reported by `startup` like any variable.
 */
export function createServerLogger(source: Record<string, string | undefined> = process.env): Logger {
  const logger = createLogger({ level: logLevelFrom(source) });
  setLogger(logger);
  return logger;
}

/** Whether a proxy's `X-Request-Id` may be used: only when proxies in front are trusted at all. */
let trustIncomingRequestId = false;

/** Behind a proxy (TRUST_PROXY), the site's public origin (BASE_URL): see requestOrigin in fetch-bridge.ts. */
let publicOrigin: string | null = null;

const HEALTH_PATHS = /^\/(healthz|readyz)(\?|$)/;

/** Gives every request its id and one log line; server.js calls it first, before the page cache's fast path. */
export function logRequest(req: IncomingMessage, res: ServerResponse): void {
  // Counted for the memory's settling when the site falls quiet (settle-memory.server.ts); a proxy's health checks
  // every few seconds are no traffic, and would keep it from ever settling.
  if (!HEALTH_PATHS.test(req.url ?? "")) noteRequest();
  (req as IncomingMessage & { id?: string }).id = startRequestLog(req, res, {
    logger: getLogger(),
    trustIncomingId: trustIncomingRequestId,
  });
}

/** Validates the environment, migrates the database and seeds defaults. */
export async function startup(source: Record<string, string | undefined> = process.env) {
  const env: Env = parseEnv(source);
  const { adminSetupCode, runtime } = await startRuntime(env);
  SECURITY_HEADERS = securityHeadersFor(env.baseUrl);
  app.set("trust proxy", env.trustProxy);
  trustIncomingRequestId = env.trustProxy > 0;
  publicOrigin = env.trustProxy > 0 ? env.baseUrl : null;
  pageCache = env.pageCache ? pageCacheFor(runtime.database.db) : null;
  eventStreams?.stop();
  eventStreams = createEventStreams({
    feed: runtime.changeFeed,
    identify: (cookie) => identifyStreamHolder(cookie, runtime),
    groupReaders: (events) => groupEventReaders(runtime.database.db, events),
    limits: { perClient: env.live.maxStreamsPerClient, total: env.live.maxStreams },
    onError: (error) => getLogger().warn({ err: error }, "A live stream could not read its session or events"),
  });
  // On PostgreSQL the first call starts listening for other processes' commits; until then nothing is kept.
  runtime.database.changeVersion();
  return { env, adminSetupCode };
}

export async function shutdown() {
  eventStreams?.stop();
  eventStreams = null;
  await stopRuntime();
}

/** The live streams (GET /api/events), made at startup from the runtime's change feed. */
let eventStreams: ReturnType<typeof createEventStreams> | null = null;

/** Ends every live stream with a goodbye, so that a stop does not wait for them (server.js, on SIGTERM). */
export function closeEventStreams() {
  eventStreams?.closeAll("shutdown");
}

/** The privacy-enhanced players a visitor may start (as in the CSP's frame-src); they may play full screen. */
const VIDEO_PLAYERS = '"https://www.youtube-nocookie.com" "https://player.vimeo.com"';

/**
 * Every browser feature the site does not use is off, for its pages and anything framed in them. The video players
 * keep what their iframe's `allow` asks (app/components/video-player.tsx): autoplay (the click that loads them also
 * starts them), encrypted media, full screen and picture-in-picture.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  `autoplay=(self ${VIDEO_PLAYERS})`,
  "browsing-topics=()",
  "camera=()",
  "display-capture=()",
  `encrypted-media=(self ${VIDEO_PLAYERS})`,
  `fullscreen=(self ${VIDEO_PLAYERS})`,
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  `picture-in-picture=(self ${VIDEO_PLAYERS})`,
  "publickey-credentials-get=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
].join(", ");

/**
 * HTTPS only from now on, for a year, when the site's address is https (a browser ignores the header over http).
 * Without includeSubDomains: the server cannot know which other hosts live under its domain, and one of them
 * without HTTPS would be unreachable for a year; an owner who knows can add it (and preload) at the proxy.
 */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000";

const BASE_SECURITY_HEADERS: [string, string][] = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["X-Frame-Options", "DENY"],
  ["Permissions-Policy", PERMISSIONS_POLICY],
];

/** Set at startup, when BASE_URL is known. */
let SECURITY_HEADERS = BASE_SECURITY_HEADERS;

export function securityHeadersFor(baseUrl: string): [string, string][] {
  return baseUrl.startsWith("https://")
    ? [...BASE_SECURITY_HEADERS, ["Strict-Transport-Security", STRICT_TRANSPORT_SECURITY]]
    : BASE_SECURITY_HEADERS;
}

/** On every response, static files included (server.js mounts this before them). */
export const securityHeaders: express.RequestHandler = (req, res, next) => {
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
  // A share link's address holds its token (issue 21): its pages name no address to any site a link leads to.
  if (req.path.startsWith("/s/") || req.path.startsWith("/unsubscribe/"))
    res.setHeader("Referrer-Policy", "no-referrer");
  next();
};

/** Anonymous visitors' pages, rendered once per change (null when PAGE_CACHE=off, and in development). */
let pageCache: PageCache | null = null;

/** The page cache, each page kept until what it shows changes (server/page-areas.ts). */
function pageCacheFor(db: object): PageCache {
  return new PageCache({
    changeVersion: (key) => keptStamp(db, pageDependenciesOfKey(key)),
    settle: (key) => settleKept(db, pageDependenciesOfKey(key)),
    everyArea: () => keptStamp(db, {}),
  });
}

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
  // Counted as a rendered page is (issue 46): most visitors' views are these.
  countKeptPage(req, res, getRuntime);
  sendKeptPage(req, res, page, "hit");
  return true;
}

export const app = express();
app.disable("x-powered-by");
app.use(securityHeaders);
// Before everything else (and never through React Router, so never kept by the page cache).
app.use(healthHandler(() => getRuntime()));
// The live stream: long-lived, never through React Router or the page cache (server/event-streams.ts).
app.get("/api/events", (req, res, next) => {
  if (!eventStreams) return next();
  eventStreams.handle(req, res, next);
});
// A picture opened in the lightbox, for the statistics (issue 46): never through React Router or the page cache.
app.get("/api/seen", pictureSeenHandler(getRuntime));

/**
 * Refuses a write before reading its body. A body up to REFUSED_BODY_READ_BYTES is read (and dropped) first:
 * answered mid-body, the client meets a closed socket while still sending (EPIPE, a reset in a browser) instead of
 * reading the answer. A larger one is not worth reading: answered at once, and the connection closed.
 */
function refuseWrite(req: express.Request, res: express.Response, status: number, text: string, json?: object) {
  let answered = false;
  const refuse = () => {
    if (answered) return;
    answered = true;
    clearTimeout(quiet);
    // The upload screens ask for JSON and show its message; a plain client gets the text.
    if (json && (req.headers.accept ?? "").includes("application/json")) res.status(status).json(json);
    else res.status(status).type("text/plain").send(text);
  };
  // A client that announced a body and sends none (or stalls) is answered after a second of quiet.
  const quiet = setTimeout(refuse, REFUSED_BODY_QUIET_MS);
  if (Number(req.headers["content-length"] ?? 0) > REFUSED_BODY_READ_BYTES) {
    res.setHeader("Connection", "close");
    refuse();
    return;
  }
  req.on("data", () => quiet.refresh());
  req.once("end", refuse);
  req.once("close", () => clearTimeout(quiet));
  req.resume();
}

app.use(async (req, res, next) => {
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
    refuseWrite(req, res, 400, "The request path is not in its plain form.");
    return;
  }
  const env = getRuntime().env;
  const limit = bodyLimitFor(pathname, env, uploadRoutesOf(await loadBuild()));
  if (Number(length ?? 0) > limit.bytes) {
    if (limit.upload) {
      // Said in the admin's language with the file limit, as the upload screens show a route's own refusals.
      const t = adminTranslatorFor(
        languageOf(
          new Request(new URL(req.originalUrl, "http://localhost"), { headers: { cookie: req.headers.cookie ?? "" } }),
        ).lang,
      );
      const message = t("admin.upload.tooLarge", { max: formatMegabytes(Math.max(...limit.upload(env))) });
      refuseWrite(req, res, 413, message, { ok: false, message });
      return;
    }
    const megabytes = Math.round(limit.bytes / 1024 / 1024);
    refuseWrite(req, res, 413, `The request body is too large (at most ${megabytes} MB).`);
    return;
  }

  // Whatever a write request changed (rows, and files beside them), pages kept before it are stale once it is
  // answered; the database's own count already moved with each statement, this also covers the commit. Only the
  // areas its writes touched move (files belong to their rows' areas); a request whose writes were not all
  // classified, or that wrote no row at all, moves every area as before.
  const writes = new WriteLog();
  res.on("finish", () => getRuntime().database.noteChange(writes.areasToMove()));

  // Refuse form posts from other sites (CSRF), on top of the SameSite=Lax session cookie.
  const origin = req.headers.origin;
  const ownOrigins = new Set([`${req.protocol}://${req.headers.host}`, env.baseUrl]);
  if (origin !== undefined ? !ownOrigins.has(origin) : req.headers["sec-fetch-site"] === "cross-site") {
    res.status(403).type("text/plain").send("Cross-site requests are refused.");
    return;
  }
  recordWrites(writes, next);
});

// Uploaded media: public files by content-hashed name, private ones by signed URL (see serve-media.server.ts).
app.use(mediaHandler(() => getRuntime().storage, memberFolderCheck(getRuntime)));

// An address whose percent-encoding is not UTF-8 names no page: answered 400 here, where React Router would answer
// the same after writing a warning to stderr for every such request (a scanner's noise in the owner's log).
app.use((req, res, next) => {
  try {
    decodeURIComponent(req.path);
  } catch {
    res.status(400).type("text/plain").send("The address is not valid.");
    return;
  }
  next();
});

const loadBuild = () => import("virtual:react-router/server-build");
/*
 * Given a function, React Router derives its route tables again on every request (it flattens, ranks and compiles
 * every route's path: about 0.35 ms of each uncached page, measured in a CPU profile of /search and /blog). In
 * development the function is what lets an edited route show at once; otherwise the build never changes, and it
 * is handed over once, so the tables are made once.
 */
let buildHandler: ReturnType<typeof createRequestHandler> | undefined;
async function handleRequest(request: Request, context: RouterContextProvider): Promise<Response> {
  buildHandler ??= createRequestHandler(
    process.env.NODE_ENV === "development" ? loadBuild : await loadBuild(),
    process.env.NODE_ENV,
  );
  return buildHandler(request, context);
}

app.use(async (req, res, next) => {
  try {
    const context = new RouterContextProvider();
    // The composition root's services reach loaders and actions here, and only here (see runtime-context.ts).
    context.set(runtimeContext, getRuntime());
    context.set(clientAddressContext, req.ip ?? req.socket.remoteAddress ?? "unknown");
    context.set(requestIdContext, (req as { id?: string }).id ?? "");
    // A visitor's view is counted once it is answered (issue 46): the render's loaders add their notes to it.
    const visit = visitHoldFor(req, res, getRuntime);
    if (visit) {
      visit.context = context;
      context.set(visitNotesContext, visit.notes);
    }
    // A request that failed because the database is away is answered 503 with a page saying so, not 500.
    const render = async () => {
      const request = toFetchRequest(req, res, publicOrigin);
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
