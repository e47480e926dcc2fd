import { execFileSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, ROOT, run } from "#tests/support/server-process.ts";
import { bareAppBuildIsCurrent } from "./bench/processes.ts";
import { parseWrk } from "./bench/wrk.ts";

describe("the bench's wrk parser", () => {
  it("reads requests per second and the latency percentiles in milliseconds", () => {
    const output = `Running 1s test @ http://127.0.0.1:3000/
  1 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.20ms  300.00us   9.10ms   90.00%
    Req/Sec     8.10k   200.00     8.50k    70.00%
  Latency Distribution
     50%  850.00us
     75%    1.10ms
     90%    1.50ms
     99%    1.02s
  8100 requests in 1.00s, 10.00MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:   8099.50
Transfer/sec:     10.00MB
`;
    expect(parseWrk(output)).toEqual({
      requestsPerSecond: 8099.5,
      p50Ms: 0.85,
      // wrk prints no 95th percentile: only a script's `done` does (below).
      p95Ms: Number.NaN,
      p99Ms: 1020,
      requests: 8100,
      non2xx: 4,
      socketErrors: 3,
    });
  });

  it("reads the 95th percentile that the search section's script writes after wrk's own figures", () => {
    const output = `  Latency Distribution
     50%   10.00ms
     75%   12.00ms
     90%   14.00ms
     99%   30.00ms
  900 requests in 1.00s, 1.00MB read
Requests/sec:    900.00
Transfer/sec:      1.00MB
  95%  21500us
`;
    expect(parseWrk(output)).toMatchObject({ p50Ms: 10, p95Ms: 21.5, p99Ms: 30 });
  });
});

