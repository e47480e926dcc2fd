/**
 * The server's own CPU time per answered request, for variants of its environment, side by side: each variant's
 * server (the production build, `npm start`'s flags, a fresh data folder, pinned to core 0) is loaded in turn by
 * `wrk -t1` on core 1, the order alternating round by round, and the process's user + system time (every thread,
 * from /proc) is divided by the requests answered. CPU time, unlike throughput, barely moves when other work
 * shares the machine, so a difference between two variants of one run holds on a busy machine too.
 *
 *   npm run build && npx tsx scripts/measure-request-cpu.ts [--rounds 6] [--seconds 5] [--path /home]
 *        [--variant info=LOG_LEVEL=info --variant warn=LOG_LEVEL=warn]
 *
 * A variant named `name@DIR` runs the build of another checkout, DIR (as the bench's `--before`), so that a figure of
 * two revisions comes from one run: `--variant info=LOG_LEVEL=info --variant warn=LOG_LEVEL=warn
 * --variant before-info@../vitrine-before=LOG_LEVEL=info --variant before-warn@../vitrine-before=LOG_LEVEL=warn`.
 *
 * `--statistics` compares counting on and off (issue 46: "counting costs ≤ 3 % of a cached page's answer"): two
 * servers of this build on `/` (the page cache on, as by default), one with the setting statistics_enabled "true",
 * one with "false", written into each fresh data folder before its server starts; wrk sends a browser's user agent
 * (wrk's own has none, and a request without one is a script's, never counted). It reports the on ÷ off ratio of
 * CPU per request and of req/s, round by round, and how many views the "on" server wrote (so that its side is known
 * to have counted; a warning when it did not): `npx tsx scripts/measure-request-cpu.ts --statistics [--rounds 6]
 * [--seconds 5] [--env PAGE_CACHE=off]` (`--env`: for both servers).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrations.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { pinned, pinningNote, startFlags } from "./bench/processes.ts";
import { describe, formatNumber, median, range } from "./bench/stats.ts";
import { runWrk } from "./bench/wrk.ts";

const { values } = parseArgs({
  options: {
    rounds: { type: "string" },
    seconds: { type: "string" },
    connections: { type: "string" },
    path: { type: "string" },
    variant: { type: "string", multiple: true },
    statistics: { type: "boolean", default: false },
    env: { type: "string", multiple: true },
  },
});
const ROUNDS = Number(values.rounds ?? 6);
const SECONDS = Number(values.seconds ?? 5);
const CONNECTIONS = Number(values.connections ?? 10);
const STATISTICS = values.statistics;
// The statistics' cost is asked of a cached page: `/` (the page cache is on unless PAGE_CACHE says otherwise).
const TARGET = values.path ?? (STATISTICS ? "/" : "/home");
/** A browser's request headers: a request without a user agent is a script's, which the statistics never count. */
const BROWSER = {
  "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
  "Accept-Language": "de-DE,de;q=0.9,en;q=0.8",
};
if (STATISTICS && values.variant) throw new Error("--statistics makes its own two variants: no --variant with it");
/** `--env VAR=value`, for both of --statistics' servers (PAGE_CACHE=off: the cost on a page rendered each time). */
const sharedEnv = Object.fromEntries(
  (values.env ?? []).map((setting) => [
    setting.slice(0, setting.indexOf("=")),
    setting.slice(setting.indexOf("=") + 1),
  ]),
);
type Variant = { name: string; env: Record<string, string>; root?: string; statistics?: "true" | "false" };
/** `name=VAR=value,VAR2=value`: a name, then the variables that make this variant's environment. */
const specs = values.variant ?? ["info=LOG_LEVEL=info", "warn=LOG_LEVEL=warn"];
const variants: Variant[] = STATISTICS
  ? [
      { name: "stats-on", env: sharedEnv, statistics: "true" },
      { name: "stats-off", env: sharedEnv, statistics: "false" },
    ]
  : specs.map((spec) => {
      const at = spec.indexOf("=");
      const [name = "", root] = (at === -1 ? spec : spec.slice(0, at)).split("@");
      const env: Record<string, string> = {};
      for (const setting of (at === -1 ? "" : spec.slice(at + 1)).split(",").filter(Boolean)) {
        const equals = setting.indexOf("=");
        env[setting.slice(0, equals)] = setting.slice(equals + 1);
      }
      return { name, env, root: root ? path.resolve(root) : undefined };
    });

const CLOCK_TICKS_PER_SECOND = 100;
const headers = STATISTICS ? BROWSER : undefined;

