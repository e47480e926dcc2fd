// `npm run bench`: the performance table of the issue "Fast for every visitor", every figure measured in one run
// against its yardstick (nginx with the same bytes, a bare React Router app on the same data, the same server on
// 200 times the pictures), interleaved round by round so that a busy moment of the machine hits both sides.
// It builds nothing: it needs `npm run build` and `npm run bench:build`. Not part of `npm test` (minutes long;
// scripts/bench.test.ts only checks that a --smoke run works). Options: USAGE in scripts/bench/options.ts. Each
// section is a module of scripts/bench/ (the site's rounds and rows, live streams, per-area dropping, several
// instances, search, uploads, Lighthouse); this file starts the servers they share, runs them and reports.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import type { ServerProcess } from "#tests/support/server-process.ts";
import {
  type AreaResult,
  type AreaServers,
  type AreaSettings,
  areaRows,
  measureAreaDropping,
  startAreaServers,
} from "./bench/area-dropping.ts";
import { type BeforeSide, beforeSiteSide, compareWithBefore, startBeforeSide } from "./bench/before-build.ts";
import { type InstanceResult, type InstanceSetup, instanceRows, runInstanceSection } from "./bench/instances.ts";
import { measureLighthousePages, publishBenchPost } from "./bench/lighthouse.ts";
import {
  type LiveResult,
  type LiveServer,
  type LiveSettings,
  liveRows,
  measureLiveStreams,
  startLiveServer,
} from "./bench/live-streams.ts";
import { checkMemberPages, signInMember } from "./bench/member-pages.ts";
import {
  AREAS,
  BEFORE,
  IDLE_AFTER_MS,
  INSTANCES,
  LARGE,
  LIGHTHOUSE_RUNS,
  LIVE,
  NEEDS_BUILD,
  options,
  REAL_PICTURES,
  ROUNDS,
  runBanner,
  runSettings,
  SEARCH,
  SECONDS,
  SITE,
  SMALL,
  STATS,
  smoke,
  stop,
  UPLOAD_SIZE,
  UPLOADS,
  USAGE,
} from "./bench/options.ts";
import {
  bareAppBuildIsCurrent,
  ensureTools,
  listingIn,
  rssKb,
  startApp,
  startBareApp,
  startFloors,
} from "./bench/processes.ts";
import { type ReportInput, report } from "./bench/report.ts";

type Comparison = ReportInput["comparison"];

import { measureSearch, type SearchResult, searchRows } from "./bench/search.ts";
import { copyPictureRows, seedDataFolder } from "./bench/seed-data.ts";
import { measureSiteRounds, type SiteSide, scalingPathsOf } from "./bench/site-rounds.ts";
import { siteRows } from "./bench/site-rows.ts";
import { measureStatistics, type StatisticsResult, statisticsRows } from "./bench/statistics.ts";
import type { Row } from "./bench/stats.ts";
import { fetchPage, measureUploads } from "./bench/uploads.ts";
import { runWrk, type WrkRun, wrkLoader } from "./bench/wrk.ts";
import { buildIsCurrent } from "./build-if-stale.js";

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

// Nothing is built here: a stale build would make server.js build by itself, in the middle of the measurement.
if (NEEDS_BUILD && !buildIsCurrent())
  stop("The production build is missing or older than the sources: run `npm run build` first.");
if (SITE && !bareAppBuildIsCurrent()) {
  stop("The bare React Router app's build is missing or older than its sources: run `npm run bench:build` first.");
}

const missingTools = ensureTools([
  ...(NEEDS_BUILD ? [{ command: "wrk", aptPackage: "wrk" }] : []),
  ...(SITE || INSTANCES ? [{ command: "nginx", aptPackage: "nginx-light" }] : []),
]);
const hasWrk = !missingTools.includes("wrk");
const hasNginx = !missingTools.includes("nginx");

const runs: WrkRun[] = [];
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
const beforeRecord = (name: string, value: number) => record(`before ${name}`, value);

const load = wrkLoader(runs, problems, SECONDS);

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

const pictureCount = (html: string) => (html.match(/<picture/g) ?? []).length;

/** The table and the raw numbers (report.ts); with --json, the file, with this run's settings. */
function finish(rows: Row[], startedAt: number, notes: string[], extra: object, comparison?: Comparison) {
  const json = options.json ? { file: options.json, config: runSettings(), runs, extra: { ...extra } } : undefined;
  report({ rows, startedAt, notes, series, problems, json, comparison });
}

