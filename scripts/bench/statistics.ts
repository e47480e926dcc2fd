import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { createTestDatabase } from "#tests/support/test-database.ts";
import { postgresServerUrl } from "./search-postgres.ts";
import { type DayResult, simulateDay, tableSizes } from "./statistics-day.ts";
import { makeTraffic, type Traffic, type TrafficSettings } from "./statistics-traffic.ts";
import { measureYear, type YearResult, type YearSettings } from "./statistics-year.ts";
import { describe, formatNumber, median, type Row, verdictOf } from "./stats.ts";

/*
 * The statistics section (`--stats`, issue 46): does counting stay "a few writes a second" at 1,000,000 views a day
 * across three instances, and does the statistics screen read a year of 10,000 pages within 200 ms? A day of views
 * is made up (statistics-traffic.ts), fed to three recorders on one database and flushed as their timers would
 * (statistics-day.ts), on SQLite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server, on a fresh
 * PostgreSQL database of the run's own, dropped afterwards; then a year is seeded and the screen's reads are timed
 * (statistics-year.ts). In this process: no server, build or wrk needed.
 */

export type StatisticsSettings = Omit<TrafficSettings, "day"> & { year: YearSettings };

type KindResult = { day: DayResult; year: YearResult; yearTables: Record<string, { rows: number; bytes: number }> };

export type StatisticsResult = {
  settings: StatisticsSettings;
  day: string;
  generateMs: number;
  sqlite: KindResult;
  postgres: KindResult | null;
};

/** A weekday in June (the simulated day), with the year of data before it. */
const DAY = "2026-06-17";

/** The day, then the year, on one migrated database (`open` opens it anew for each, as a server would). */
async function measureKind(
  open: () => AppDatabase,
  kind: "sqlite" | "postgres",
  traffic: Traffic,
  year: YearSettings,
  databaseUrl?: string,
): Promise<KindResult> {
  console.log(`Statistics on ${kind}: ${traffic.count} requests of a simulated day…`);
  const day = await simulateDay(open, kind, traffic, databaseUrl);
  console.log(`Statistics on ${kind}: seeding a year (${year.days} days × ${year.pages} pages) and timing its reads…`);
  const database = open();
  try {
    const result = await measureYear(database.db, kind, DAY, year);
    return { day, year: result, yearTables: await tableSizes(database.db, kind) };
  } finally {
    await database.close();
  }
}

export async function measureStatistics(
  settings: StatisticsSettings,
  dir: string,
  record: (name: string, value: number) => void,
): Promise<StatisticsResult> {
  const started = performance.now();
  const traffic = makeTraffic({ ...settings, day: DAY });
  const generateMs = performance.now() - started;

  const sqliteDir = path.join(dir, "statistics-sqlite");
  fs.mkdirSync(sqliteDir, { recursive: true });
  // Migrated and given the default settings, then closed: each step opens it anew.
  const sqliteDatabase = await createTestDatabase("sqlite", { dataDir: sqliteDir });
  const sqliteFile = sqliteDatabase.location.sqliteFile as string;
  await sqliteDatabase.close();
  let sqlite: KindResult;
  try {
    sqlite = await measureKind(() => openDatabase({ sqliteFile }), "sqlite", traffic, settings.year);
  } finally {
    await sqliteDatabase.destroy();
  }

  let postgres: KindResult | null = null;
  const serverUrl = postgresServerUrl();
  if (serverUrl) {
    const pgDatabase = await createTestDatabase("postgres", { serverUrl });
    const databaseUrl = pgDatabase.location.databaseUrl as string;
    // A test database does not wait for its commits to reach the disk; a site's does, and so each flush here.
    await sql
      .raw(`ALTER DATABASE "${new URL(databaseUrl).pathname.slice(1)}" RESET synchronous_commit`)
      .execute(pgDatabase.db);
    await pgDatabase.close();
    try {
      const open = () => openDatabase({ databaseUrl });
      postgres = await measureKind(open, "postgres", traffic, settings.year, databaseUrl);
    } finally {
      await pgDatabase.destroy();
    }
  }
  for (const [prefix, result] of [
    ["stats sqlite", sqlite],
    ["stats pg", postgres],
  ] as const) {
    if (!result) continue;
    for (const ms of result.year.topMs) record(`${prefix} top 50 pages ms`, ms);
    for (const ms of result.year.seriesMs) record(`${prefix} daily series ms`, ms);
    for (const ms of result.year.screenMs) record(`${prefix} whole screen ms`, ms);
  }
  return { settings, day: DAY, generateMs, sqlite, postgres };
}

