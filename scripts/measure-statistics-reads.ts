// Issue 46: "the statistics page for a year of data at 10,000 pages". Seeds a fresh database with `--days` days of
// `--pages` pages each (by default 365 × 10,000 = 3.65 M rows of kind `page`, plus a `site` row a day), made by the
// database itself, then times the statistics screen's reads (`readStatistics`) for the last 7, 30 and 365 days of
// it, and the dashboard's week, `--runs` times each, printing the median and the slowest run:
//   npx tsx scripts/measure-statistics-reads.ts [--pages 10000] [--days 365] [--runs 5] [--database-url postgres://…]
// Without --database-url on SQLite (a temporary file), with it on a fresh database of that PostgreSQL server.
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { addDays } from "#app/domains/statistics/statistics-range.ts";
import { readStatistics, readWeekVisitors } from "#app/domains/statistics/statistics-reads.server.ts";
import { createTestDatabase } from "#tests/support/test-database.ts";

const { values: options } = parseArgs({
  options: {
    pages: { type: "string", default: "10000" },
    days: { type: "string", default: "365" },
    runs: { type: "string", default: "5" },
    "database-url": { type: "string" },
  },
});
const PAGES = Number(options.pages);
const DAYS = Number(options.days);
const RUNS = Number(options.runs);
const FIRST = "2025-01-01";
const LAST = addDays(FIRST, DAYS - 1);

const database = await createTestDatabase(options["database-url"] ? "postgres" : "sqlite", {
  serverUrl: options["database-url"],
});
try {
  const db = database.db;
  const seedStart = performance.now();
  if (database.kind === "postgres") {
    await sql`insert into stats_daily (day, kind, key, views, visitors, member_views)
      select to_char(${FIRST}::date + d, 'YYYY-MM-DD'), 'page', '/p/' || p, 1 + (p % 50), 1 + (p % 7), 0
      from generate_series(0, ${DAYS - 1}::int) as d, generate_series(0, ${PAGES - 1}::int) as p`.execute(db);
    await sql`insert into stats_daily (day, kind, key, views, visitors, member_views)
      select to_char(${FIRST}::date + d, 'YYYY-MM-DD'), 'site', '', 1000, 300, 10
      from generate_series(0, ${DAYS - 1}::int) as d`.execute(db);
    await sql`analyze stats_daily`.execute(db);
  } else {
    await sql`insert into stats_daily (day, kind, key, views, visitors, member_views)
      with recursive d(n) as (select 0 union all select n + 1 from d where n < ${DAYS - 1}),
        p(n) as (select 0 union all select n + 1 from p where n < ${PAGES - 1})
      select strftime('%Y-%m-%d', ${FIRST}, '+' || d.n || ' days'), 'page', '/p/' || p.n, 1 + (p.n % 50),
        1 + (p.n % 7), 0
      from d, p`.execute(db);
    await sql`insert into stats_daily (day, kind, key, views, visitors, member_views)
      with recursive d(n) as (select 0 union all select n + 1 from d where n < ${DAYS - 1})
      select strftime('%Y-%m-%d', ${FIRST}, '+' || d.n || ' days'), 'site', '', 1000, 300, 10 from d`.execute(db);
    await sql`analyze`.execute(db);
  }
  console.log(
    `${database.kind}: ${(DAYS * PAGES).toLocaleString("en")} page rows seeded in ${Math.round(performance.now() - seedStart)} ms`,
  );

  const time = async (label: string, read: () => Promise<unknown>) => {
    const timings: number[] = [];
    await read();
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now();
      await read();
      timings.push(performance.now() - start);
    }
    timings.sort((a, b) => a - b);
    const median = timings[Math.floor(timings.length / 2)] ?? 0;
    console.log(`${label}: median ${Math.round(median)} ms, slowest ${Math.round(timings.at(-1) ?? 0)} ms`);
  };
  for (const days of [7, 30, 365]) {
    await time(`${days} days' screen`, () => readStatistics(db, { from: addDays(LAST, 1 - days), to: LAST }));
  }
  await time("dashboard's week", () => readWeekVisitors(db, LAST));
} finally {
  await database.destroy();
}
