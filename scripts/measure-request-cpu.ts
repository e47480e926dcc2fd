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
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { pinned, pinningNote, startFlags } from "./bench/processes.ts";
import { describe } from "./bench/stats.ts";
import { runWrk } from "./bench/wrk.ts";

const { values } = parseArgs({
  options: {
    rounds: { type: "string" },
    seconds: { type: "string" },
    connections: { type: "string" },
    path: { type: "string" },
    variant: { type: "string", multiple: true },
  },
});
const ROUNDS = Number(values.rounds ?? 6);
const SECONDS = Number(values.seconds ?? 5);
const CONNECTIONS = Number(values.connections ?? 10);
const TARGET = values.path ?? "/home";
/** `name=VAR=value,VAR2=value`: a name, then the variables that make this variant's environment. */
const variants = (values.variant ?? ["info=LOG_LEVEL=info", "warn=LOG_LEVEL=warn"]).map((spec) => {
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

/** User + system CPU seconds of a process and all its threads so far. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the command's closing parenthesis, utime and stime are the 12th and 13th fields.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

const servers = [];
for (const variant of variants) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vitrine-cpu-${variant.name}-`));
  const server = await startServer({
    dataDir,
    authSecret: TEST_AUTH_SECRET,
    env: variant.env,
    root: variant.root,
    nodeFlags: startFlags(variant.root),
    launch: (command, args) => pinned("server", command, args),
  });
  servers.push({ variant, server, dataDir, perRequestUs: [] as number[], rps: [] as number[] });
}
console.log(
  `${variants.length} variants, ${ROUNDS} rounds of ${SECONDS} s on ${TARGET}, c${CONNECTIONS}; ${pinningNote()}`,
);
try {
  for (const entry of servers) await runWrk(entry.server.url(TARGET), { connections: CONNECTIONS, seconds: 1 });
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const entry of order) {
      const pid = entry.server.child.pid as number;
      const before = cpuSeconds(pid);
      const result = await runWrk(entry.server.url(TARGET), { connections: CONNECTIONS, seconds: SECONDS });
      const used = cpuSeconds(pid) - before;
      if (result.non2xx > 0 || result.socketErrors > 0) throw new Error(`${entry.variant.name}: errors during the run`);
      entry.perRequestUs.push((used / result.requests) * 1e6);
      entry.rps.push(result.requestsPerSecond);
    }
  }
} finally {
  for (const entry of servers) {
    await entry.server.stop();
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
