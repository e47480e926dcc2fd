import type { IncomingMessage, ServerResponse } from "node:http";
import type express from "express";
import type { RouterContextProvider } from "react-router";
import type { Reader } from "#app/domains/access/reader.ts";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import type { StatisticsRecorder } from "#app/domains/statistics/statistics-recorder.server.ts";
import {
  deviceClassOf,
  isBot,
  isCountedPage,
  languageClassOf,
  pageKeyOf,
  referrerHostOf,
  utmSourceOf,
} from "#app/domains/statistics/visit-classes.ts";
import { sessionUserContext, type VisitNotes } from "#app/lib/request-context.ts";
import type { Runtime } from "#app/runtime/runtime.server.ts";
import { readerOfCookie } from "#app/web/session.server.ts";

/*
 * Where a visitor's view is counted (issue 46): here, as the page is answered, so that visitors load nothing for it
 * and it works without JavaScript. A page (a document, or a client-side navigation's data) answered 200, 304 or 404
 * to a GET that is not a prefetch, a bot's, an admin's or one that asks not to be tracked (`Sec-GPC: 1`), whether
 * rendered (Express) or sent from the page cache before Express (`serveKeptPage`). What the view is known by is
 * reduced to classes here; the address and user agent go on to the recorder's memory only.
 */

const COUNTED_STATUS = new Set([200, 304, 404]);
const PICTURE_ID = /^[0-9a-f-]{36}$/;

/** The request's own record, filled by the page's render: the loaders' notes and who was signed in. */
export type VisitHold = { notes: VisitNotes; context: RouterContextProvider | null; reader?: Reader };

/** What counting reads of a request, the same from Express's request and from Node's own. */
type VisitRequest = {
  path: string;
  query: URLSearchParams;
  header: (name: string) => string | undefined;
  client: string;
  hostname: string;
};

function fromExpress(req: express.Request): VisitRequest {
  return {
    path: req.path,
    query: new URL(req.originalUrl, "http://localhost").searchParams,
    header: (name) => req.get(name),
    client: req.ip ?? req.socket.remoteAddress ?? "unknown",
    hostname: req.hostname,
  };
}

/**
 * A request the page cache answers before Express: its client address as Express's `trust proxy` with a number of
 * hops finds it (the socket's, or the one `hops` entries from the right of X-Forwarded-For).
 */
