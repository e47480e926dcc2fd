import { createHash, createHmac, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { deleteOldStatistics, saltOfDay, writeStatistics } from "./statistics-store.server.ts";
import type { DeviceClass, LanguageClass } from "./visit-classes.ts";

/*
 * Counting on the server (issue 46): each counted view is kept in this process's memory for a few seconds, then
 * written as sums (statistics-store.server.ts), so that a page costs no write and several instances add up. The
 * client's address and user agent stay in memory only until that write, and are turned into the day's salted hash
 * there; no row ever holds them.
 */

/** One view as the edge saw it: the request's facts, already reduced to classes where they are kept. */
export type CountedView = {
  at: Date;
  /** The page's key (visit-classes.ts `pageKeyOf`). */
  page: string;
  status: number;
  /** A client-side navigation's data request rather than a document. */
  data: boolean;
  client: string;
  userAgent: string;
  member: boolean;
  language: LanguageClass;
  device: DeviceClass;
  referrer: string | null;
  utmSource: string | null;
  /** A gallery picture opened (its id), on the page or by a shared address. */
  picture?: string | null;
  /** The words searched on /search, and whether anything was found. */
  search?: { query: string; found: boolean } | null;
};

/** A visit ends after this long without a view (the entry and exit pages), as Plausible and GoatCounter count. */
export const VISIT_GAP_MS = 30 * 60_000;
/** Views kept in memory at the most while the database does not take them (beyond: the oldest are dropped). */
const MAX_PENDING = 100_000;

export type StatisticsRecorder = {
  /** Notes a view; answers false for one not counted (a revalidation of the page the visitor is on). */
  record(view: CountedView): boolean;
  /** Writes what was noted (the timer does it every few seconds, and the stop once more). */
  flush(now?: Date): Promise<void>;
  start(): () => Promise<void>;
  /** Views noted and not yet written (tests). */
  pending(): number;
};

type Visit = { page: string; at: number };

export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function createStatisticsRecorder(options: {
  db: Kysely<Database>;
  /** The site's own origin: part of each visitor's hash, so two sites on one server never share a visitor. */
  site: string;
  flushMs?: number;
  /** The retention setting, read at each day's housekeeping: days kept, 0 for ever. */
  retentionDays: () => Promise<number>;
  onError: (error: unknown) => void;
}): StatisticsRecorder {
  const { db } = options;
  // Who is on which page right now, by a key only this process can make (a random key, never stored): a reload of
  // the data of the page the visitor is on is a revalidation, not a view, and a visit's first and last pages.
  const processKey = randomBytes(32);
  const visits = new Map<string, Visit>();
  let pending: { view: CountedView; entry: boolean; exitOf: string | null }[] = [];
  const exits: { at: Date; page: string }[] = [];
  let housekept = "";
  // The salts of the days being written: a day's salt never changes while it lives, so it is read once.
  const salts = new Map<string, string>();
  let flushing: Promise<void> = Promise.resolve();

  const visitorKey = (view: CountedView) =>
    createHmac("sha256", processKey).update(`${view.client}\n${view.userAgent}`).digest("base64url");

  const endVisits = (now: number, all: boolean) => {
    for (const [key, visit] of visits) {
      if (!all && now - visit.at < VISIT_GAP_MS) continue;
      exits.push({ at: new Date(visit.at), page: visit.page });
      visits.delete(key);
    }
  };

  const record = (view: CountedView) => {
    // While the database does not take them, the newest beyond the bound are not kept (dropping the oldest would
    // cost a walk of the whole list at every view).
    if (pending.length >= MAX_PENDING) return false;
    // A broken link is counted as one, and is no page of a visit: the visit's first page is the next one found.
    if (view.status === 404) {
      pending.push({ view, entry: false, exitOf: null });
      return true;
    }
    const key = visitorKey(view);
    const visit = visits.get(key);
    const now = view.at.getTime();
    const going = visit !== undefined && now - visit.at < VISIT_GAP_MS;
    // React Router asks for the data of the page on screen again after a save or a live "Show": not a new view.
    if (view.data && going && visit.page === view.page && !view.picture) return false;
    visits.set(key, { page: view.page, at: now });
    pending.push({ view, entry: !going, exitOf: visit && !going ? visit.page : null });
    return true;
  };

  const write = async (now: Date) => {
    endVisits(now.getTime(), false);
    const batch = pending;
    const ended = exits.splice(0);
    pending = [];
    if (batch.length === 0 && ended.length === 0) return housekeep(now);
    try {
      for (const day of new Set(batch.map((item) => dayOf(item.view.at)))) {
        if (!salts.has(day)) salts.set(day, await saltOfDay(db, day));
      }
      const hashOf = (view: CountedView) =>
        createHash("sha256")
          .update(`${salts.get(dayOf(view.at))}\n${view.client}\n${view.userAgent}\n${options.site}`)
          .digest("base64url")
          .slice(0, 32);
      await writeStatistics(db, batch, ended, hashOf);
    } catch (error) {
      // Kept for the next turn (newest last), unless that would pass the bound.
      pending = [...batch, ...pending].slice(-MAX_PENDING);
      exits.unshift(...ended);
      throw error;
    }
    await housekeep(now);
  };

  /** Once a day: yesterday's salt and visitor hashes go, and the daily rows older than the retention. */
  const housekeep = async (now: Date) => {
    const today = dayOf(now);
    if (housekept === today) return;
    await deleteOldStatistics(db, today, await options.retentionDays());
    for (const day of salts.keys()) if (day < today) salts.delete(day);
    housekept = today;
  };

  const flush = (now = new Date()) => {
    flushing = flushing.then(
      () => write(now),
      () => write(now),
    );
    return flushing;
  };

  return {
    record,
    flush,
    pending: () => pending.length,
    start() {
      const timer = setInterval(() => {
        flush().catch(options.onError);
      }, options.flushMs ?? 5000);
      timer.unref?.();
      return async () => {
        clearInterval(timer);
        // At a stop every visit here ends: the next view, on another instance, starts a visit there.
        endVisits(Date.now(), true);
        await flush().catch(options.onError);
      };
    },
  };
}
