import { GALLERY_PAGE_SIZE } from "#app/domains/gallery/gallery.ts";
import type { ServerProcess } from "#tests/support/server-process.ts";
import { littleMeanMs } from "./latency-tail.ts";
import { MEMBER_PAGES } from "./member-pages.ts";
import { sampleRss } from "./processes.ts";
import { FILTER_CATEGORY, visiblePictures } from "./seed-data.ts";
import { type LoadRun, runWrk } from "./wrk.ts";

/*
 * The rounds of the bench's site section (scripts/bench.ts), each figure beside its yardstick in the same round:
 * the page-cached server against nginx serving its bytes, its latency and memory at 50 connections, the uncached
 * server against the bare React Router app (as a visitor and as a signed-in member), the small gallery against the
 * large one, and compressed answers against plain ones. Recorded under the names site-rows.ts reads.
 */

/** The connections of the latency and memory figures (the "at 50 connections"). */
const LOADED = 50;

export type SiteServers = {
  cached: ServerProcess;
  uncached: ServerProcess;
  /** The same build on the large gallery; the `--before` side has none (its scaling is not compared). */
  uncachedLarge?: ServerProcess;
  bare: ServerProcess;
  /** Absent when nginx could not be installed: its comparison is skipped. */
  nginx: ServerProcess | undefined;
  /** `node:http` alone with the same bytes (node-floor.mjs); this build's side only, as a yardstick of the machine. */
  nodeFloor?: ServerProcess;
};

/**
 * One build's servers and what its rounds need: this build's, and with `--before` another revision's, whose
 * figures are recorded under the same names with `prefix` ("before ") in front.
 */
export type SiteSide = {
  prefix: string;
  servers: SiteServers;
  scalingPaths: { name: string; small: string; large: string }[];
  memberCookie: string;
};

export type SiteRoundsContext = {
  /** This build's side first; each round alternates which side goes first. */
  sides: SiteSide[];
  rounds: number;
  smoke: boolean;
  small: number;
  large: number;
  record: (name: string, value: number) => void;
  load: LoadRun;
};

/**
 * The pages timed on the small and the large gallery (their server time must not grow with the gallery): `/`, the
 * last page (as many pictures on both), a category filter and `/home`.
 */
export function scalingPathsOf(smallSqlite: string, largeSqlite: string): SiteSide["scalingPaths"] {
  const lastPage = (total: number) => Math.max(1, Math.ceil(total / GALLERY_PAGE_SIZE));
  return [
    { name: "/", small: "/", large: "/" },
    {
      name: "last page",
      small: `/?page=${lastPage(visiblePictures(smallSqlite))}`,
      large: `/?page=${lastPage(visiblePictures(largeSqlite))}`,
    },
    { name: "category filter", small: `/?category=${FILTER_CATEGORY}`, large: `/?category=${FILTER_CATEGORY}` },
    { name: "/home", small: "/home", large: "/home" },
  ];
}

export async function measureSiteRounds(context: SiteRoundsContext): Promise<void> {
  if (!context.smoke) {
    console.log("Warming up…");
    for (const side of context.sides) {
      const { cached, uncached, uncachedLarge, bare, nginx, nodeFloor } = side.servers;
      const targets = [
        cached.url("/"),
        cached.url("/home"),
        uncached.url("/"),
        bare.url("/"),
        ...side.scalingPaths.flatMap((entry) => [
          uncached.url(entry.small),
          ...(uncachedLarge ? [uncachedLarge.url(entry.large)] : []),
        ]),
        ...(nginx ? [nginx.url("/"), nginx.url("/home")] : []),
        ...(nodeFloor ? [nodeFloor.url("/"), nodeFloor.url("/home")] : []),
      ];
      for (const url of targets) await runWrk(url, { connections: 10, seconds: 2 });
    }
  }
  for (let round = 1; round <= context.rounds; round++) {
    console.log(`Round ${round} of ${context.rounds}…`);
    // Which build goes first alternates, so that a slow stretch of the machine does not always fall on the same one.
    const sides = round % 2 === 1 ? context.sides : context.sides.toReversed();
    for (const side of sides) {
      await measureSide(side, round, {
        ...context,
        record: (name, value) => context.record(`${side.prefix}${name}`, value),
        load: (label, r, url, connections, extra) => context.load(`${side.prefix}${label}`, r, url, connections, extra),
      });
    }
  }
}