function fromNode(req: IncomingMessage, trustProxy: number): VisitRequest {
  const url = new URL(req.url ?? "/", "http://localhost");
  const header = (name: string) => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  const forwarded = (header("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .reverse();
  const chain = [req.socket.remoteAddress ?? "unknown", ...forwarded];
  return {
    path: url.pathname,
    query: url.searchParams,
    header,
    client: chain[Math.min(trustProxy, chain.length - 1)] ?? "unknown",
    hostname: (header("host") ?? "").replace(/:\d+$/, ""),
  };
}

function isCountable(req: VisitRequest): boolean {
  const purpose = `${req.header("sec-purpose") ?? ""} ${req.header("purpose") ?? ""} ${req.header("x-moz") ?? ""}`;
  return (
    req.header("sec-gpc") !== "1" && !isBot(req.header("user-agent") ?? "") && !/prefetch|prerender/i.test(purpose)
  );
}

function holdFor(method: string | undefined, req: VisitRequest, res: ServerResponse, runtime: () => Runtime) {
  if (method !== "GET" || !isCountedPage(req.path) || !isCountable(req) || req.query.has("suggest")) return null;
  const hold: VisitHold = { notes: {}, context: null };
  res.on("finish", () => {
    if (!COUNTED_STATUS.has(res.statusCode)) return;
    const image = req.query.get("image");
    const target = {
      page: pageKeyOf(req.path),
      data: req.path.endsWith(".data"),
      picture: image && PICTURE_ID.test(image) ? image : null,
    };
    void count(req, res.statusCode, target, hold, runtime()).catch(() => {
      // A count is not worth an error for the visitor, nor a line per request in the log: the recorder says when
      // its writes fail.
    });
  });
  return hold;
}

/** The hold for a request Express answers, or null; the view is recorded once it is answered. */
export function visitHoldFor(req: express.Request, res: express.Response, runtime: () => Runtime): VisitHold | null {
  return holdFor(req.method, fromExpress(req), res, runtime);
}

/** Counts a page the page cache answers before Express (only anonymous visitors get one). */
export function countKeptPage(req: IncomingMessage, res: ServerResponse, runtime: () => Runtime): void {
  holdFor(req.method, fromNode(req, runtime().env.trustProxy), res, runtime);
}

/**
 * GET /api/seen?picture=<id>&page=<path>: a picture opened in the lightbox (app/lib/picture-seen.ts), which the
 * server does not otherwise hear of. Always 204, never kept by a cache; counted as a view of the page with that
 * picture, for a published picture only (a made-up id would fill the statistics with nothing).
 */
export function pictureSeenHandler(runtime: () => Runtime): express.RequestHandler {
  return (expressRequest, res) => {
    res.status(204).set("Cache-Control", "no-store").end();
    const req = fromExpress(expressRequest);
    const picture = req.query.get("picture") ?? "";
    const page = req.query.get("page") ?? "";
    if (!PICTURE_ID.test(picture) || !page.startsWith("/") || !isCountedPage(page) || !isCountable(req)) return;
    const current = runtime();
    void (async () => {
      if (!(await isPublished(current, picture))) return;
      const reader = await readerOfCookie(req.header("cookie"), current);
      const hold: VisitHold = { notes: {}, context: null, reader };
      await count(req, 200, { page: pageKeyOf(page), data: true, picture }, hold, current);
    })().catch(() => {});
  };
}

async function count(
  req: VisitRequest,
  status: number,
  target: { page: string; data: boolean; picture: string | null },
  hold: VisitHold,
  runtime: Runtime,
) {
  const settings = await readSettings(runtime.database.db);
  if (settings.statistics_enabled !== "true") return;
  const user = hold.context?.get(sessionUserContext) ?? null;
  const kind = hold.reader?.kind ?? (user ? (user.isAdmin ? "admin" : "member") : "visitor");
  if (kind === "admin") return;
  const userAgent = req.header("user-agent") ?? "";
  const ownHost = new URL(runtime.env.baseUrl).hostname;
  const search = hold.notes.search;
  // A picture counts when it is one: an address can name any id (the page then shows the gallery).
  const picture =
    target.picture && status !== 404 && (await isPublished(runtime, target.picture)) ? target.picture : null;
  recordView(runtime.statistics, {
    at: new Date(),
    page: target.page,
    status,
    data: target.data,
    client: req.client,
    userAgent,
    member: kind === "member",
    language: languageClassOf(req.header("accept-language")),
    device: deviceClassOf(userAgent),
    referrer: referrerHostOf(req.header("referer"), [ownHost, req.hostname]),
    utmSource: utmSourceOf(req.query.get("utm_source")),
    picture,
    search: search ? { query: normalizedQuery(search.query), found: search.found } : null,
  });
}

async function isPublished(runtime: Runtime, picture: string): Promise<boolean> {
  const row = await runtime.database.db
    .selectFrom("gallery_images")
    .select("id")
    .where("id", "=", picture)
    .where("published", "=", true)
    .executeTakeFirst();
  return row !== undefined;
}

function recordView(recorder: StatisticsRecorder, view: Parameters<StatisticsRecorder["record"]>[0]) {
  if (view.search && view.search.query === "") view.search = null;
  recorder.record(view);
}

/** The words as typed, in one case and with single spaces, bounded: "Alps  hut" and "alps hut" are one search. */
function normalizedQuery(query: string): string {
  return query.trim().toLowerCase().replace(/\s+/g, " ").slice(0, 200);
}
