import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { Audience, ChangeAction, ChangeEvent } from "./change-event.ts";

/** An event as the table keeps it: with the audience the stream checks before sending it. */
export type StoredChangeEvent = ChangeEvent & { audience: Audience };

/** How long events are kept for a client that was away, and at most how many (issue 19). */
export const EVENT_RETENTION = { maxAgeMs: 24 * 60 * 60 * 1000, maxCount: 10_000 } as const;

function toEvent(row: {
  seq: number | string;
  area: string;
  action: string;
  entity_id: string | null;
  audience: string;
}): StoredChangeEvent {
  // PostgreSQL's bigserial arrives as a string.
  return {
    seq: Number(row.seq),
    area: row.area,
    action: row.action as ChangeAction,
    id: row.entity_id,
    audience: row.audience as Audience,
  };
}

/** The newest event's seq, 0 when there is none. */
export async function readEventHead(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("change_events")
    .select((eb) => eb.fn.max("seq").as("head"))
    .executeTakeFirst();
  return Number(row?.head ?? 0);
}

/** The oldest kept event's seq, null when none is kept. */
export async function readOldestEventSeq(db: Kysely<Database>): Promise<number | null> {
  const row = await db
    .selectFrom("change_events")
    .select((eb) => eb.fn.min("seq").as("oldest"))
    .executeTakeFirst();
  return row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
}

/** Events after `seq`, oldest first, at most `limit`. */
export async function readEventsAfter(db: Kysely<Database>, seq: number, limit: number): Promise<StoredChangeEvent[]> {
  const rows = await db
    .selectFrom("change_events")
    .select(["seq", "area", "action", "entity_id", "audience"])
    .where("seq", ">", seq)
    .orderBy("seq")
    .limit(limit)
    .execute();
  return rows.map(toEvent);
}

/**
 * Records an event the triggers cannot see (a change to files only, e.g. a mail filed in the outbox). Pass the
 * write's transaction when there is one.
 */
export async function recordChangeEvent(
  db: Kysely<Database>,
  event: { area: string; action: ChangeAction; id: string | null; audience: Exclude<Audience, "nobody"> },
  now = new Date(),
): Promise<void> {
  await db
    .insertInto("change_events")
    .values({ area: event.area, action: event.action, entity_id: event.id, audience: event.audience, created_at: now })
    .execute();
}

/** Drops events older than the retention, and all but the newest `maxCount`. Returns how many went. */
export async function trimChangeEvents(
  db: Kysely<Database>,
  now = new Date(),
  retention: { maxAgeMs: number; maxCount: number } = EVENT_RETENTION,
): Promise<number> {
  const head = await readEventHead(db);
  const cutoff = new Date(now.getTime() - retention.maxAgeMs);
  const result = await db
    .deleteFrom("change_events")
    .where((eb) => eb.or([eb("created_at", "<", cutoff), eb("seq", "<=", head - retention.maxCount)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Trims the kept events now and every ten minutes; returns the stop. */
export function startEventTrim(options: { db: Kysely<Database>; onError: (error: unknown) => void }): () => void {
  const run = () => void trimChangeEvents(options.db).catch(options.onError);
  run();
  const timer = setInterval(run, 10 * 60 * 1000);
  timer.unref?.();
  return () => clearInterval(timer);
}
