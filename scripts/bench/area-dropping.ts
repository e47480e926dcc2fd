import { request, type ServerProcess } from "#tests/support/server-process.ts";
import { startApp } from "./processes.ts";
import { describe, formatNumber, median, type Row, range } from "./stats.ts";
import type { WrkResult } from "./wrk.ts";

/*
 * The per-area dropping section (`--areas`, issue 19): what dropping kept pages per area changes. Two servers on
 * copies of the same data, page cache on: one drops per area (the site as it runs), the other drops everything
 * on any write (VITRINE_BENCH_DROP_EVERYTHING=1, a bench-only switch read once at its start: the behaviour before
 * areas). While wrk loads the cached gallery `/`, an admin adds a FAQ entry at a steady rate (a form post, as the
 * FAQ screen sends it without JavaScript); with per-area dropping those writes leave `/` kept (the menu already
 * offers the FAQ), with drop-everything each one empties the cache and the next visitor of `/` renders it. The two
 * servers take turns round by round (which goes first alternates), so a busy moment of the machine hits both.
 */

export type AreaSettings = {
  rounds: number;
  seconds: number;
  /** Time from one FAQ write's start to the next's. */
  writeEveryMs: number;
};

const CONNECTIONS = 10;
const PAGE = "/";

export type AreaServers = { perArea: ServerProcess; dropEverything: ServerProcess };

export async function startAreaServers(options: {
  dataDir: (name: string) => string;
  authSecret: string;
}): Promise<AreaServers> {
  const [perArea, dropEverything] = await Promise.all([
    startApp({ dataDir: options.dataDir("areas-per-area"), authSecret: options.authSecret, pageCache: true }),
    startApp({
      dataDir: options.dataDir("areas-drop-everything"),
      authSecret: options.authSecret,
      pageCache: true,
      env: { VITRINE_BENCH_DROP_EVERYTHING: "1" },
    }),
  ]);
  return { perArea, dropEverything };
}

export type AreaContext = {
  servers: AreaServers;
  settings: AreaSettings;
  adminCookie: string;
  hasWrk: boolean;
  record: (name: string, value: number) => void;
  load: (label: string, round: number, url: string, connections: number) => Promise<WrkResult>;
  problems: string[];
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Adds FAQ entries to `server` every `everyMs` until stopped; the stop resolves to the writes made. */
function writeFaqEntries(server: ServerProcess, adminCookie: string, everyMs: number, problems: string[]) {
  let stopped = false;
  let writes = 0;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const response = await fetch(server.url("/admin/faq"), {
        method: "POST",
        redirect: "manual",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          // The CSRF check wants the site's own origin, as a browser sends it.
          Origin: server.origin,
          Cookie: adminCookie,
        },
        body: new URLSearchParams({
          intent: "create",
          question: `Bench question ${++writes} ${Date.now()}`,
          answer: "A bench answer.",
          active: "on",
        }),
      });
      await response.arrayBuffer();
      if (response.status >= 400) {
        problems.push(`Areas: a FAQ write (POST /admin/faq) answered ${response.status}`);
        stopped = true;
      }
      await sleep(everyMs - (performance.now() - started));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return writes;
  };
}

export type AreaResult = { writeEveryMs: number; rounds: number };

export async function measureAreaDropping(context: AreaContext): Promise<AreaResult> {
  const { servers, settings, record } = context;
  const sides = [
    { name: "per area", server: servers.perArea },
    { name: "drop everything", server: servers.dropEverything },
  ] as const;
  // The first FAQ entry comes before anything is measured: from then on the menu offers the FAQ on both.
  for (const side of sides) {
    const stop = writeFaqEntries(side.server, context.adminCookie, settings.writeEveryMs, context.problems);
    await sleep(1);
    await stop();
    await request(side.server.url(PAGE));
  }
  if (!context.hasWrk) return { writeEveryMs: settings.writeEveryMs, rounds: 0 };
  for (let round = 1; round <= settings.rounds; round++) {
    console.log(`Areas: round ${round} of ${settings.rounds}…`);
    const order = round % 2 === 1 ? sides : [...sides].reverse();
    const rps: Record<string, number> = {};
    for (const side of order) {
      const stop = writeFaqEntries(side.server, context.adminCookie, settings.writeEveryMs, context.problems);
      const label = `app (cache on, ${side.name}) ${PAGE}, a FAQ write every ${settings.writeEveryMs} ms, ${CONNECTIONS} connections`;
      const result = await context.load(label, round, side.server.url(PAGE), CONNECTIONS);
      const writes = await stop();
      rps[side.name] = result.requestsPerSecond;
      record(`areas ${side.name} rps`, result.requestsPerSecond);
      record(`areas ${side.name} p99 ms`, result.p99Ms);
      record(`areas ${side.name} writes/s`, writes / settings.seconds);
    }
    record("areas per area/drop everything", (rps["per area"] as number) / (rps["drop everything"] as number));
  }
  return { writeEveryMs: settings.writeEveryMs, rounds: settings.rounds };
}

/** The section's row; without a result (not asked for) one row saying how to ask. */
export function areaRows(
  result: AreaResult | null,
  values: (name: string) => number[],
  hasWrk: boolean,
  why = "run with --areas",
): Row[] {
  const figure = (every: number | string) =>
    `Anonymous \`${PAGE}\` (page cache on) while an admin adds a FAQ entry every ${every} ms: req/s dropping per area ÷ dropping everything (${CONNECTIONS} connections)`;
  if (!result)
    return [{ figure: figure("N"), measured: "n/a", goal: "none set (reported)", verdict: `skipped (${why})` }];
  if (!hasWrk || result.rounds === 0) {
    return [
      {
        figure: figure(result.writeEveryMs),
        measured: "n/a",
        goal: "none set (reported)",
        verdict: "skipped (wrk missing)",
      },
    ];
  }
  const perArea = values("areas per area rps");
  const everything = values("areas drop everything rps");
  const ratio = median(perArea) / median(everything);
  return [
    {
      figure: figure(result.writeEveryMs),
      measured:
        `${formatNumber(ratio)} (rounds ${range(values("areas per area/drop everything"))}); ` +
        `per area ${describe(perArea, "req/s")}, p99 ${describe(values("areas per area p99 ms"), "ms")}; ` +
        `drop everything ${describe(everything, "req/s")}, p99 ${describe(values("areas drop everything p99 ms"), "ms")}; ` +
        `writes ${describe(values("areas per area writes/s"), "/s")} and ${describe(values("areas drop everything writes/s"), "/s")}`,
      goal: "none set (reported)",
      verdict: Number.isFinite(ratio) ? "reported" : "skipped",
    },
  ];
}
