import type express from "express";
import type { RouterContextProvider } from "react-router";
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

/*
 * Where a visitor's view is counted (issue 46): here, as the page is answered, so that visitors load nothing for it
 * and it works without JavaScript. A page (a document, or a client-side navigation's data) answered 200, 304 or 404
 * to a GET that is not a prefetch, a bot's, an admin's or one that asks not to be tracked (`Sec-GPC: 1`). What the
 * view is known by is reduced to classes here; the address and user agent go on to the recorder's memory only.
 */

const COUNTED_STATUS = new Set([200, 304, 404]);
const PICTURE_ID = /^[0-9a-f-]{36}$/;

/** The request's own record, filled by the page's render: the loaders' notes and who was signed in. */
export type VisitHold = { notes: VisitNotes; context: RouterContextProvider | null };

function isPrefetch(req: express.Request): boolean {
  const purpose = `${req.get("sec-purpose") ?? ""} ${req.get("purpose") ?? ""} ${req.get("x-moz") ?? ""}`;
  return /prefetch|prerender/i.test(purpose);
}

/** The hold for a request to be counted, or null; `counted` is called with what to record once it is answered. */
export function visitHoldFor(req: express.Request, res: express.Response, runtime: () => Runtime): VisitHold | null {
  if (req.method !== "GET" || !isCountedPage(req.path)) return null;
  const userAgent = req.get("user-agent") ?? "";
  if (req.get("sec-gpc") === "1" || isBot(userAgent) || isPrefetch(req)) return null;
  if (typeof req.query.suggest === "string") return null;
  const hold: VisitHold = { notes: {}, context: null };
  res.on("finish", () => {
    if (!COUNTED_STATUS.has(res.statusCode)) return;
    void count(req, res.statusCode, userAgent, hold, runtime()).catch(() => {
      // A count is not worth an error for the visitor, nor a line per request in the log: the recorder says when
      // its writes fail.
    });
  });
  return hold;
}

async function count(req: express.Request, status: number, userAgent: string, hold: VisitHold, runtime: Runtime) {
  const settings = await readSettings(runtime.database.db);
  if (settings.statistics_enabled !== "true") return;
  const user = hold.context?.get(sessionUserContext) ?? null;
  if (user?.isAdmin) return;
  const ownHost = new URL(runtime.env.baseUrl).hostname;
  const image = typeof req.query.image === "string" && PICTURE_ID.test(req.query.image) ? req.query.image : null;
  const search = hold.notes.search;
  recordView(runtime.statistics, {
    at: new Date(),
    page: pageKeyOf(req.path),
    status,
    data: req.path.endsWith(".data"),
    client: req.ip ?? req.socket.remoteAddress ?? "unknown",
    userAgent,
    member: user !== null,
    language: languageClassOf(req.get("accept-language")),
    device: deviceClassOf(userAgent),
    referrer: referrerHostOf(req.get("referer"), [ownHost, req.hostname]),
    utmSource: utmSourceOf(typeof req.query.utm_source === "string" ? req.query.utm_source : null),
    picture: status === 404 ? null : image,
    search: search ? { query: normalizedQuery(search.query), found: search.found } : null,
  });
}

function recordView(recorder: StatisticsRecorder, view: Parameters<StatisticsRecorder["record"]>[0]) {
  if (view.search && view.search.query === "") view.search = null;
  recorder.record(view);
}

/** The words as typed, in one case and with single spaces, bounded: "Alps  hut" and "alps hut" are one search. */
function normalizedQuery(query: string): string {
  return query.trim().toLowerCase().replace(/\s+/g, " ").slice(0, 200);
}
