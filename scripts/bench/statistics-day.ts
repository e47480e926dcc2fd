import fs from "node:fs";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import type { AppDatabase } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { createStatisticsRecorder } from "#app/domains/statistics/statistics-recorder.server.ts";
import { type StatementCount, StatementCounter } from "./statistics-counting.ts";
import type { Traffic } from "./statistics-traffic.ts";

/*
 * One simulated day of counting (the statistics section, statistics.ts): the day's requests fed, in time order, to
 * one recorder per instance on one database, each recorder flushed every 5 simulated seconds as its timer would (the
 * smoke run: every 5 minutes; the instances' timers a third of the period apart), as fast as the database takes it.
 * What comes out: the time and CPU it took, the statements and rows the recorders sent, the writes per second of the
 * simulated day, the tables' sizes, and the sums read back against what was generated.
 */

const DAY_MS = 86_400_000;
const SITE = "https://bench.example";
const TABLES = ["stats_daily", "stats_seen"] as const;

export type DayResult = {
  wallMs: number;
  /** This process's CPU (the recorders, the generator's view objects, the driver; SQLite's work too). */
  cpuMs: number;
  /** PostgreSQL's backends' CPU over the run, those still connected at its end; null on SQLite. */
  serverCpuMs: number | null;
  flushes: number;
  /** Flushes that wrote: one transaction each (the others had nothing, and sent nothing). */
  transactions: number;
  statements: Record<string, StatementCount>;
  total: StatementCount;
  /** The busiest hour of the simulated day: its write transactions and rows written, per second. */
  peak: { hour: number; transactionsPerSecond: number; rowsPerSecond: number };
  /** PostgreSQL's own count of the database's commits and tuples written over the run (every statement's). */
  server: { commits: number; inserted: Record<string, number>; updated: Record<string, number> } | null;
  tables: Record<string, { rows: number; bytes: number }>;
  sums: { siteViews: number; siteVisitors: number; pageViews: number; notFoundViews: number };
  expected: { views: number; visitors: number; notFound: number };
  /** How a commit waits for the disk, as the database says (a site's: synchronous_commit on, SQLite's FULL). */
  durability: string;
  /** Requests the recorder did not count (a revalidation): the generator makes none, so this stays 0. */
  notCounted: number;
};

type ServerCounters = { commits: number; inserted: Record<string, number>; updated: Record<string, number> };

/** PostgreSQL's statistics of the database (read from a connection of its own, not the one being counted). */
async function serverCounters(databaseUrl: string): Promise<ServerCounters> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const commits = await client.query<{ n: string }>(
      "SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()",
    );
    const tuples = await client.query<{ relname: string; ins: string; upd: string }>(
      "SELECT relname, n_tup_ins AS ins, n_tup_upd AS upd FROM pg_stat_user_tables WHERE relname = ANY($1)",
      [TABLES],
    );
    return {
      commits: Number(commits.rows[0]?.n ?? 0),
      inserted: Object.fromEntries(tuples.rows.map((row) => [row.relname, Number(row.ins)])),
      updated: Object.fromEntries(tuples.rows.map((row) => [row.relname, Number(row.upd)])),
    };
  } finally {
    await client.end();
  }
}

/** A backend's statistics reach the shared counters when it ends (or within a second or more): closed, then read. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

/**
 * User + system CPU ms of PostgreSQL's backends serving this database now, the recorders' own connection among them
 * (same machine; null if unreadable).
 */
