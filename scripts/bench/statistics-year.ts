import { type Kysely, sql } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { readStatistics } from "#app/domains/statistics/statistics-reads.server.ts";

/*
 * The reads of the statistics screen on a year of data (the statistics section, statistics.ts): stats_daily given
 * `days` days before the simulated one of `pages` pages each (a Zipf-like popularity, as the day has), the site's
 * row of each day and a few hundred referrers a day; then the two reads the screen starts with, timed over the year
 * that ends with the simulated day: the top pages (summed over the days, by the (kind, day) index) and the site's
 * daily series, then the screen's whole read as its loader makes it (`readStatistics`: the series with the range
 * before it, every list's first ten with their trends, the titles). Each is run once to warm the caches, then
 * `runs` times; the median is the figure.
 */

const REFERRERS_A_DAY = 300;

export type YearSettings = { days: number; pages: number; runs: number };

export type YearResult = {
  days: number;
  pages: number;
  rowsSeeded: number;
  seedMs: number;
  topMs: number[];
  seriesMs: number[];
  /** `readStatistics` for the year: what the statistics screen waits for. */
  screenMs: number[];
  /** The top query's plan, as the database says it (its first lines). */
  plan: string;
  /** The first of the top 50 (a check that the query read the year: its views are the year's sum). */
  top: { key: string; views: number } | null;
};

function dayBefore(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

/**
 * One statement a kind, made by the database itself (a cross join of the days and the keys): the fastest way in on
 * both, and the same rows on each. Views fall as 1/rank as the simulated day's do, with a little noise.
 */
async function seed(db: Kysely<Database>, kind: "sqlite" | "postgres", lastDay: string, settings: YearSettings) {
  const first = dayBefore(lastDay, settings.days);
  const { days, pages } = settings;
  if (kind === "postgres") {
    await sql`INSERT INTO stats_daily (day, kind, key, views, visitors, member_views)
      SELECT to_char(${first}::date + d, 'YYYY-MM-DD'), 'page',
             CASE WHEN k = 0 THEN '/' ELSE '/blog/post-' || k END,
             v, (v * 7) / 10, v / 100
      FROM generate_series(0, ${days - 1}::int) AS d, generate_series(0, ${pages - 1}::int) AS k,
           LATERAL (SELECT (2000 / (k + 1)) + floor(random() * 5)::int AS v) AS views`.execute(db);
    await sql`INSERT INTO stats_daily (day, kind, key, views, visitors, member_views)
      SELECT to_char(${first}::date + d, 'YYYY-MM-DD'), 'site', '', 20000, 4000, 200
      FROM generate_series(0, ${days - 1}::int) AS d`.execute(db);
    await sql`INSERT INTO stats_daily (day, kind, key, views, visitors, member_views)
      SELECT to_char(${first}::date + d, 'YYYY-MM-DD'), 'referrer', 'site-' || r || '.example', 10, 8, 0
      FROM generate_series(0, ${days - 1}::int) AS d, generate_series(0, ${REFERRERS_A_DAY - 1}::int) AS r`.execute(db);
    // What autovacuum does after so many inserts, and the statistics the planner goes by.
    await sql`VACUUM ANALYZE stats_daily`.execute(db);
    return;
  }
  await sql`WITH RECURSIVE d(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n < ${days - 1}),
                 k(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM k WHERE n < ${pages - 1})
    INSERT INTO stats_daily (day, kind, key, views, visitors, member_views)
    SELECT date(${first}, '+' || d.n || ' days'), 'page',
           CASE WHEN k.n = 0 THEN '/' ELSE '/blog/post-' || k.n END,
           2000 / (k.n + 1) + abs(random() % 5), (2000 / (k.n + 1)) * 7 / 10, 2000 / (k.n + 1) / 100
    FROM d, k`.execute(db);
  await sql`WITH RECURSIVE d(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n < ${days - 1})
    INSERT INTO stats_daily (day, kind, key, views, visitors, member_views)
    SELECT date(${first}, '+' || d.n || ' days'), 'site', '', 20000, 4000, 200 FROM d`.execute(db);
  await sql`WITH RECURSIVE d(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n < ${days - 1}),
                 r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < ${REFERRERS_A_DAY - 1})
    INSERT INTO stats_daily (day, kind, key, views, visitors, member_views)
    SELECT date(${first}, '+' || d.n || ' days'), 'referrer', 'site-' || r.n || '.example', 10, 8, 0
    FROM d, r`.execute(db);
  // No ANALYZE on SQLite: the site never runs one, so the planner goes by what it has.
}

const topQuery = (db: Kysely<Database>, from: string, to: string) =>
  db
    .selectFrom("stats_daily")
    .select(["key", sql<string>`sum(views)`.as("views"), sql<string>`sum(visitors)`.as("visitors")])
    .where("kind", "=", "page")
    .where("day", ">=", from)
    .where("day", "<=", to)
    .groupBy("key")
    .orderBy(sql`sum(views)`, "desc")
    .limit(50);

const seriesQuery = (db: Kysely<Database>, from: string, to: string) =>
  db
    .selectFrom("stats_daily")
    .select(["day", "views", "visitors"])
    .where("kind", "=", "site")
    .where("day", ">=", from)
    .where("day", "<=", to)
    .orderBy("day");

async function planOf(db: Kysely<Database>, kind: "sqlite" | "postgres", from: string, to: string): Promise<string> {
  const compiled = topQuery(db, from, to).compile();
  const explain = kind === "postgres" ? "EXPLAIN " : "EXPLAIN QUERY PLAN ";
  const { rows } = await db.executeQuery<Record<string, unknown>>({
    ...compiled,
    sql: `${explain}${compiled.sql}`,
  });
  const lines = rows.map((row) => String(row["QUERY PLAN"] ?? row.detail ?? ""));
  return lines
    .filter((line) => /Scan|SCAN|SEARCH|Aggregate|USE TEMP/.test(line))
    .map((line) =>
      line
        .replace(/\s*\(cost=[^)]*\)/, "")
        .replace(/^\s*->\s*/, "")
        .trim(),
    )
    .slice(0, 5)
    .join("; ");
}

async function timed(runs: number, query: () => Promise<unknown>): Promise<number[]> {
  await query();
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await query();
    times.push(performance.now() - started);
  }
  return times;
}

export async function measureYear(
  db: Kysely<Database>,
  kind: "sqlite" | "postgres",
  simulatedDay: string,
  settings: YearSettings,
): Promise<YearResult> {
  const started = performance.now();
  await seed(db, kind, simulatedDay, settings);
  const seedMs = performance.now() - started;
  // The year that ends with the simulated day: the seeded days but the first, and the day itself.
  const from = dayBefore(simulatedDay, settings.days - 1);
  const topMs = await timed(settings.runs, () => topQuery(db, from, simulatedDay).execute());
  const seriesMs = await timed(settings.runs, () => seriesQuery(db, from, simulatedDay).execute());
  const screenMs = await timed(settings.runs, () => readStatistics(db, { from, to: simulatedDay }));
  const top = (await topQuery(db, from, simulatedDay).execute())[0];
  return {
    days: settings.days,
    pages: settings.pages,
    rowsSeeded: settings.days * (settings.pages + 1 + REFERRERS_A_DAY),
    seedMs,
    topMs,
    seriesMs,
    screenMs,
    plan: await planOf(db, kind, from, simulatedDay),
    top: top ? { key: top.key, views: Number(top.views) } : null,
  };
}