const count = (value: number) => Math.round(value).toLocaleString("en-US");
const megabytes = (bytes: number) => `${formatNumber(bytes / 1024 / 1024)} MB`;
const DAY_SECONDS = 86_400;
/** "A few writes a second": the issue's claim, read as at most this many write transactions a second of the day. */
const FEW_WRITES = 5;
const READ_GOAL_MS = 200;

function kindRows(label: string, result: KindResult, settings: StatisticsSettings, generated: string): Row[] {
  const { day, year } = result;
  const s = day.statements;
  const at = (name: string) => s[name] ?? { statements: 0, rowsSent: 0, rowsWritten: 0 };
  // A flush's transaction, and the statements that commit on their own: the day's salt (written once, tried at every
  // flush with views: INSERT … DO NOTHING) and the first flush's housekeeping deletes.
  const alone = Object.entries(s)
    .filter(([name]) => name === "insert stats_salts" || name.startsWith("delete"))
    .reduce((sum, [, c]) => sum + c.statements, 0);
  const writes = day.transactions + alone;
  const daily = at("insert stats_daily");
  const seen = at("insert stats_seen");
  const rowsWritten = daily.rowsWritten + seen.rowsWritten;
  const server = day.server
    ? `; PostgreSQL's own count: ${count(day.server.commits)} commits (every statement's, reads too: ${formatNumber(day.server.commits / DAY_SECONDS)}/s), tuples inserted stats_daily ${count(day.server.inserted.stats_daily ?? 0)} + stats_seen ${count(day.server.inserted.stats_seen ?? 0)}, updated stats_daily ${count(day.server.updated.stats_daily ?? 0)}`
    : "";
  const cpu = `CPU ${formatNumber(day.cpuMs / 1000)} s of this process${day.serverCpuMs === null ? "" : ` + ${formatNumber(day.serverCpuMs / 1000)} s of PostgreSQL's backends`}`;
  const sums = day.sums;
  const exact =
    sums.siteViews === day.expected.views &&
    sums.siteVisitors === day.expected.visitors &&
    sums.pageViews === sums.siteViews &&
    sums.notFoundViews === day.expected.notFound &&
    day.notCounted === 0;
  const tables = (sizes: KindResult["yearTables"]) =>
    Object.entries(sizes)
      .map(([name, size]) => `${name} ${count(size.rows)} rows, ${megabytes(size.bytes)}`)
      .join("; ");
  const top = median(year.topMs);
  const series = median(year.seriesMs);
  const screen = median(year.screenMs);
  const yearSize = `${year.days} days × ${count(year.pages)} pages, ${formatNumber(year.rowsSeeded / 1e6)} M rows`;
  return [
    {
      figure: `${label}: ${count(settings.views)} views of a day (${count(settings.pages)} pages, ${count(settings.visitors)} visitors, + ${count(day.expected.notFound)} broken links) from ${settings.instances} recorders flushed every ${settings.flushMs / 1000} simulated s: time`,
      measured: `${formatNumber(day.wallMs / 1000)} s wall, ${cpu}; commits with ${day.durability}; ${count(day.flushes)} flushes, ${count(day.transactions)} wrote; ${generated}`,
      goal: "reported",
      verdict: "reported",
    },
    {
      figure: `${label}: writes per second of the simulated day ("a few writes a second")`,
      measured:
        `${formatNumber(writes / DAY_SECONDS)} write transactions/s (${count(day.transactions)} flush transactions + ${count(alone)} single statements; busiest hour ${formatNumber(day.peak.transactionsPerSecond)} flush transactions/s); ` +
        `${formatNumber(rowsWritten / DAY_SECONDS)} rows written/s (busiest hour ${formatNumber(day.peak.rowsPerSecond)}): stats_daily ${count(daily.rowsWritten)} upserted of ${count(daily.rowsSent)} sent in ${count(daily.statements)} statements, stats_seen ${count(seen.rowsWritten)} new of ${count(seen.rowsSent)} sent in ${count(seen.statements)}; ` +
        `${count(day.total.statements)} statements in all (${formatNumber(day.total.statements / DAY_SECONDS)}/s)${server}`,
      goal: `≤ ${FEW_WRITES} write transactions/s`,
      verdict: verdictOf(writes / DAY_SECONDS, (value) => value <= FEW_WRITES),
    },
    {
      figure: `${label}: the day's sums read back`,
      measured: `site views ${count(sums.siteViews)} of ${count(day.expected.views)}; unique visitors ${count(sums.siteVisitors)} of ${count(day.expected.visitors)}; page views ${count(sums.pageViews)}; broken links ${count(sums.notFoundViews)} of ${count(day.expected.notFound)}; not counted ${day.notCounted}`,
      goal: "exact",
      verdict: exact ? "meets goal" : "MISSES goal",
    },
    {
      figure: `${label}: tables at the day's end (with indexes)`,
      measured: `${tables(day.tables)}; after the year's seed: ${tables(result.yearTables)}`,
      goal: "reported",
      verdict: "reported",
    },
    {
      figure: `${label}: statistics screen on a year (${yearSize}): top 50 pages of ${year.days} days`,
      measured: `${describe(year.topMs, "ms")}; plan: ${year.plan || "n/a"}; first ${year.top ? `${year.top.key} ${count(year.top.views)} views` : "none"}; seeded in ${formatNumber(year.seedMs / 1000)} s`,
      goal: `≤ ${READ_GOAL_MS} ms`,
      verdict: verdictOf(top, (value) => value <= READ_GOAL_MS),
    },
    {
      figure: `${label}: statistics screen on a year: the site's daily series (${year.days} rows)`,
      measured: describe(year.seriesMs, "ms"),
      goal: `≤ ${READ_GOAL_MS} ms`,
      verdict: verdictOf(series, (value) => value <= READ_GOAL_MS),
    },
    {
      figure: `${label}: statistics screen on a year: its whole read (readStatistics: series, totals, every list's first 10)`,
      measured: describe(year.screenMs, "ms"),
      goal: `≤ ${READ_GOAL_MS} ms`,
      verdict: verdictOf(screen, (value) => value <= READ_GOAL_MS),
    },
  ];
}

export function statisticsRows(result: StatisticsResult | null): Row[] {
  if (!result) {
    const figure = "Statistics: writes per second of 1,000,000 views a day, a year's screen reads";
    return [{ figure, measured: "n/a", goal: "≤ 5 writes/s; ≤ 200 ms", verdict: "skipped (run with --stats)" }];
  }
  const { views, notFound } = result.sqlite.day.expected;
  const generated = `${count(views + notFound)} requests generated in ${formatNumber(result.generateMs / 1000)} s`;
  const rows = kindRows("SQLite", result.sqlite, result.settings, generated);
  if (result.postgres) rows.push(...kindRows("PostgreSQL", result.postgres, result.settings, generated));
  else {
    rows.push({
      figure: "Statistics: the same on PostgreSQL",
      measured: "n/a",
      goal: "reported",
      verdict: "skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)",
    });
  }
  return rows;
}
