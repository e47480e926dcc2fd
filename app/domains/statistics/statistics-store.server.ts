import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { CountedView } from "./statistics-recorder.server.ts";

/*
 * The statistics' rows (migration 0032): sums per day, kind and key, and today's visitor hashes that make a visitor
 * count once however many instances and restarts saw them. Written in one transaction per flush, a few statements
 * whatever the number of views.
 */

/** Rows per statement (SQLite allows 32,766 variables; four or six columns a row). */
const CHUNK = 400;

/** The salt of `day`, made at random by the first instance that needs it; every instance then reads the same. */
export async function saltOfDay(db: Kysely<Database>, day: string): Promise<string> {
  await db
    .insertInto("stats_salts")
    .values({ day, salt: randomBytes(32).toString("base64url") })
    .onConflict((oc) => oc.column("day").doNothing())
    .execute();
  const row = await db.selectFrom("stats_salts").select("salt").where("day", "=", day).executeTakeFirstOrThrow();
  return row.salt;
}

type Sum = { day: string; kind: string; key: string; views: number; visitors: number; member_views: number };

/** What one view adds: each kind and key it counts for (the visitor is counted once per day for each). */
function countsOf(view: CountedView): [kind: string, key: string][] {
  if (view.status === 404) {
    const counts: [string, string][] = [["notfound", view.page]];
    if (view.referrer) counts.push(["notfound-referrer", `${view.page}\n${view.referrer}`]);
    return counts;
  }
  const counts: [string, string][] = [
    ["site", ""],
    ["page", view.page],
    ["audience", view.member ? "member" : "visitor"],
    ["language", view.language],
    ["device", view.device],
  ];
  if (view.picture) counts.push(["picture", view.picture]);
  if (view.referrer) counts.push(["referrer", view.referrer]);
  if (view.utmSource) counts.push(["utm", view.utmSource]);
  if (view.search) counts.push([view.search.found ? "search" : "search-empty", view.search.query]);
  return counts;
}

export async function writeStatistics(
  db: Kysely<Database>,
  batch: readonly { view: CountedView; entry: boolean; exitOf: string | null }[],
  ended: readonly { at: Date; page: string }[],
  hashOf: (view: CountedView) => string,
): Promise<void> {
  const sums = new Map<string, Sum>();
  const add = (day: string, kind: string, key: string, member: boolean, views = 1) => {
    const id = `${day}\t${kind}\t${key}`;
    const sum = sums.get(id) ?? { day, kind, key, views: 0, visitors: 0, member_views: 0 };
    sum.views += views;
    if (member) sum.member_views += views;
    sums.set(id, sum);
  };
  const seen = new Map<string, { day: string; visitor: string; kind: string; key: string }>();
  for (const { view, entry, exitOf } of batch) {
    const day = view.at.toISOString().slice(0, 10);
    const visitor = hashOf(view);
    for (const [kind, key] of countsOf(view)) {
      add(day, kind, key, view.member);
      seen.set(`${day}\t${visitor}\t${kind}\t${key}`, { day, visitor, kind, key });
    }
    if (view.status !== 404 && entry) add(day, "entry", view.page, view.member);
    if (exitOf) add(day, "exit", exitOf, false);
  }
  for (const exit of ended) add(exit.at.toISOString().slice(0, 10), "exit", exit.page, false);
  await db.transaction().execute(async (trx) => {
    const rows = [...seen.values()];
    for (let start = 0; start < rows.length; start += CHUNK) {
      // Only the pairs new today come back: those are the day's new visitors of that kind and key.
      const fresh = await trx
        .insertInto("stats_seen")
        .values(rows.slice(start, start + CHUNK))
        .onConflict((oc) => oc.columns(["day", "visitor", "kind", "key"]).doNothing())
        .returning(["day", "kind", "key"])
        .execute();
      for (const row of fresh) {
        const sum = sums.get(`${row.day}\t${row.kind}\t${row.key}`);
        if (sum) sum.visitors += 1;
      }
    }
    const values = [...sums.values()];
    for (let start = 0; start < values.length; start += CHUNK) {
      await trx
        .insertInto("stats_daily")
        .values(values.slice(start, start + CHUNK))
        .onConflict((oc) =>
          oc.columns(["day", "kind", "key"]).doUpdateSet({
            views: sql`stats_daily.views + excluded.views`,
            visitors: sql`stats_daily.visitors + excluded.visitors`,
            member_views: sql`stats_daily.member_views + excluded.member_views`,
          }),
        )
        .execute();
    }
  });
}

/**
 * The day's housekeeping: every salt and visitor hash of the days before `today` (with the salt gone, no hash can be
 * tied to an address again), and the daily sums older than `retentionDays` (0: kept for ever).
 */
export async function deleteOldStatistics(db: Kysely<Database>, today: string, retentionDays: number): Promise<void> {
  await db.deleteFrom("stats_salts").where("day", "<", today).execute();
  await db.deleteFrom("stats_seen").where("day", "<", today).execute();
  if (retentionDays > 0) {
    const cutoff = new Date(`${today}T00:00:00Z`);
    cutoff.setUTCDate(cutoff.getUTCDate() - retentionDays);
    await db.deleteFrom("stats_daily").where("day", "<", cutoff.toISOString().slice(0, 10)).execute();
  }
}