// Not the bench itself (that takes minutes and wants a quiet machine): a --smoke run, which goes through every
// step with tiny durations (the live streams section's with 50 streams and 3 saves), must finish and print each
// figure's row with a number.
describe("npm run bench -- --smoke --live", () => {
  beforeAll(() => {
    // The test's own setup (the bench never builds); the main build comes from the global setup.
    if (!bareAppBuildIsCurrent()) execFileSync("npm", ["run", "bench:build"], { cwd: ROOT, stdio: "ignore" });
  }, 120_000);

  it("runs and prints every figure of the table with a number", async () => {
    const tsx = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
    const result = await run(process.execPath, [tsx, "scripts/bench.ts", "--smoke", "--live"], cleanEnv({}), 170_000);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const rows = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| Figure"))
      .map((line) => line.split(/(?<!\\)\|/).map((cell) => cell.trim()));
    const figures = [
      /^Anonymous `\/`, req\/s/,
      /^Anonymous `\/home`, req\/s/,
      /^Yardstick: `node:http` alone sending `\/`'s bytes/,
      /^Yardstick: `node:http` alone sending `\/home`'s bytes/,
      /^Yardstick: latency at 50 connections, `\/`'s bytes/,
      /^Yardstick: latency at 50 connections, `\/home`'s bytes/,
      /^Latency at 50 connections, `\/`/,
      /^Latency at 50 connections, `\/home`/,
      /^Uncached render of `\/`/,
      /^Signed-in member's `\/` \(never page-cached\)/,
      /^Signed-in member's `\/home`/,
      /^Signed-in member's `\/blog`/,
      /server time .*: \/ \(/,
      /server time .*: last page/,
      /server time .*: category filter/,
      /server time .*: \/home/,
      /^Process memory \(RSS\) idle/,
      /^Process memory \(RSS, max\)/,
      /upload answered$/,
      /every derivative ready/,
      /^Compression done once/,
      /^Live streams: memory per open stream/,
      /^Live streams: an admin's save/,
      /^Anonymous `\/` \(page cache on\), req\/s with 50 idle live streams open/,
      /^Anonymous `\/home` \(page cache on\), req\/s with 50 idle live streams open/,
    ];
    for (const figure of figures) {
      const row = rows.find((cells) => figure.test(cells[1] ?? ""));
      expect(row, `a row for ${figure}`).toBeDefined();
      const [, , measured, , verdict] = row ?? [];
      // A tool that could not be installed skips its rows; everything else has a figure and a verdict.
      if (verdict?.startsWith("skipped (") && /missing/.test(verdict)) continue;
      expect(measured, String(figure)).toMatch(/\d/);
      // Memory per stream and the yardsticks have no goal of their own: they are reported.
      const verdicts = /memory per open stream|Yardstick/.test(String(figure))
        ? /^reported$/
        : /^(meets goal|MISSES goal)$/;
      expect(verdict, String(figure)).toMatch(verdicts);
    }
    expect(result.stdout).toMatch(/<picture> elements on \/: app 24, bare app 24/);
  }, 180_000);
});

// The several-instances section on its own (two servers on PostgreSQL and s3rver, two nginx): it must start, see
// both instances answer behind the balancer, and print its rows with numbers.
describe("npm run bench -- --smoke --instances-only", () => {
  it("runs one instance against two behind nginx and prints the section's rows with numbers", async () => {
    const tsx = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
    const result = await run(
      process.execPath,
      [tsx, "scripts/bench.ts", "--smoke", "--instances-only"],
      cleanEnv({ TEST_DATABASE_URL: process.env.TEST_DATABASE_URL }),
      170_000,
    );
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const rows = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| Figure"))
      .map((line) => line.split(/(?<!\\)\|/).map((cell) => cell.trim()));
    expect(rows.map((cells) => cells[1])).toEqual([
      expect.stringMatching(/^Uncached `\/` \(PAGE_CACHE=off\) on PostgreSQL and S3, 50 connections: req\/s of two/),
      expect.stringMatching(/^Same load, p99 latency: one instance, one behind nginx, two behind nginx$/),
    ]);
    for (const [, figure, measured, , verdict] of rows) {
      if (verdict?.startsWith("skipped (") && /missing/.test(verdict)) continue;
      expect(verdict, figure).toBe("reported");
      expect(measured, figure).toMatch(/one instance [\d.]+.*one behind nginx [\d.]+.*two behind nginx [\d.]+/);
    }
    // The section's own checks (every way in answers the full page; both instances answer behind nginx) held.
    expect(result.stdout).not.toMatch(/^\s+Instances: /m);
  }, 180_000);
});

// The search section on its own (its own data folder of pictures and posts in both languages, one server): it
// must seed, reindex, find something for every query of its rotation, and print its rows with numbers.
describe("npm run bench -- --smoke --search-only", () => {
  it("runs searches against /blog and prints the section's rows with numbers", async () => {
    const tsx = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
    const result = await run(
      process.execPath,
      [tsx, "scripts/bench.ts", "--smoke", "--search-only"],
      cleanEnv({}),
      120_000,
    );
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const rows = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| Figure"))
      .map((line) => line.split(/(?<!\\)\|/).map((cell) => cell.trim()));
    // Without a PostgreSQL server named (cleanEnv drops TEST_DATABASE_URL) the PostgreSQL half says it was skipped.
    expect(rows.map((cells) => cells[1])).toEqual([
      expect.stringMatching(/^SQLite: search server time p95 \(each request alone, 1 connection/),
      expect.stringMatching(/^SQLite: a search costs no more than an uncached `\/blog` render: the type-ahead's/),
      expect.stringMatching(/^SQLite: the `\/search` page \(a page render plus the search\)/),
      expect.stringMatching(/^SQLite: search at 50 connections, latency with the queue/),
      expect.stringMatching(/^SQLite: uncached `\/blog` at 50 connections/),
      expect.stringMatching(/^SQLite: search index on disk/),
      expect.stringMatching(/^SQLite: reindex everything/),
      expect.stringMatching(/^The rotation's queries/),
      "The same on PostgreSQL",
    ]);
    for (const [, figure, measured, goal, verdict] of rows.slice(0, -1)) {
      if (verdict?.startsWith("skipped (") && /missing/.test(verdict)) continue;
      expect(measured, figure).toMatch(/\d/);
      expect(verdict, figure).toMatch(goal === "reported" ? /^reported$/ : /^(meets goal|MISSES goal)$/);
    }
    expect(rows.at(-1)?.[4]).toMatch(/^skipped \(set BENCH_DATABASE_URL/);
    // Both ways of asking were measured: the page and the type-ahead's request, each with its own figures.
    const [timeRow, typeaheadRow] = rows;
    expect(timeRow?.[2]).toMatch(/^the page [\d.]+ ms.*; the type-ahead's [\d.]+ ms/);
    expect(typeaheadRow?.[2]).toMatch(/^[\d.]+ \(rounds/);
    // Every query found something (the section lists the ones that did not as problems).
    expect(result.stdout).not.toMatch(/found nothing/);
  }, 130_000);
});

// The statistics section on its own (in the bench's process, no server): a small simulated day through three
// recorders on SQLite (cleanEnv drops TEST_DATABASE_URL, so the PostgreSQL half says it was skipped), its sums read
// back exact, and a small "year" seeded and read, each row with a number.
describe("npm run bench -- --smoke --stats-only", () => {
  it("simulates a day of views, checks the sums and times the year's reads", async () => {
    const tsx = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
    const result = await run(
      process.execPath,
      [tsx, "scripts/bench.ts", "--smoke", "--stats-only"],
      cleanEnv({}),
      90_000,
    );
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const rows = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| Figure"))
      .map((line) => line.split(/(?<!\\)\|/).map((cell) => cell.trim()));
    expect(rows.map((cells) => cells[1])).toEqual([
      expect.stringMatching(/^SQLite: 20,000 views of a day \(500 pages, 3,000 visitors, \+ 200 broken links\) from 3/),
      expect.stringMatching(/^SQLite: writes per second of the simulated day/),
      "SQLite: the day's sums read back",
      "SQLite: tables at the day's end (with indexes)",
      expect.stringMatching(/^SQLite: statistics screen on a year \(30 days × 500 pages.*top 50 pages of 30 days$/),
      expect.stringMatching(/^SQLite: statistics screen on a year: the site's daily series \(30 rows\)$/),
      expect.stringMatching(/^SQLite: statistics screen on a year: its whole read \(readStatistics/),
      "Statistics: the same on PostgreSQL",
    ]);
    const [time, writes, sums, tables, top, series, screen, postgres] = rows;
    expect(time?.[2]).toMatch(
      /^[\d.]+ s wall, CPU [\d.]+ s of this process; commits with synchronous FULL; [\d,]+ flushes/,
    );
    expect(writes?.[2]).toMatch(
      /^[\d.]+ write transactions\/s .* stats_daily [\d,]+ upserted .* stats_seen [\d,]+ new/,
    );
    expect(writes?.[4]).toBe("meets goal");
    // Every view generated is counted once, and every visitor once however many instances saw them.
    expect(sums?.[2]).toBe(
      "site views 20,000 of 20,000; unique visitors 3,000 of 3,000; page views 20,000; broken links 200 of 200; not counted 0",
    );
    expect(sums?.[4]).toBe("meets goal");
    expect(tables?.[2]).toMatch(/^stats_daily [\d,]+ rows, [\d.]+ MB; stats_seen [\d,]+ rows/);
    for (const row of [top, series, screen]) {
      expect(row?.[2]).toMatch(/^[\d.]+ ms/);
      expect(row?.[4]).toMatch(/^(meets goal|MISSES goal)$/);
    }
    expect(top?.[2]).toMatch(/plan: .*stats_daily_kind_day_idx/);
    expect(postgres?.[4]).toMatch(/^skipped \(set BENCH_DATABASE_URL/);
  }, 100_000);
});
