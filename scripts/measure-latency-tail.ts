/**
 * Where the page-cached server's p99 at 50 connections comes from (issue 23's latency row): the production build on
 * the bench's seeded site (pinned to core 0, with scripts/bench/loop-probe.mjs preloaded), and nginx and `node:http`
 * alone serving the very same bytes (the bench's yardsticks, startFloors), each loaded in turn by `wrk -t1` on core 1,
 * the order rotating round by round. Per run: req/s, p50
 * and p99, the mean wait Little's law gives for a closed loop of that many connections (connections ÷ req/s: every
 * connection sends its next request when its answer arrives, so that is the least average a server of that
 * throughput can have), how late the server's event loop ran, and its garbage-collection pauses by kind.
 *
 * `--before DIR` adds another checkout's build (built; its own `npm start` flags) on a copy of the same site, probed
 * the same way, as a fourth side: a change's effect on the tail, side by side in one run.
 *
 *   npm run build && npx tsx scripts/measure-latency-tail.ts [--path /home] [--rounds 3] [--seconds 5] [--connections 50]
 *     [--before DIR]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { type ServerProcess, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { runChild } from "./bench/before-build.ts";
import { describeProbe, type LoopProbe, lastProbe, littleMeanMs } from "./bench/latency-tail.ts";
import { listingIn, pinningNote, startApp, startFloors } from "./bench/processes.ts";
import { seedDataFolder } from "./bench/seed-data.ts";
import { describe, formatNumber } from "./bench/stats.ts";
import { runWrk, type WrkResult } from "./bench/wrk.ts";

const { values } = parseArgs({
  options: {
    path: { type: "string" },
    rounds: { type: "string" },
    seconds: { type: "string" },
    connections: { type: "string" },
    before: { type: "string" },
  },
});
const TARGET = values.path ?? "/home";
const ROUNDS = Number(values.rounds ?? 3);
const SECONDS = Number(values.seconds ?? 5);
const CONNECTIONS = Number(values.connections ?? 50);

const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-tail-"));
const dataDir = path.join(tempRoot, "site");
const beforeData = path.join(tempRoot, "before");
const nginxDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-tail-nginx-"));
const servers: ServerProcess[] = [];
const started = listingIn(servers);
try {
  console.log("Seeding the bench's site (50 pictures)…");
  await seedDataFolder(dataDir, { realPictures: 50, authSecret: TEST_AUTH_SECRET });
  const probed = { nodeFlags: ["--import", path.resolve(import.meta.dirname, "bench/loop-probe.mjs")] };
  const beforeRoot = values.before ? path.resolve(values.before) : null;
  // The other checkout's site is made by its own code: its migrations, its seeding (as the bench's --before does).
  if (beforeRoot) {
    console.log(`Seeding the --before checkout's site with its own code…`);
    const seed = { step: "seed", dataDir: beforeData, realPictures: 50, small: 50, authSecret: TEST_AUTH_SECRET };
    await runChild(beforeRoot, tempRoot, seed);
  }
  // The other build starts first, so that neither has idled longer when the rounds begin.
  const before = beforeRoot
    ? await started(
        startApp({ dataDir: beforeData, authSecret: TEST_AUTH_SECRET, pageCache: true, root: beforeRoot, ...probed }),
      )
    : null;
  const app = await started(startApp({ dataDir, authSecret: TEST_AUTH_SECRET, pageCache: true, ...probed }));
  const page = await fetch(app.url(TARGET));
  if (!page.ok) throw new Error(`${TARGET} answered ${page.status}`);
  const floors = await startFloors({ nginxDir, tempRoot, pages: { [TARGET]: await page.text() }, started });
  const sides: Record<string, ServerProcess> = {
    app,
    ...(before ? { before } : {}),
    nginx: floors.nginx,
    "node:http": floors.nodeFloor,
  };
  const names = Object.keys(sides);
  // The apps carry the loop probe; the yardsticks do not.
  const withProbe = new Set([app, before].filter((server) => server !== null));
  console.log(`${TARGET}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s; ${pinningNote()}`);
  for (const server of Object.values(sides)) await runWrk(server.url(TARGET), { connections: 10, seconds: 2 });

  /** Asks a server's probe for what happened since it last answered; waits for its line. */
  async function probe(server: ServerProcess): Promise<LoopProbe> {
    const from = server.stderr.length;
    process.kill(server.child.pid as number, "SIGUSR2");
    for (let waited = 0; waited < 5_000; waited += 20) {
      const line = lastProbe(server.stderr, from);
      if (line) return line;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error("the server's loop probe did not answer");
  }
  const runs = new Map(names.map((name) => [name, [] as WrkResult[]]));
  for (let round = 1; round <= ROUNDS; round++) {
    // Each side goes first once in as many rounds as there are sides.
    const order = names.map((_, index) => names[(index + round - 1) % names.length] as string);
    for (const name of order) {
      const server = sides[name] as ServerProcess;
      if (withProbe.has(server)) await probe(server);
      const run = await runWrk(server.url(TARGET), { connections: CONNECTIONS, seconds: SECONDS });
      if (run.non2xx > 0 || run.socketErrors > 0)
        throw new Error(`${name}: ${run.non2xx} errors, ${run.socketErrors} socket errors`);
      runs.get(name)?.push(run);
      console.log(
        `round ${round}, ${name}: ${formatNumber(run.requestsPerSecond)} req/s, p50 ${formatNumber(run.p50Ms)} ms, p99 ${formatNumber(run.p99Ms)} ms, Little's law mean ${formatNumber(littleMeanMs(CONNECTIONS, run.requestsPerSecond))} ms`,
      );
      if (withProbe.has(server)) console.log(`  ${describeProbe(await probe(server), SECONDS)}`);
    }
  }
  console.log("\nMedians (spread) over the rounds:");
  for (const name of names) {
    const sideRuns = runs.get(name) ?? [];
    const throughput = describe(
      sideRuns.map((run) => run.requestsPerSecond),
      "req/s",
    );
    const p50 = describe(
      sideRuns.map((run) => run.p50Ms),
      "ms",
    );
    const p99 = describe(
      sideRuns.map((run) => run.p99Ms),
      "ms",
    );
    const little = describe(
      sideRuns.map((run) => littleMeanMs(CONNECTIONS, run.requestsPerSecond)),
      "ms",
    );
    console.log(`  ${name}: ${throughput}; p50 ${p50}; p99 ${p99}; Little's law mean ${little}`);
  }
} finally {
  for (const server of servers) await server.stop();
  fs.rmSync(tempRoot, { recursive: true, force: true });
  fs.rmSync(nginxDir, { recursive: true, force: true });
}
