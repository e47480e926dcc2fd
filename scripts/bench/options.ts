import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { AreaSettings } from "./area-dropping.ts";
import type { InstanceSettings } from "./instances.ts";
import type { LiveSettings } from "./live-streams.ts";
import { pinningNote } from "./processes.ts";
import type { SearchSettings } from "./search.ts";
import type { StatisticsSettings } from "./statistics.ts";

/*
 * `npm run bench`'s options (scripts/bench.ts): its usage text, the arguments read once, and the settings of each
 * section they give. Read at import: the bench is a command, and every section reads the same settings.
 */

export const USAGE = `Usage: npm run bench -- [--rounds 3] [--seconds 10] [--pictures 10010] [--json FILE] [--lighthouse]
                        [--live | --live-only] [--streams 1000] [--saves 30]
                        [--areas | --areas-only] [--write-every 100]
                        [--instances | --instances-only] [--search | --search-only] [--media-serving]
                        [--stats | --stats-only] [--views 1000000]
                        [--before DIR] [--smoke] [--keep]
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
  --stats        add the statistics section: a simulated day of 1,000,000 views (10,000 pages, 150,000
                 visitors, referrers, languages, devices, searches, 1 % broken links) fed to three recorders
                 (instances) flushed every 5 simulated seconds, on SQLite and on a fresh PostgreSQL database
                 (BENCH_DATABASE_URL or TEST_DATABASE_URL): time, CPU, statements and rows written, writes per
                 second of the day, table sizes, the sums checked; then a year of 10,000 pages a day seeded and
                 the statistics screen's reads timed against 200 ms (about 10 minutes)
  --stats-only   only the statistics section (needs no build, server, nginx or wrk)
  --views N      views of the statistics section's simulated day (default 1,000,000; visitors are 15 % of them)
  --media-serving  only the media-serving comparison of decision 012 (scripts/bench/media-serving.ts): a phone's
                 page of pictures through the site ÷ by redirect to a signed S3 URL (bytes and CPU of Node, latency,
                 behind a caching proxy), on s3rver
  --before DIR   also measure another revision's build, DIR (a built checkout with its node_modules: git worktree
                 add DIR REV; npm ci; npm run build), in the same rounds: the site section's figures and
                 Lighthouse's of both builds, the builds taking turns, then a table of each figure before and after
                 (its data folder made by its own code; its scaling and uploads are not measured)
  --smoke        a quick check that everything runs: 1 round, 1-second runs, 60 pictures, a small upload
                 (and with --live: 50 streams, 3 saves; with --search: 200 pictures, 40 posts; with --stats:
                 20,000 views of 500 pages flushed every 5 simulated minutes, a "year" of 30 days × 500 pages)
  --keep         keep the temp folder (data folders, nginx config) for a look afterwards`;