async function backendCpuMs(db: Kysely<Database>): Promise<number | null> {
  const { rows } = await sql<{ pid: number }>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database()`.execute(db);
  let total = 0;
  for (const { pid } of rows) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += ((Number(fields[11]) + Number(fields[12])) / 100) * 1000;
    } catch {
      return null;
    }
  }
  return total;
}

export async function simulateDay(
  open: () => AppDatabase,
  kind: "sqlite" | "postgres",
  traffic: Traffic,
  databaseUrl?: string,
): Promise<DayResult> {
  const { instances, day, flushMs } = traffic.settings;
  const dayStart = Date.parse(`${day}T00:00:00Z`);
  const dayEnd = dayStart + DAY_MS;
  const serverBefore = kind === "postgres" && databaseUrl ? await serverCounters(databaseUrl) : null;
  const database = open();
  const counter = new StatementCounter();
  const db = database.db.withPlugin(counter);
  const recorders = Array.from({ length: instances }, () =>
    createStatisticsRecorder({
      db,
      site: SITE,
      retentionDays: async () => 0,
      onError: (error) => {
        throw error;
      },
    }),
  );
  const hourly = Array.from({ length: 24 }, () => ({ transactions: 0, rows: 0 }));
  let flushes = 0;
  let transactions = 0;
  let notCounted = 0;
  let next = 0;

  const feedUntil = (at: number) => {
    for (; next < traffic.count && traffic.atOf(next) < at; next += 1) {
      const recorder = recorders[traffic.instanceOf(next)];
      if (recorder && !recorder.record(traffic.viewOf(next))) notCounted += 1;
    }
  };
  const flush = async (instance: number, at: number) => {
    const statementsBefore = counter.of("insert stats_daily").statements;
    const rowsBefore = counter.total().rowsWritten;
    await recorders[instance]?.flush(new Date(at));
    flushes += 1;
    const hour = hourly[Math.floor((at - dayStart) / 3_600_000)];
    if (!hour) return;
    // Every flush with something to write writes stats_daily (at least the site's row) in its one transaction.
    if (counter.of("insert stats_daily").statements > statementsBefore) {
      transactions += 1;
      hour.transactions += 1;
    }
    hour.rows += counter.total().rowsWritten - rowsBefore;
  };

  const durability = await durabilityOf(database.db, kind);
  const cpuBefore = process.cpuUsage();
  const serverCpuBefore = kind === "postgres" ? await backendCpuMs(database.db) : null;
  const started = performance.now();
  // The instances' timers run a third of the period apart; the last flushes just before midnight (the next day's
  // first flush would delete the day's visitor hashes, whose size is reported).
  for (let tick = 1; dayStart + (tick * flushMs) / instances < dayEnd; tick += 1) {
    const at = dayStart + (tick * flushMs) / instances;
    // A line every 6 simulated hours: a full day takes minutes, and a silent one looks stuck.
    if (Math.floor((at - dayStart) / 21_600_000) > Math.floor((at - flushMs / instances - dayStart) / 21_600_000)) {
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      console.log(`  ${kind}: ${new Date(at).toISOString().slice(11, 16)} of the simulated day after ${seconds} s`);
    }
    feedUntil(at);
    await flush(tick % instances, at);
  }
  feedUntil(dayEnd);
  for (let instance = 0; instance < instances; instance += 1) await flush(instance, dayEnd - 1);
  const wallMs = performance.now() - started;
  const serverCpuAfter = kind === "postgres" ? await backendCpuMs(database.db) : null;
  const cpu = process.cpuUsage(cpuBefore);

  const sums = await sumsOf(database.db, day);
  const tables = await tableSizes(database.db, kind);
  await database.close();
  let server: ServerCounters | null = null;
  if (serverBefore && databaseUrl) {
    await settle();
    const after = await serverCounters(databaseUrl);
    const minus = (a: Record<string, number>, b: Record<string, number>) =>
      Object.fromEntries(TABLES.map((table) => [table, (a[table] ?? 0) - (b[table] ?? 0)]));
    server = {
      commits: after.commits - serverBefore.commits,
      inserted: minus(after.inserted, serverBefore.inserted),
      updated: minus(after.updated, serverBefore.updated),
    };
  }
  const busiest = hourly.reduce((best, hour, index) => (hour.rows > (hourly[best]?.rows ?? 0) ? index : best), 0);
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    serverCpuMs:
      serverCpuBefore === null || serverCpuAfter === null ? null : Math.max(0, serverCpuAfter - serverCpuBefore),
    flushes,
    transactions,
    statements: Object.fromEntries(counter.counts),
    total: counter.total(),
    peak: {
      hour: busiest,
      transactionsPerSecond: (hourly[busiest]?.transactions ?? 0) / 3600,
      rowsPerSecond: (hourly[busiest]?.rows ?? 0) / 3600,
    },
    server,
    tables,
    sums,
    expected: {
      views: traffic.settings.views,
      visitors: traffic.visitorsWithViews,
      notFound: traffic.notFound,
    },
    notCounted,
    durability,
  };
}

async function durabilityOf(db: Kysely<Database>, kind: "sqlite" | "postgres"): Promise<string> {
  if (kind === "postgres") {
    const { rows } = await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(db);
    return `synchronous_commit ${rows[0]?.synchronous_commit ?? "?"}`;
  }
  const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(db);
  const level = rows[0]?.synchronous;
  return `synchronous ${["OFF", "NORMAL", "FULL", "EXTRA"][level ?? -1] ?? String(level)}`;
}

async function sumsOf(db: Kysely<Database>, day: string): Promise<DayResult["sums"]> {
  const rows = await db
    .selectFrom("stats_daily")
    .select(["kind", sql<string>`sum(views)`.as("views"), sql<string>`sum(visitors)`.as("visitors")])
    .where("day", "=", day)
    .where("kind", "in", ["site", "page", "notfound"])
    .groupBy("kind")
    .execute();
  const of = (kind: string) => rows.find((row) => row.kind === kind);
  return {
    siteViews: Number(of("site")?.views ?? 0),
    siteVisitors: Number(of("site")?.visitors ?? 0),
    pageViews: Number(of("page")?.views ?? 0),
    notFoundViews: Number(of("notfound")?.views ?? 0),
  };
}

/** Rows and bytes on disk of each table with its indexes (PostgreSQL: with TOAST; SQLite: dbstat's pages). */
export async function tableSizes(
  db: Kysely<Database>,
  kind: "sqlite" | "postgres",
): Promise<Record<string, { rows: number; bytes: number }>> {
  const sizes: Record<string, { rows: number; bytes: number }> = {};
  for (const table of TABLES) {
    const count = await db.selectFrom(table).select(sql<string>`count(*)`.as("n")).executeTakeFirstOrThrow();
    const { rows } =
      kind === "postgres"
        ? await sql<{ bytes: string }>`SELECT pg_total_relation_size(${table}) AS bytes`.execute(db)
        : // The table and every index on it (the primary key's is named sqlite_autoindex_<table>_1).
          await sql<{ bytes: string }>`SELECT sum(pgsize) AS bytes FROM dbstat
            WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name = ${table})`.execute(db);
    sizes[table] = { rows: Number(count.n), bytes: Number(rows[0]?.bytes ?? 0) };
  }
  return sizes;
}