/** One round of one build's figures. */
async function measureSide(side: SiteSide, round: number, context: SiteRoundsContext): Promise<void> {
  const { cached, uncached, uncachedLarge, bare, nginx, nodeFloor } = side.servers;
  const { memberCookie } = side;
  const { record, load } = context;
  for (const page of ["/", "/home"] as const) {
    if (!nginx) break;
    const app = await load(`app (cache on) ${page}, 10 connections`, round, cached.url(page), 10);
    const plain = await load(`nginx ${page}, 10 connections`, round, nginx.url(page), 10);
    record(`app ${page} c10`, app.requestsPerSecond);
    record(`nginx ${page} c10`, plain.requestsPerSecond);
    record(`app/nginx ${page}`, app.requestsPerSecond / plain.requestsPerSecond);
    if (!nodeFloor) continue;
    const floor = await load(`node:http alone ${page}, 10 connections`, round, nodeFloor.url(page), 10);
    record(`node ${page} c10`, floor.requestsPerSecond);
    record(`node/nginx ${page}`, floor.requestsPerSecond / plain.requestsPerSecond);
    record(`app/node ${page}`, app.requestsPerSecond / floor.requestsPerSecond);
  }
  for (const page of ["/", "/home"] as const) {
    const rss = sampleRss(cached.child.pid as number);
    const result = await load(`app (cache on) ${page}, ${LOADED} connections`, round, cached.url(page), LOADED);
    record(`p99 ${page} c50`, result.p99Ms);
    record(`p50 ${page} c50`, result.p50Ms);
    record("rss c50", rss.stop());
    if (!nodeFloor || !nginx) continue;
    const floor = await load(`node:http alone ${page}, ${LOADED} connections`, round, nodeFloor.url(page), LOADED);
    const plain = await load(`nginx ${page}, ${LOADED} connections`, round, nginx.url(page), LOADED);
    record(`node p99 ${page} c50`, floor.p99Ms);
    record(`node mean ${page} c50`, littleMeanMs(LOADED, floor.requestsPerSecond));
    record(`nginx p99 ${page} c50`, plain.p99Ms);
  }
  const app = await load("app (cache off) /, 10 connections", round, uncached.url("/"), 10);
  const bareRun = await load("bare React Router app /, 10 connections", round, bare.url("/"), 10);
  record("uncached / c10", app.requestsPerSecond);
  record("bare / c10", bareRun.requestsPerSecond);
  record("uncached/bare", app.requestsPerSecond / bareRun.requestsPerSecond);
  for (const page of MEMBER_PAGES) {
    const member = await load(`signed-in member ${page}, 10 connections`, round, uncached.url(page), 10, {
      headers: { Cookie: memberCookie },
    });
    record(`member ${page} c10`, member.requestsPerSecond);
    record(`member/bare ${page}`, member.requestsPerSecond / bareRun.requestsPerSecond);
  }
  for (const entry of side.scalingPaths) {
    if (!uncachedLarge) break;
    const small = await load(
      `app (cache off, ${context.small}) ${entry.small}, 1 connection`,
      round,
      uncached.url(entry.small),
      1,
    );
    const large = await load(
      `app (cache off, ${context.large}) ${entry.large}, 1 connection`,
      round,
      uncachedLarge.url(entry.large),
      1,
    );
    record(`time ${entry.name} small`, small.p50Ms);
    record(`time ${entry.name} large`, large.p50Ms);
    record(`scaling ${entry.name}`, large.p50Ms / small.p50Ms);
  }
  const identity = await load("app (cache on) /, no Accept-Encoding", round, cached.url("/"), 10);
  const compressed = await load("app (cache on) /, Accept-Encoding: gzip, br", round, cached.url("/"), 10, {
    headers: { "Accept-Encoding": "gzip, br" },
  });
  record("plain rps", identity.requestsPerSecond);
  record("compressed rps", compressed.requestsPerSecond);
  record("compressed/plain", compressed.requestsPerSecond / identity.requestsPerSecond);
}
