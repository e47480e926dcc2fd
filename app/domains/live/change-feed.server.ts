import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { readEventHead, readEventsAfter, readOldestEventSeq, type StoredChangeEvent } from "./change-events.server.ts";

/** New events as one process learns of them, oldest first; `head` is the last one's seq. */
export type ChangeBatch = { events: StoredChangeEvent[]; head: number };

export type ChangeFeed = {
  start: () => Promise<void>;
  stop: () => void;
  /** The last seq read from the table (0 before the first read). */
  head: () => number;
  /** Calls `listener` with every batch read after this moment; returns the unsubscribe. */
  subscribe: (listener: (batch: ChangeBatch) => void) => () => void;
  /**
   * What a client that saw `after` missed, up to the current head: its events, or "too-old" when some of them are
   * no longer kept (trimmed, or `after` names a seq this database never had).
   */
  replay: (after: number) => Promise<StoredChangeEvent[] | "too-old">;
  /** Reads the table now (tests, and the hint after a write). */
  pull: () => Promise<void>;
};

const PAGE = 500;
/** A replay longer than this is not worth sending event by event: the client refreshes instead. */
const MAX_REPLAY = 2000;

/**
 * The one reader of `change_events` in a process: it reads what was committed after the last seq it saw, when a
 * write hints (`watchCommits`: this process's writes, PostgreSQL's NOTIFY) and on a poll, which is how SQLite
 * notices another process's commit and how any lost hint is made good. Every stream of the process is fed from
 * it, so a thousand streams cost one query per change, not a thousand.
 */
export function createChangeFeed(options: {
  db: Kysely<Database>;
  watchCommits: (listener: () => void) => () => void;
  pollMs?: number;
  onError?: (error: unknown) => void;
}): ChangeFeed {
  const { db } = options;
  const listeners = new Set<(batch: ChangeBatch) => void>();
  let head = 0;
  let started = false;
  let reading: Promise<void> | null = null;
  let again = false;
  let poll: ReturnType<typeof setInterval> | undefined;
  let unwatch: (() => void) | undefined;
  let failing = false;

  const readNew = async () => {
    for (;;) {
      const events = await readEventsAfter(db, head, PAGE);
      if (events.length === 0) return;
      head = events[events.length - 1]?.seq ?? head;
      const batch = { events, head };
      for (const listener of listeners) listener(batch);
      if (events.length < PAGE) return;
    }
  };

  const pull = (): Promise<void> => {
    if (!started) return Promise.resolve();
    if (reading) {
      again = true;
      return reading;
    }
    reading = (async () => {
      do {
        again = false;
        try {
          await readNew();
          failing = false;
        } catch (error) {
          // The database is away: said once, read again at the next poll or hint.
          if (!failing) options.onError?.(error);
          failing = true;
        }
      } while (again && started);
      reading = null;
    })();
    return reading;
  };

  // Several statements of one write hint once each: one read after them.
  let hinted = false;
  const hint = () => {
    if (hinted) return;
    hinted = true;
    setImmediate(() => {
      hinted = false;
      void pull();
    });
  };

  return {
    async start() {
      if (started) return;
      head = await readEventHead(db);
      started = true;
      unwatch = options.watchCommits(hint);
      poll = setInterval(() => void pull(), options.pollMs ?? 1000);
      poll.unref?.();
    },
    stop() {
      started = false;
      clearInterval(poll);
      unwatch?.();
      listeners.clear();
    },
    head: () => head,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async replay(after) {
      // Another process's commit the client saw through another server may not have been read here yet.
      if (after > head) await pull();
      if (after > head) return "too-old";
      if (after === head) return [];
      const oldest = await readOldestEventSeq(db);
      if (oldest === null || after < oldest - 1) return "too-old";
      const events: StoredChangeEvent[] = [];
      let from = after;
      while (from < head && events.length < MAX_REPLAY) {
        const page = await readEventsAfter(db, from, PAGE);
        if (page.length === 0) break;
        for (const event of page) if (event.seq <= head) events.push(event);
        from = page[page.length - 1]?.seq ?? head;
      }
      return events.length >= MAX_REPLAY ? "too-old" : events;
    },
    pull,
  };
}