/** User + system CPU seconds of a process and all its threads so far. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the command's closing parenthesis, utime and stime are the 12th and 13th fields.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/**
 * The data folder's database made before its server starts (what the server's first start does: migrate, the
 * default settings), with the statistics setting written: the server reads it as it finds it, no restart needed.
 */
async function prepareStatistics(dataDir: string, enabled: "true" | "false") {
  const database = openDatabase({ sqliteFile: sqliteFileIn(dataDir) });
  try {
    await migrateToLatest(database.db, database.kind);
    await insertMissingDefaults(database.db);
    await database.db
      .insertInto("site_settings")
      .values({ key: "statistics_enabled", value: enabled })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: enabled }))
      .execute();
  } finally {
    await database.close();
  }
}

/** The site's views the statistics wrote into a stopped server's data folder (every flush done at its stop). */
async function viewsCounted(dataDir: string): Promise<number> {
  const database = openDatabase({ sqliteFile: sqliteFileIn(dataDir) });
  try {
    const row = await database.db
      .selectFrom("stats_daily")
      .select((eb) => eb.fn.sum<string>("views").as("views"))
      .where("kind", "=", "site")
      .executeTakeFirst();
    return Number(row?.views ?? 0);
  } finally {
    await database.close();
  }
}

const servers = [];
for (const variant of variants) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vitrine-cpu-${variant.name}-`));
  if (variant.statistics) await prepareStatistics(dataDir, variant.statistics);
  const server = await startServer({
    dataDir,
    authSecret: TEST_AUTH_SECRET,
    env: variant.env,
    root: variant.root,
    nodeFlags: startFlags(variant.root),
    launch: (command, args) => pinned("server", command, args),
  });
  servers.push({ variant, server, dataDir, perRequestUs: [] as number[], rps: [] as number[], requests: 0 });
}
console.log(
  `${variants.length} variants, ${ROUNDS} rounds of ${SECONDS} s on ${TARGET}, c${CONNECTIONS}; ${pinningNote()}`,
);
const counted = new Map<string, number>();
try {
  for (const entry of servers) {
    const warm = await runWrk(entry.server.url(TARGET), { connections: CONNECTIONS, seconds: 1, headers });
    entry.requests += warm.requests;
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const entry of order) {
      const pid = entry.server.child.pid as number;
      const before = cpuSeconds(pid);
      const result = await runWrk(entry.server.url(TARGET), { connections: CONNECTIONS, seconds: SECONDS, headers });
      entry.requests += result.requests;
      const used = cpuSeconds(pid) - before;
      if (result.non2xx > 0 || result.socketErrors > 0) throw new Error(`${entry.variant.name}: errors during the run`);
      entry.perRequestUs.push((used / result.requests) * 1e6);
      entry.rps.push(result.requestsPerSecond);
    }
  }
} finally {
  for (const entry of servers) {
    await entry.server.stop();
    if (entry.variant.statistics) counted.set(entry.variant.name, await viewsCounted(entry.dataDir).catch(() => NaN));
    fs.rmSync(entry.dataDir, { recursive: true, force: true });
  }
}
for (const entry of servers) {
  console.log(
    `${entry.variant.name.padEnd(12)} CPU per request ${describe(entry.perRequestUs, "µs")}   req/s ${describe(entry.rps)}`,
  );
}
console.log(
  "raw µs/request:",
  JSON.stringify(
    Object.fromEntries(servers.map((e) => [e.variant.name, e.perRequestUs.map((v) => Math.round(v * 10) / 10)])),
  ),
);

if (STATISTICS) {
  const [on, off] = servers;
  if (on && off) {
    // Round by round (both sides of a round ran within seconds of each other): on ÷ off.
    const cpu = on.perRequestUs.map((us, round) => us / (off.perRequestUs[round] as number));
    const rps = on.rps.map((value, round) => value / (off.rps[round] as number));
    const cost = (median(cpu) - 1) * 100;
    console.log(
      `statistics on ÷ off: CPU per request ${formatNumber(median(cpu))} (rounds ${range(cpu)}), counting costs ${formatNumber(cost)} % ` +
        `(goal ≤ 3 %: ${cost <= 3 ? "meets" : "MISSES"}); req/s ${formatNumber(median(rps))} (rounds ${range(rps)})`,
    );
    for (const entry of servers) {
      console.log(
        `${entry.variant.name}: ${counted.get(entry.variant.name)} views counted of ${entry.requests} requests answered`,
      );
    }
    // A side that did not count its requests measured something else than counting: said, not left to the reader.
    const onCounted = counted.get(on.variant.name) ?? 0;
    if (!(onCounted >= on.requests * 0.9)) {
      console.log(
        `WARNING: the "on" server counted ${onCounted} of ${on.requests} requests: the ratio above is not the cost of counting`,
      );
    }
  }
}
