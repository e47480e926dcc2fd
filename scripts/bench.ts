// `npm run bench`: the performance table of the issue "Fast for every visitor", every figure measured in one run
// against its yardstick (nginx with the same bytes, a bare React Router app on the same data, the same server on
// 200 times the pictures), interleaved round by round so that a busy moment of the machine hits both sides.
// It builds nothing: it needs `npm run build` and `npm run bench:build`. Not part of `npm test` (minutes long;
// scripts/bench.test.ts only checks that a --smoke run works). Options: see USAGE below. `--live` adds the live
// streams section (scripts/bench/live-streams.ts), `--live-only` runs that section alone; `--areas` adds the
// per-area dropping section (scripts/bench/area-dropping.ts), `--areas-only` runs that section alone;
// `--instances` adds one instance against two behind nginx on PostgreSQL and S3 (scripts/bench/instances.ts),
// `--instances-only` runs that section alone; `--search` adds site search against an uncached /blog render
// (scripts/bench/search.ts), `--search-only` runs that section alone.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { GALLERY_PAGE_SIZE } from "#app/domains/gallery/gallery.ts";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { multipartBody } from "#tests/support/multipart.ts";
import { request, type ServerProcess } from "#tests/support/server-process.ts";
import {
  type AreaResult,
  type AreaServers,
  type AreaSettings,
  areaRows,
  measureAreaDropping,
  startAreaServers,
} from "./bench/area-dropping.ts";
import {
  type InstanceResult,
  type InstanceSettings,
  type InstanceSetup,
  instanceRows,
  measureInstances,
  startInstanceSetup,
} from "./bench/instances.ts";
import {
  type LighthouseResults,
  lighthousePages,
  lighthouseRows,
  type PageRuns,
  publishBenchPost,
  runLighthouse,
} from "./bench/lighthouse.ts";
import {
  type LiveResult,
  type LiveServer,
  type LiveSettings,
  liveRows,
  measureLiveStreams,
  startLiveServer,
} from "./bench/live-streams.ts";
import { MEMBER_PAGES, memberRows, signInMember } from "./bench/member-pages.ts";
import { photoLikeJpeg } from "./bench/photo-like-jpeg.ts";
import {
  bareAppBuildIsCurrent,
  ensureTools,
  pinningNote,
  rssKb,
  sampleRss,
  startApp,
  startBareApp,
  startNginx,
  unpin,
} from "./bench/processes.ts";
import { measureSearch, type SearchResult, type SearchSettings, searchRows } from "./bench/search.ts";
import {
  copyPictureRows,
  FILTER_CATEGORY,
  imageIdOf,
  pictureIds,
  seedDataFolder,
  visiblePictures,
} from "./bench/seed-data.ts";
import { describe, formatNumber, median, type Row, range, spread, verdictOf } from "./bench/stats.ts";
import { runWrk, type WrkOptions, type WrkResult } from "./bench/wrk.ts";
import { buildIsCurrent } from "./build-if-stale.js";

const USAGE = `Usage: npm run bench -- [--rounds 3] [--seconds 10] [--pictures 10010] [--json FILE] [--lighthouse]
                        [--live | --live-only] [--streams 1000] [--saves 30]
                        [--areas | --areas-only] [--write-every 100]
                        [--instances | --instances-only] [--search | --search-only] [--media-serving]
                        [--smoke] [--keep]
  --rounds N     interleaved rounds per comparison (default 3)
  --seconds S    length of each wrk run (default 10)
  --pictures N   pictures of the large data folder (default 10010: its last page holds as many as the small one's)
  --json FILE    also write the raw results there
  --lighthouse   add Lighthouse's mobile run of every public page, a post and /auth: all four categories, LCP and
                 CLS, the median of 3 runs per page (about 10 minutes; needs the npm registry)
  --live         add the live streams section: memory per open event stream, an admin's save to its event on
                 every stream, cached req/s with the streams open ÷ without (about 3 minutes more)
  --live-only    only the live streams section (needs neither nginx nor the bare app's build)
  --streams N    event streams the live section holds open (default 1000)
  --saves N      admin saves it times to every stream (default 30, about 300 ms apart)
  --areas        add the per-area dropping section: cached / req/s while an admin adds a FAQ entry at a steady
                 rate, dropping kept pages per area ÷ dropping everything (about ROUNDS × 2 × SECONDS more)
  --areas-only   only the per-area dropping section (needs neither nginx nor the bare app's build)
  --write-every  milliseconds from one FAQ write to the next in that section (default 100)
  --instances    add the several-instances section: uncached / at 50 connections on PostgreSQL and S3 (s3rver),
                 one instance directly, one behind nginx, two behind nginx (about ROUNDS × 3 × SECONDS more, and
                 a minute to seed); PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL, else a cluster of its own
  --instances-only  only the several-instances section (needs nginx, not the bare app's build)
  --search       add the search section: 10,000 pictures + 2,000 posts in EN and DE seeded into a database,
                 the index rebuilt (timed), then search URLs at 50 connections ÷ uncached /blog, p50/p95, and
                 the index's size on disk (about ROUNDS × 2 × SECONDS more, and a minute to seed); then the
                 same on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server (a fresh database)
  --search-only  only the search section (needs neither nginx nor the bare app's build)
  --media-serving  only the media-serving comparison of decision 012 (scripts/bench/media-serving.ts): a phone's
                 page of pictures through the site ÷ by redirect to a signed S3 URL (bytes and CPU of Node, latency,
                 behind a caching proxy), on s3rver
  --smoke        a quick check that everything runs: 1 round, 1-second runs, 60 pictures, a small upload
                 (and with --live: 50 streams, 3 saves; with --search: 200 pictures, 40 posts)
  --keep         keep the temp folder (data folders, nginx config) for a look afterwards`;