export const { values: options } = parseArgs({
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
    stats: { type: "boolean", default: false },
    "stats-only": { type: "boolean", default: false },
    views: { type: "string" },
    "write-every": { type: "string" },
    "media-serving": { type: "boolean", default: false },
    before: { type: "string" },
    smoke: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

export function positiveInteger(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) stop(`--${name} must be a positive whole number.`);
  return value;
}

export function stop(message: string): never {
  console.error(message);
  process.exit(1);
}

export const smoke = options.smoke;
export const ROUNDS = positiveInteger(options.rounds, smoke ? 1 : 3, "rounds");
export const SECONDS = positiveInteger(options.seconds, smoke ? 1 : 10, "seconds");
export const SMALL = 50;
// 10,010 rather than 10,000: its last page then holds 2 pictures, as the 50-picture gallery's does (24 a page),
// so "last page" compares the same rendering work and only the gallery's size differs.
export const LARGE = positiveInteger(options.pictures, smoke ? 60 : 10_010, "pictures");
// The smoke run processes fewer pictures for real and copies their rows up to 50, to stay well under a minute.
export const REAL_PICTURES = smoke ? 10 : SMALL;
export const UPLOADS = smoke ? 1 : 3;
/** Lighthouse's runs per page: its simulated throttling varies from run to run, the median is reported. */
export const LIGHTHOUSE_RUNS = 3;
/**
 * When the idle memory is read, from the moment the servers answer: after the collection of the start's garbage. The
 * server looks every 5 s and collects at the first quiet look (settle-memory.server.ts); the bench's first page reads
 * make the look at 5 s a busy one, so the collection comes at the look at 10 s. Read at 7 s (stop 28), the row showed
 * the start's garbage.
 */
export const IDLE_AFTER_MS = 15_000;
export const UPLOAD_SIZE = smoke ? { width: 1200, height: 800 } : { width: 4240, height: 2832 };
// The site section is everything but the live streams and areas: the table of the issue "Fast for every visitor".
export const SITE =
  !options["live-only"] &&
  !options["areas-only"] &&
  !options["instances-only"] &&
  !options["search-only"] &&
  !options["stats-only"];
/** `--before`: another revision's built checkout, measured beside this build in the site section. */
export const BEFORE = SITE && options.before ? path.resolve(options.before) : null;
export const AREAS: AreaSettings | null =
  options.areas || options["areas-only"]
    ? {
        rounds: ROUNDS,
        seconds: SECONDS,
        writeEveryMs: positiveInteger(options["write-every"], 100, "write-every"),
      }
    : null;
// The instances section seeds a full first page of the gallery (24) through the pipeline; the smoke run a few.
export const INSTANCES: Omit<InstanceSettings, "authSecret"> | null =
  options.instances || options["instances-only"]
    ? { rounds: ROUNDS, seconds: SECONDS, pictures: smoke ? 4 : 24 }
    : null;
export const SEARCH: SearchSettings | null =
  options.search || options["search-only"]
    ? { rounds: ROUNDS, seconds: SECONDS, pictures: smoke ? 200 : 10_000, posts: smoke ? 40 : 2_000 }
    : null;
const VIEWS = positiveInteger(options.views, smoke ? 20_000 : 1_000_000, "views");
export const STATS: StatisticsSettings | null =
  options.stats || options["stats-only"]
    ? {
        views: VIEWS,
        pages: smoke ? 500 : 10_000,
        visitors: Math.max(1, Math.round(VIEWS * 0.15)),
        instances: 3,
        flushMs: smoke ? 300_000 : 5000,
        year: { days: smoke ? 30 : 365, pages: smoke ? 500 : 10_000, runs: smoke ? 3 : 5 },
      }
    : null;
export const LIVE: LiveSettings | null =
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

/** Whether any section runs a server of this build (the statistics section runs in the bench's own process). */
export const NEEDS_BUILD = SITE || LIVE !== null || AREAS !== null || INSTANCES !== null || SEARCH !== null;

/** The run's first line: what it measures, on how many cores, pinned how. */
export function runBanner(): string {
  const only = [
    LIVE ? "live streams" : "",
    AREAS ? "per-area dropping" : "",
    INSTANCES ? "several instances" : "",
    SEARCH ? "search" : "",
    STATS ? "statistics" : "",
  ]
    .filter(Boolean)
    .join(" and ");
  const section = SITE
    ? `${ROUNDS} round(s) of ${SECONDS}-second wrk runs; ${SMALL} and ${LARGE} pictures`
    : NEEDS_BUILD
      ? `${only} only, ${ROUNDS} round(s) of ${SECONDS}-second wrk runs${LIVE || AREAS ? `; ${SMALL} pictures` : ""}`
      : `${only} only`;
  const sections =
    (LIVE ? `; live streams: ${LIVE.streams} streams, ${LIVE.saves} saves` : "") +
    (AREAS ? `; per-area dropping: a FAQ write every ${AREAS.writeEveryMs} ms` : "") +
    (INSTANCES ? `; several instances: ${INSTANCES.pictures} pictures on PostgreSQL and S3` : "") +
    (SEARCH ? `; search: ${SEARCH.pictures} pictures + ${SEARCH.posts} posts` : "") +
    (STATS
      ? `; statistics: ${STATS.views} views of a day, a year of ${STATS.year.days} days × ${STATS.year.pages} pages`
      : "") +
    (BEFORE ? `; before and after: ${BEFORE}` : "");
  return (
    `Vitrine bench: ${section}${sections}; ` +
    `${os.cpus().length} cores, ${pinningNote()}${smoke ? "; SMOKE run (figures not meaningful)" : ""}`
  );
}

/** The run's settings, as the --json file records them. */
export function runSettings(): Record<string, unknown> {
  return {
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
      ...(STATS ? ["statistics"] : []),
    ],
    live: LIVE,
    areas: AREAS,
    instances: INSTANCES,
    search: SEARCH,
    statistics: STATS,
    before: BEFORE,
    pinning: pinningNote(),
    cores: os.cpus().length,
  };
}