async function main() {
  const startedAt = Date.now();
  const authSecret = `bench-${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("hex")}`;
  console.log(runBanner());
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
  const started = listingIn(servers);
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
    const settings = { ...INSTANCES, authSecret };
    const section = await runInstanceSection({
      settings,
      hasNginx,
      hasWrk,
      record,
      load,
      problems,
      setups: instanceSetups,
    });
    instancesWhy = section.why;
    return section.result;
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
  // The statistics section: in this process, on databases of its own (no server).
  const runStatistics = (): Promise<StatisticsResult | null> =>
    STATS ? measureStatistics(STATS, tempRoot, record) : Promise.resolve(null);

  if (!SITE) {
    if (NEEDS_BUILD) console.log("Starting the server(s)…");
    const liveResult = LIVE ? await measureLive(await startLive(LIVE), LIVE) : null;
    const areaResult = AREAS ? await measureAreas(await startAreas(), AREAS) : null;
    const instanceResult = await runInstances();
    const searchResult = await runSearch();
    const statsResult = await runStatistics();
    await cleanUp();
    const rows = [
      ...(LIVE ? liveRows(liveResult, values, hasWrk) : []),
      ...(AREAS ? areaRows(areaResult, values, hasWrk) : []),
      ...(INSTANCES ? instanceRows(instanceResult, values, hasWrk, instancesWhy) : []),
      ...(SEARCH ? searchRows(searchResult, values, hasWrk) : []),
      ...(STATS ? statisticsRows(statsResult) : []),
    ];
    finish(rows, startedAt, [], {
      live: liveResult,
      areas: areaResult,
      instances: instanceResult,
      search: searchResult,
      statistics: statsResult,
    });
    return;
  }

  const seedLarge = path.join(tempRoot, "seed-large");
  fs.cpSync(seedSmall, seedLarge, { recursive: true });
  copyPictureRows(sqliteFileIn(seedLarge), LARGE);

  // --before: the other build's servers start just before this build's, so that both idle as long before it is read.
  const before: BeforeSide | null = BEFORE
    ? await startBeforeSide({
        dir: BEFORE,
        tempRoot,
        authSecret,
        realPictures: REAL_PICTURES,
        small: SMALL,
        hasNginx,
        nginxDir,
        started,
      })
    : null;
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
  const { nginx, nodeFloor } = hasNginx ? await startFloors({ nginxDir, tempRoot, pages: home, started }) : {};
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
  problems.push(...(await checkMemberPages(uncached, memberCookie)));
  if (before) problems.push(...(await checkMemberPages(before.uncached, before.memberCookie)));

  // Idle: the page-cached server (the default) once its start's garbage is collected (at its first quiet look,
  // settle-memory.server.ts), having answered only the pages read above.
  await new Promise((resolve) =>
    setTimeout(resolve, Math.max(0, IDLE_AFTER_MS - (performance.now() - serversStartedAt))),
  );
  record("rss idle", rssKb(cached.child.pid as number) / 1024);
  if (before) record("before rss idle", rssKb(before.cached.child.pid as number) / 1024);

  const scalingPaths = scalingPathsOf(sqliteFileIn(seedSmall), sqliteFileIn(seedLarge));

  if (hasWrk) {
    const sides: SiteSide[] = [
      { prefix: "", servers: { cached, uncached, uncachedLarge, bare, nginx, nodeFloor }, scalingPaths, memberCookie },
    ];
    if (before) sides.push(beforeSiteSide(before, bare));
    await measureSiteRounds({ sides, rounds: ROUNDS, smoke, small: SMALL, large: LARGE, record, load });
  }

  // On a server of its own, before the uploads: no image processing runs meanwhile.
  let liveResult: LiveResult | null = null;
  if (live && LIVE) liveResult = await measureLive(live, LIVE);
  let areaResult: AreaResult | null = null;
  if (areaServers && AREAS) areaResult = await measureAreas(areaServers, AREAS);
  const instanceResult = await runInstances();
  const searchResult = await runSearch();

  const cachedSqlite = sqliteFileIn(path.join(tempRoot, "cached"));
  await measureUploads({
    server: cached,
    adminCookie,
    sqliteFile: cachedSqlite,
    uploads: UPLOADS,
    size: UPLOAD_SIZE,
    record,
    problems,
  });

  // On the cached server as visitors meet it, a post published for it.
  const lighthouseResults = options.lighthouse
    ? await measureLighthousePages(
        [
          { server: cached, postPath: await publishBenchPost(cachedSqlite), record },
          ...(before ? [{ server: before.cached, postPath: await before.publishPost(), record: beforeRecord }] : []),
        ],
        LIGHTHOUSE_RUNS,
      )
    : null;
  const statsResult = await runStatistics();

  await cleanUp();

  const input = { values, hasWrk, hasNginx, small: SMALL, large: LARGE, scalingPaths, idleAfterMs: IDLE_AFTER_MS };
  const rows = siteRows({ ...input, uploadSize: UPLOAD_SIZE, lighthouse: lighthouseResults?.[0] ?? null });
  const comparison = before
    ? compareWithBefore(before, rows, { ...input, uploadSize: UPLOAD_SIZE, lighthouse: lighthouseResults?.[1] ?? null })
    : undefined;
  rows.push(...liveRows(liveResult, values, hasWrk));
  rows.push(...areaRows(areaResult, values, hasWrk));
  rows.push(...instanceRows(instanceResult, values, hasWrk, instancesWhy));
  rows.push(...searchRows(searchResult, values, hasWrk));
  rows.push(...statisticsRows(statsResult));

  finish(
    rows,
    startedAt,
    [
      `<picture> elements on /: app ${pictures.app}, bare app ${pictures.bare}`,
      `HTML bytes: / ${Buffer.byteLength(home["/"])}, /home ${Buffer.byteLength(home["/home"])}`,
    ],
    {
      pictures,
      live: liveResult,
      areas: areaResult,
      instances: instanceResult,
      search: searchResult,
      statistics: statsResult,
    },
    comparison,
  );
}

try {
  await main();
} catch (error) {
  await cleanUp();
  for (const server of servers) if (server.stderr) console.error(server.stderr.slice(-2000));
  console.error(error);
  process.exit(1);
}