const { values: options } = parseArgs({
  options: {
    rounds: { type: "string" },
    seconds: { type: "string" },
    pictures: { type: "string" },
    json: { type: "string" },
    lighthouse: { type: "boolean", default: false },
    live: { type: "boolean", default: false },
    "live-only": { type: "boolean", default: false },
    streams: { type: "string" },
    saves: { type: "string" },
    areas: { type: "boolean", default: false },
    "areas-only": { type: "boolean", default: false },
    instances: { type: "boolean", default: false },
    "instances-only": { type: "boolean", default: false },
    search: { type: "boolean", default: false },
    "search-only": { type: "boolean", default: false },
    "write-every": { type: "string" },
    "media-serving": { type: "boolean", default: false },
    smoke: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
if (options["media-serving"]) {
  // A comparison of its own (its servers, bucket and rounds): run as it is, then done.
  const args = ["--import", "tsx", fileURLToPath(new URL("./bench/media-serving.ts", import.meta.url))];
  if (options.rounds) args.push("--rounds", options.rounds);
  const child = spawnSync(process.execPath, args, { stdio: "inherit" });
  process.exit(child.status ?? 1);
}

function positiveInteger(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) stop(`--${name} must be a positive whole number.`);
  return value;
}

function stop(message: string): never {
  console.error(message);
  process.exit(1);
}

const smoke = options.smoke;
const ROUNDS = positiveInteger(options.rounds, smoke ? 1 : 3, "rounds");
const SECONDS = positiveInteger(options.seconds, smoke ? 1 : 10, "seconds");
const SMALL = 50;
// 10,010 rather than 10,000: its last page then holds 2 pictures, as the 50-picture gallery's does (24 a page),
// so "last page" compares the same rendering work and only the gallery's size differs.
const LARGE = positiveInteger(options.pictures, smoke ? 60 : 10_010, "pictures");
// The smoke run processes fewer pictures for real and copies their rows up to 50, to stay well under a minute.
const REAL_PICTURES = smoke ? 10 : SMALL;
const UPLOADS = smoke ? 1 : 3;
/** Lighthouse's runs per page: its simulated throttling varies from run to run, the median is reported. */
const LIGHTHOUSE_RUNS = 3;
/**
 * When the idle memory is read, from the moment the servers answer: after the collection of the start's garbage. The
 * server looks every 5 s and collects at the first quiet look (settle-memory.server.ts); the bench's first page reads
 * make the look at 5 s a busy one, so the collection comes at the look at 10 s. Read at 7 s (stop 28), the row showed
 * the start's garbage.
 */
const IDLE_AFTER_MS = 15_000;
const UPLOAD_SIZE = smoke ? { width: 1200, height: 800 } : { width: 4240, height: 2832 };
// The site section is everything but the live streams and areas: the table of the issue "Fast for every visitor".
const SITE = !options["live-only"] && !options["areas-only"] && !options["instances-only"] && !options["search-only"];
const AREAS: AreaSettings | null =
  options.areas || options["areas-only"]
    ? {
        rounds: ROUNDS,
        seconds: SECONDS,
        writeEveryMs: positiveInteger(options["write-every"], 100, "write-every"),
      }
    : null;
// The instances section seeds a full first page of the gallery (24) through the pipeline; the smoke run a few.
const INSTANCES: Omit<InstanceSettings, "authSecret"> | null =
  options.instances || options["instances-only"]
    ? { rounds: ROUNDS, seconds: SECONDS, pictures: smoke ? 4 : 24 }
    : null;
const SEARCH: SearchSettings | null =
  options.search || options["search-only"]
    ? { rounds: ROUNDS, seconds: SECONDS, pictures: smoke ? 200 : 10_000, posts: smoke ? 40 : 2_000 }
    : null;
const LIVE: LiveSettings | null =
  options.live || options["live-only"]
    ? {
        streams: positiveInteger(options.streams, smoke ? 50 : 1000, "streams"),
        saves: positiveInteger(options.saves, smoke ? 3 : 30, "saves"),
        saveSpacingMs: 300,
        rounds: ROUNDS,
        seconds: SECONDS,
        smoke,
      }
    : null;

// Nothing is built here: a stale build would make server.js build by itself, in the middle of the measurement.
if (!buildIsCurrent()) stop("The production build is missing or older than the sources: run `npm run build` first.");
if (SITE && !bareAppBuildIsCurrent()) {
  stop("The bare React Router app's build is missing or older than its sources: run `npm run bench:build` first.");
}

type Run = { label: string; round: number; url: string; connections: number; result: WrkResult };

const missingTools = ensureTools([
  { command: "wrk", aptPackage: "wrk" },
  ...(SITE || INSTANCES ? [{ command: "nginx", aptPackage: "nginx-light" }] : []),
]);
const hasWrk = !missingTools.includes("wrk");
const hasNginx = !missingTools.includes("nginx");

const runs: Run[] = [];
const series = new Map<string, number[]>();
const problems: string[] = [];
const servers: ServerProcess[] = [];
const instanceSetups: InstanceSetup[] = [];
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-bench-"));
const nginxDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-bench-nginx-"));

function record(name: string, value: number) {
  const list = series.get(name) ?? [];
  list.push(value);
  series.set(name, list);
}

const values = (name: string) => series.get(name) ?? [];

async function load(
  label: string,
  round: number,
  url: string,
  connections: number,
  extra: Partial<WrkOptions> = {},
): Promise<WrkResult> {
  // The last run's queue drained first: wrk closes its connections when its time is up, but the server still answers
  // what it had read, and a run started meanwhile (a 1-second smoke run above all) would time that backlog instead of
  // its own requests, or see none of its own answered. One answered request on a new connection waits it out.
  await request(url).catch(() => null);
  const result = await runWrk(url, { connections, seconds: SECONDS, ...extra });
  runs.push({ label, round, url, connections, result });
  // A run with errors measured something else than the page (an error page, refused connections).
  if (result.non2xx > 0 || result.socketErrors > 0) {
    problems.push(`${label}, round ${round}: ${result.non2xx} non-2xx responses, ${result.socketErrors} socket errors`);
  }
  return result;
}

async function cleanUp() {
  await Promise.all(servers.map((server) => server.stop().catch(() => null)));
  await Promise.all(instanceSetups.splice(0).map((setup) => setup.stop()));
  if (options.keep) {
    console.log(`Kept ${tempRoot} and ${nginxDir}`);
  } else {
    fs.rmSync(tempRoot, { recursive: true, force: true });
    fs.rmSync(nginxDir, { recursive: true, force: true });
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

/** GET as a browser-less visitor; fails on anything but 200. */
async function fetchPage(url: string): Promise<string> {
  const response = await request(url);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return response.body;
}

const pictureCount = (html: string) => (html.match(/<picture/g) ?? []).length;

/** One upload as the admin screen sends it; resolves with the status once the answer is complete. */
function upload(server: ServerProcess, cookie: string, photo: Buffer): Promise<number> {
  // Published at once, as the owner chooses in the uploader (new pictures are hidden otherwise).
  const { body, contentType } = multipartBody(
    [{ field: "file", filename: "photo-12mp.jpg", type: "image/jpeg", data: photo }],
    { publish: "now" },
  );
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      server.url("/admin/uploads/gallery"),
      {
        method: "POST",
        agent: false,
        headers: {
          "Content-Type": contentType,
          "Content-Length": String(body.length),
          // The CSRF check wants the site's own origin, as a browser sends it.
          Origin: server.origin,
          Cookie: cookie,
          Accept: "application/json",
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

async function main() {
  const startedAt = Date.now();
  const authSecret = `bench-${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("hex")}`;
  const only = [
    LIVE ? "live streams" : "",
    AREAS ? "per-area dropping" : "",
    INSTANCES ? "several instances" : "",
    SEARCH ? "search" : "",
  ]
    .filter(Boolean)
    .join(" and ");
  const section = SITE
    ? `${ROUNDS} round(s) of ${SECONDS}-second wrk runs; ${SMALL} and ${LARGE} pictures`
    : `${only} only, ${ROUNDS} round(s) of ${SECONDS}-second wrk runs${LIVE || AREAS ? `; ${SMALL} pictures` : ""}`;
  const liveNote =
    (LIVE ? `; live streams: ${LIVE.streams} streams, ${LIVE.saves} saves` : "") +
    (AREAS ? `; per-area dropping: a FAQ write every ${AREAS.writeEveryMs} ms` : "") +
    (INSTANCES ? `; several instances: ${INSTANCES.pictures} pictures on PostgreSQL and S3` : "") +
    (SEARCH ? `; search: ${SEARCH.pictures} pictures + ${SEARCH.posts} posts` : "");
  console.log(
    `Vitrine bench: ${section}${liveNote}; ` +
      `${os.cpus().length} cores, ${pinningNote()}${smoke ? "; SMOKE run (figures not meaningful)" : ""}`,
  );
  if (missingTools.length > 0) console.log(`Missing and not installable: ${missingTools.join(", ")}`);

  // The data: one folder seeded for real, a second grown from it by copying rows; each server gets a copy. The
  // several-instances section alone seeds its own database and bucket instead.
  const seedSmall = path.join(tempRoot, "seed-small");
  let adminCookie = "";
  if (SITE || LIVE || AREAS) {
    console.log(`Seeding ${REAL_PICTURES} pictures through the image pipeline…`);
    ({ adminCookie } = await seedDataFolder(seedSmall, { realPictures: REAL_PICTURES, authSecret }));
    if (REAL_PICTURES < SMALL) copyPictureRows(sqliteFileIn(seedSmall), SMALL);
  }
  const copyOf = (seed: string, name: string) => {
    const dir = path.join(tempRoot, name);
    fs.cpSync(seed, dir, { recursive: true });
    return dir;
  };
  // Each server is listed as soon as it runs, so that a failed start of another still stops it.
  const started = async (server: Promise<ServerProcess>) => {
    servers.push(await server);
    return server;
  };
  // The live streams' server, on a copy of the small data folder, with the section's settings.
  const liveDir = path.join(tempRoot, "live");
  const startLive = async (settings: LiveSettings) => {
    const live = await startLiveServer({ dataDir: copyOf(seedSmall, "live"), authSecret, streams: settings.streams });
    servers.push(live.server);
    return live;
  };
  const measureLive = (live: LiveServer, settings: LiveSettings) =>
    measureLiveStreams({
      live,
      settings,
      adminCookie,
      sqliteFile: sqliteFileIn(liveDir),
      hasWrk,
      record,
      load,
      problems,
    });

  // The per-area dropping section's two servers, each on a copy of the small data folder.
  const startAreas = async () => {
    const pair = startAreaServers({ dataDir: (name) => copyOf(seedSmall, name), authSecret });
    const areaServers = await pair;
    servers.push(areaServers.perArea, areaServers.dropEverything);
    return areaServers;
  };
  const measureAreas = (areaServers: AreaServers, settings: AreaSettings) =>
    measureAreaDropping({ servers: areaServers, settings, adminCookie, hasWrk, record, load, problems });

  // The several-instances section: its own processes, database and bucket, stopped once it is measured.
  let instancesWhy = "run with --instances";
  const runInstances = async (): Promise<InstanceResult | null> => {
    if (!INSTANCES) return null;
    if (!hasNginx) {
      instancesWhy = "nginx missing";
      return null;
    }
    console.log("Instances: starting two instances on PostgreSQL and S3, seeding their gallery…");
    const setup = await startInstanceSetup({ ...INSTANCES, authSecret });
    if (!setup) {
      instancesWhy = "no PostgreSQL: set TEST_DATABASE_URL, or install its server binaries";
      return null;
    }
    instanceSetups.push(setup);
    try {
      return await measureInstances({ setup, settings: { ...INSTANCES, authSecret }, hasWrk, record, load, problems });
    } finally {
      instanceSetups.splice(instanceSetups.indexOf(setup), 1);
      await setup.stop();
    }
  };

  // The search section: its own data folder and server, stopped once it is measured.
  const runSearch = (): Promise<SearchResult | null> =>
    SEARCH
      ? measureSearch({
          settings: SEARCH,
          authSecret,
          dir: tempRoot,
          hasWrk,
          smoke,
          record,
          load,
          runWrk,
          problems,
          started,
        })
      : Promise.resolve(null);

  if (!SITE) {
    console.log("Starting the server(s)…");
    const liveResult = LIVE ? await measureLive(await startLive(LIVE), LIVE) : null;
    const areaResult = AREAS ? await measureAreas(await startAreas(), AREAS) : null;
    const instanceResult = await runInstances();
    const searchResult = await runSearch();
    await cleanUp();
    const rows = [
      ...(LIVE ? liveRows(liveResult, values, hasWrk) : []),
      ...(AREAS ? areaRows(areaResult, values, hasWrk) : []),
      ...(INSTANCES ? instanceRows(instanceResult, values, hasWrk, instancesWhy) : []),
      ...(SEARCH ? searchRows(searchResult, values, hasWrk) : []),
    ];
    report(rows, startedAt, [], {
      live: liveResult,
      areas: areaResult,
      instances: instanceResult,
      search: searchResult,
    });
    return;
  }

  const seedLarge = path.join(tempRoot, "seed-large");
  fs.cpSync(seedSmall, seedLarge, { recursive: true });
  copyPictureRows(sqliteFileIn(seedLarge), LARGE);

  console.log("Starting the servers…");
  const [cached, uncached, uncachedLarge, live, areaServers] = await Promise.all([
    started(startApp({ dataDir: copyOf(seedSmall, "cached"), authSecret, pageCache: true })),
    started(startApp({ dataDir: copyOf(seedSmall, "uncached"), authSecret, pageCache: false })),
    started(startApp({ dataDir: copyOf(seedLarge, "uncached-large"), authSecret, pageCache: false })),
    LIVE ? startLive(LIVE) : null,
    AREAS ? startAreas() : null,
  ]);
  const serversStartedAt = performance.now();
  // The bare app reads the very file the uncached server it is compared with reads.
  const bare = await started(startBareApp(sqliteFileIn(path.join(tempRoot, "uncached"))));

  const home = { "/": await fetchPage(cached.url("/")), "/home": await fetchPage(cached.url("/home")) };
  let nginx: ServerProcess | undefined;
  if (hasNginx) {
    nginx = await started(startNginx(nginxDir, home));
    if ((await fetchPage(nginx.url("/"))) !== home["/"]) throw new Error("nginx does not serve the app's bytes");
  }
  const pictures = {
    app: pictureCount(await fetchPage(uncached.url("/"))),
    bare: pictureCount(await fetchPage(bare.url("/"))),
  };
  if (pictures.app !== pictures.bare) {
    problems.push(`The app's / has ${pictures.app} <picture> elements, the bare app's ${pictures.bare}`);
  }
  // A member of the uncached server (its pages are never kept: the page cache's switch changes nothing for them,
  // and the page-cached server's memory figures stay the visitors'), signed in as the site's own pages see it.
  const memberCookie = await signInMember(sqliteFileIn(path.join(tempRoot, "uncached")), authSecret);
  for (const page of MEMBER_PAGES) {
    const answer = await request(uncached.url(page), { headers: { Cookie: memberCookie } });
    if (answer.status !== 200 || !answer.body.includes('href="/account"')) {
      problems.push(
        `A signed-in member's ${page} answered ${answer.status}${answer.status === 200 ? " without the account link" : ""}`,
      );
    }
  }

  // Idle: the page-cached server (the default) once its start's garbage is collected (at its first quiet look,
  // settle-memory.server.ts), having answered only the pages read above.
  await new Promise((resolve) =>
    setTimeout(resolve, Math.max(0, IDLE_AFTER_MS - (performance.now() - serversStartedAt))),
  );
  record("rss idle", rssKb(cached.child.pid as number) / 1024);

  const lastPage = (total: number) => Math.max(1, Math.ceil(total / GALLERY_PAGE_SIZE));
  const scalingPaths = [
    { name: "/", small: "/", large: "/" },
    {
      name: "last page",
      small: `/?page=${lastPage(visiblePictures(sqliteFileIn(seedSmall)))}`,
      large: `/?page=${lastPage(visiblePictures(sqliteFileIn(seedLarge)))}`,
    },
    {
      name: "category filter",
      small: `/?category=${FILTER_CATEGORY}`,
      large: `/?category=${FILTER_CATEGORY}`,
    },
    { name: "/home", small: "/home", large: "/home" },
  ];

  if (hasWrk) {
    if (!smoke) {
      console.log("Warming up…");
      const targets = [
        cached.url("/"),
        cached.url("/home"),
        uncached.url("/"),
        bare.url("/"),
        ...scalingPaths.flatMap((entry) => [uncached.url(entry.small), uncachedLarge.url(entry.large)]),
        ...(nginx ? [nginx.url("/"), nginx.url("/home")] : []),
      ];
      for (const url of targets) await runWrk(url, { connections: 10, seconds: 2 });
    }

    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`Round ${round} of ${ROUNDS}…`);
      for (const page of ["/", "/home"] as const) {
        if (!nginx) break;
        const app = await load(`app (cache on) ${page}, 10 connections`, round, cached.url(page), 10);
        const plain = await load(`nginx ${page}, 10 connections`, round, nginx.url(page), 10);
        record(`app ${page} c10`, app.requestsPerSecond);
        record(`nginx ${page} c10`, plain.requestsPerSecond);
        record(`app/nginx ${page}`, app.requestsPerSecond / plain.requestsPerSecond);
      }
      for (const page of ["/", "/home"] as const) {
        const rss = sampleRss(cached.child.pid as number);
        const result = await load(`app (cache on) ${page}, 50 connections`, round, cached.url(page), 50);
        record(`p99 ${page} c50`, result.p99Ms);
        record(`p50 ${page} c50`, result.p50Ms);
        record("rss c50", rss.stop());
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
      for (const entry of scalingPaths) {
        const small = await load(
          `app (cache off, ${SMALL}) ${entry.small}, 1 connection`,
          round,
          uncached.url(entry.small),
          1,
        );
        const large = await load(
          `app (cache off, ${LARGE}) ${entry.large}, 1 connection`,
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
  }

  // On a server of its own, before the uploads: no image processing runs meanwhile.
  let liveResult: LiveResult | null = null;
  if (live && LIVE) liveResult = await measureLive(live, LIVE);
  let areaResult: AreaResult | null = null;
  if (areaServers && AREAS) areaResult = await measureAreas(areaServers, AREAS);
  const instanceResult = await runInstances();
  const searchResult = await runSearch();

  // Last, as it changes the gallery: uploads to the cached server, each timed to its answer and to the moment
  // a visitor sees the picture (the gallery page a shared link to it opens, which lists it once it is ready).
  const unpinned = unpin(cached.child.pid as number);
  console.log(
    `Uploading ${UPLOADS} photo(s) of ${UPLOAD_SIZE.width}×${UPLOAD_SIZE.height}${unpinned ? " (server on every core now)" : ""}…`,
  );
  const photo = await photoLikeJpeg(UPLOAD_SIZE.width, UPLOAD_SIZE.height);
  const cachedSqlite = sqliteFileIn(path.join(tempRoot, "cached"));
  for (let attempt = 1; attempt <= UPLOADS; attempt++) {
    const before = pictureIds(cachedSqlite);
    const start = performance.now();
    const status = await upload(cached, adminCookie, photo);
    const answered = performance.now() - start;
    if (status !== 200) {
      problems.push(`Upload ${attempt} answered ${status}`);
      break;
    }
    const pictureId = [...pictureIds(cachedSqlite)].find((id) => !before.has(id));
    if (!pictureId) {
      problems.push(`Upload ${attempt}: no new picture in the database`);
      break;
    }
    const marker = `/media/images/${imageIdOf(cachedSqlite, pictureId)}/`;
    let visible = Number.NaN;
    while (performance.now() - start < 60_000) {
      if ((await fetchPage(cached.url(`/?image=${pictureId}`))).includes(marker)) {
        visible = performance.now() - start;
        break;
      }
      // Every 50 ms: each look is a page render in the process that is making the sizes.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (Number.isNaN(visible)) problems.push(`Upload ${attempt}: the picture was not visible after 60 s`);
    record("upload answered", answered / 1000);
    if (!Number.isNaN(visible)) record("upload visible", visible / 1000);
  }
  console.log(`Photo: ${(photo.length / 1024 / 1024).toFixed(1)} MB JPEG`);

  // Each page LIGHTHOUSE_RUNS times, a page's runs one after the other, on the cached server as visitors meet it.
  const lighthouseResults: LighthouseResults = new Map();
  if (options.lighthouse) {
    const postPath = await publishBenchPost(cachedSqlite);
    for (const page of lighthousePages(postPath)) {
      const pageRuns: PageRuns = [];
      for (let run = 1; run <= LIGHTHOUSE_RUNS; run++) {
        console.log(`Lighthouse ${page} (${run} of ${LIGHTHOUSE_RUNS})…`);
        const result = runLighthouse(cached.url(page));
        pageRuns.push(result);
        if (typeof result === "string") break;
        record(`lighthouse ${page} score`, result.scores.performance);
        record(`lighthouse ${page} lcp`, result.lcpMs / 1000);
      }
      lighthouseResults.set(page, pageRuns);
    }
  }

  await cleanUp();

  // The table: each figure's median (with the spread over the rounds), its goal and whether it meets it.
  const skipped = (figure: string, goal: string, why: string): Row => ({
    figure,
    measured: "n/a",
    goal,
    verdict: `skipped (${why})`,
  });
  const rows: Row[] = [];
  for (const page of ["/", "/home"]) {
    const figure = `Anonymous \`${page}\`, req/s of the app (page cache on) ÷ nginx serving the same HTML bytes (10 connections)`;
    if (!hasWrk || !hasNginx) {
      rows.push(skipped(figure, "≥ 0.5", hasWrk ? "nginx missing" : "wrk missing"));
      continue;
    }
    const ratio = median(values(`app ${page} c10`)) / median(values(`nginx ${page} c10`));
    rows.push({
      figure,
      measured: `${formatNumber(ratio)} (rounds ${range(values(`app/nginx ${page}`))}); app ${describe(values(`app ${page} c10`), "req/s")}, nginx ${describe(values(`nginx ${page} c10`), "req/s")}`,
      goal: "≥ 0.5",
      verdict: verdictOf(ratio, (value) => value >= 0.5),
    });
  }
  for (const page of ["/", "/home"]) {
    const figure = `Latency at 50 connections, \`${page}\`, p99 (cache on)`;
    if (!hasWrk) {
      rows.push(skipped(figure, "≤ 10 ms", "wrk missing"));
      continue;
    }
    const p99 = median(values(`p99 ${page} c50`));
    rows.push({
      figure,
      measured: `${describe(values(`p99 ${page} c50`), "ms")}; p50 ${describe(values(`p50 ${page} c50`), "ms")}`,
      goal: "≤ 10 ms",
      verdict: verdictOf(p99, (value) => value <= 10),
    });
  }
  {
    const figure =
      "Uncached render of `/` (PAGE_CACHE=off), req/s ÷ a bare React Router 8 app rendering the same 24 pictures";
    if (!hasWrk) {
      rows.push(skipped(figure, "≥ 1.0", "wrk missing"));
    } else {
      const ratio = median(values("uncached / c10")) / median(values("bare / c10"));
      rows.push({
        figure,
        measured: `${formatNumber(ratio)} (rounds ${range(values("uncached/bare"))}); app ${describe(values("uncached / c10"), "req/s")}, bare ${describe(values("bare / c10"), "req/s")}`,
        goal: "≥ 1.0",
        verdict: verdictOf(ratio, (value) => value >= 1),
      });
    }
  }
  rows.push(...memberRows(values, hasWrk));
  for (const entry of scalingPaths) {
    const figure = `${SMALL} → ${LARGE} pictures, server time (uncached, median of 1-connection runs): ${entry.name} (\`${entry.large}\`)`;
    if (!hasWrk) {
      rows.push(skipped(figure, "≤ ×1.2", "wrk missing"));
      continue;
    }
    const small = values(`time ${entry.name} small`);
    const large = values(`time ${entry.name} large`);
    const ratio = median(large) / median(small);
    rows.push({
      figure,
      measured: `×${formatNumber(ratio)} (rounds ${range(values(`scaling ${entry.name}`))}); ${describe(small, "ms")} → ${describe(large, "ms")}`,
      goal: "≤ ×1.2",
      verdict: verdictOf(ratio, (value) => value <= 1.2),
    });
  }
  {
    const idle = median(values("rss idle"));
    rows.push({
      figure: `Process memory (RSS) idle, ${IDLE_AFTER_MS / 1000} s after the server answers (page cache on)`,
      measured: `${formatNumber(idle)} MB`,
      goal: "≤ 100 MB",
      verdict: verdictOf(idle, (value) => value <= 100),
    });
  }
  {
    const figure = "Process memory (RSS, max) under the 50-connection load";
    if (!hasWrk) {
      rows.push(skipped(figure, "≤ 200 MB", "wrk missing"));
    } else {
      const max = Math.max(...values("rss c50"));
      rows.push({
        figure,
        measured: `${formatNumber(max)} MB (per run ${range(values("rss c50"), "MB")})`,
        goal: "≤ 200 MB",
        verdict: verdictOf(max, (value) => value <= 200),
      });
    }
  }
  {
    const answered = median(values("upload answered"));
    const visible = median(values("upload visible"));
    const size = `${((UPLOAD_SIZE.width * UPLOAD_SIZE.height) / 1e6).toFixed(0)}-megapixel`;
    rows.push({
      figure: `One ${size} JPEG through the pipeline: upload answered`,
      measured: describe(values("upload answered"), "s"),
      goal: "≤ 1.5 s",
      verdict: verdictOf(answered, (value) => value <= 1.5),
    });
    rows.push({
      figure: `One ${size} JPEG through the pipeline: every derivative ready (picture visible in the gallery)`,
      measured: describe(values("upload visible"), "s"),
      goal: "≤ 3 s",
      verdict: verdictOf(visible, (value) => value <= 3),
    });
  }
  {
    const figure = "Compression done once: req/s of `/` (cache on) with `Accept-Encoding: gzip, br` ÷ without";
    if (!hasWrk) {
      rows.push(skipped(figure, "≈ 1 (≥ 0.9)", "wrk missing"));
    } else {
      const ratio = median(values("compressed rps")) / median(values("plain rps"));
      rows.push({
        figure,
        measured: `${formatNumber(ratio)} (rounds ${range(values("compressed/plain"))}); ${describe(values("compressed rps"), "req/s")} vs ${describe(values("plain rps"), "req/s")}`,
        goal: "≈ 1 (≥ 0.9)",
        verdict: verdictOf(ratio, (value) => value >= 0.9),
      });
    }
  }
  if (options.lighthouse) rows.push(...lighthouseRows(lighthouseResults));
  else
    rows.push(
      skipped(
        "Lighthouse mobile, every public page, a post and /auth",
        "performance 100; LCP ≤ 1.0 s; CLS 0; accessibility, best practices, SEO 100",
        "run with --lighthouse",
      ),
    );
  rows.push(...liveRows(liveResult, values, hasWrk));
  rows.push(...areaRows(areaResult, values, hasWrk));
  rows.push(...instanceRows(instanceResult, values, hasWrk, instancesWhy));
  rows.push(...searchRows(searchResult, values, hasWrk));

  report(
    rows,
    startedAt,
    [
      `<picture> elements on /: app ${pictures.app}, bare app ${pictures.bare}`,
      `HTML bytes: / ${Buffer.byteLength(home["/"])}, /home ${Buffer.byteLength(home["/home"])}`,
    ],
    { pictures, live: liveResult, areas: areaResult, instances: instanceResult, search: searchResult },
  );
}

/** The table, the raw numbers and the problems; with --json, the file. `notes` go after the raw numbers. */
function report(rows: Row[], startedAt: number, notes: string[], extra: Record<string, unknown>) {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  console.log("\n| Figure | Measured (median, spread min–max) | Goal | Verdict |\n|---|---|---|---|");
  for (const row of rows) console.log(`| ${cell(row.figure)} | ${cell(row.measured)} | ${row.goal} | ${row.verdict} |`);

  console.log("\nRaw numbers (one per round):");
  for (const [name, list] of series) console.log(`  ${name}: ${list.map(formatNumber).join(", ")}`);
  for (const note of notes) console.log(`  ${note}`);
  if (problems.length > 0) {
    console.log("\nProblems (the figures they touch are suspect):");
    for (const problem of problems) console.log(`  ${problem}`);
  }
  console.log(`\nDone in ${((Date.now() - startedAt) / 1000).toFixed(0)} s.`);

  if (options.json) {
    const summary = Object.fromEntries(
      [...series].map(([name, list]) => [name, { median: median(list), ...spread(list), values: list }]),
    );
    fs.writeFileSync(
      options.json,
      `${JSON.stringify(
        {
          config: {
            rounds: ROUNDS,
            seconds: SECONDS,
            small: SMALL,
            large: SITE ? LARGE : null,
            smoke,
            sections: [
              ...(SITE ? ["site"] : []),
              ...(LIVE ? ["live"] : []),
              ...(AREAS ? ["areas"] : []),
              ...(INSTANCES ? ["instances"] : []),
              ...(SEARCH ? ["search"] : []),
            ],
            live: LIVE,
            areas: AREAS,
            instances: INSTANCES,
            search: SEARCH,
            pinning: pinningNote(),
            cores: os.cpus().length,
          },
          rows,
          summary,
          runs,
          ...extra,
          problems,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`Raw results written to ${options.json}`);
  }
}

try {
  await main();
} catch (error) {
  await cleanUp();
  for (const server of servers) if (server.stderr) console.error(server.stderr.slice(-2000));
  console.error(error);
  process.exit(1);
}
