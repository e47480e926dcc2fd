import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import {
  E2E_LOG_DIR,
  E2E_SECRET,
  E2E_SERVERS,
  type E2EServer,
  POSTGRES_SERVER,
  SQLITE_SERVER,
} from "./tests/e2e/e2e-env.ts";
import type { WorkerFixtures } from "./tests/e2e/fixtures.ts";

// Debian's Chromium where it exists (CI, our machines); Playwright's own browser elsewhere.
const SYSTEM_CHROMIUM = "/usr/bin/chromium";
const EMPTY_SITE_SPECS = ["**/routes.spec.ts"];
const executablePath = fs.existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined;

// Specs that change what every page shows (the site name, the description) or who is an admin: they run
// after all the others, one test at a time, so that no other test sees their changes. To run one of them
// alone: `npx playwright test --no-deps tests/e2e/admin-settings.spec.ts`.
// admin-gallery adds, reorders and deletes pictures that the gallery spec counts; contact-form puts "Contact" in
// every page's menu while it runs; browser-preferences sets the theme every first visit gets.
// live.spec publishes pictures at the top of the gallery: beside gallery.spec's paging test, one of them once moved a
// picture of that test to its second page (CI).
const SITE_WIDE =
  /(admin-settings|gallery-watermark|gallery-viewer|first-hour|gallery-layout|admin-gallery|contact-form|browser-preferences|live)\.spec\.ts$/;

// The specs that also run against a server on PostgreSQL (the `postgres` project): sign-up and sign-in (auth),
// an admin writing, uploading into and publishing a post that visitors then read (admin-posts), and the blog's
// public pages (blog), a post for a group read by the person invited into it (members), and a video for a group
// (member-videos). None of them changes what other specs see, and the PostgreSQL server is theirs alone.
const POSTGRES_SPECS = [
  "**/auth.spec.ts",
  "**/admin-posts.spec.ts",
  "**/blog.spec.ts",
  "**/members.spec.ts",
  "**/member-videos.spec.ts",
];

// Without TEST_DATABASE_URL the postgres project's tests are reported as skipped, with the reason (fixtures.ts);
// in CI that would hide a whole database from the browser tests, so it is an error there.
if (process.env.CI && !POSTGRES_SERVER.databaseUrl)
  throw new Error("CI is set but TEST_DATABASE_URL is not: the browser tests' postgres project cannot run.");
// Once, from the runner (workers load this file too): the list reporter shows a skip without its reason.
if (!POSTGRES_SERVER.databaseUrl && process.env.TEST_WORKER_INDEX === undefined)
  console.warn("TEST_DATABASE_URL is not set: the postgres project's browser tests are skipped.");

// The tests note every secret they use in this folder (tests/support/secret-ledger.ts); workers inherit it.
process.env.VITRINE_TEST_LOG_DIR = E2E_LOG_DIR;

/** One server for a project: the production build on a fresh data directory (and database), its output kept. */
function webServer(server: E2EServer) {
  const port = new URL(server.baseURL).port;
  return {
    // The production build (server.js builds it when missing or stale), through a wrapper that keeps its output.
    command: "node tests/e2e/start-server.js",
    name: server.kind,
    url: `${server.baseURL}/api/settings`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    // A clean stop, so the PostgreSQL server's database is dropped and the last log lines are written.
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
    env: {
      PORT: port,
      DATA_DIR: server.dataDir,
      BASE_URL: server.baseURL,
      AUTH_SECRET: E2E_SECRET,
      AUTH_MAX_FAILED_ATTEMPTS: "10000",
      // Every test's browser holds a live stream from 127.0.0.1; parallel workers must not meet the per-address cap.
      LIVE_MAX_STREAMS_PER_CLIENT: "200",
      DATABASE_URL: server.databaseUrl ?? "",
      SERVER_LOG_FILE: server.logFile,
      // Every line goes to the log file (request lines too, for the check for secrets); the tests' output shows
      // warnings and errors, not a line per request.
      LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
      SHOWN_LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    },
  };
}

export default defineConfig<unknown, WorkerFixtures>({
  testDir: "./tests/e2e",
  // A stray `.only` must not narrow a CI run to one test.
  forbidOnly: !!process.env.CI,
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Time per test, not a claim about speed: stories that sign in, fill forms and run axe on several pages
  // took up to 30 s on a loaded two-core machine. What a user waits for is bounded by `expect` below.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: "list",
  use: {
    baseURL: SQLITE_SERVER.baseURL,
    // A trace records every action's DOM and a screencast: about a quarter of each test's time on two cores (23
    // tests: 311 → 238 s). CI keeps only its output, never the files, so there it is off; here it stays for failures.
    trace: process.env.CI ? "off" : "retain-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    // The empty states need a site without content, so their spec runs before the specs that add content.
    { name: "empty-site", use: { ...devices["Desktop Chrome"] }, testMatch: EMPTY_SITE_SPECS },
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"] },
      testIgnore: [...EMPTY_SITE_SPECS, SITE_WIDE],
      dependencies: ["empty-site"],
    },
    {
      name: "site-wide",
      use: { ...devices["Desktop Chrome"] },
      testMatch: SITE_WIDE,
      dependencies: ["chromium"],
      fullyParallel: false,
      // One worker: without it two of these files ran side by side (first-hour's extra admin made "the last
      // admin" test's refusal vanish; its watermark settings took the watermark spec's badge away).
      workers: 1,
    },
    // The same stories on PostgreSQL, on a server of their own (nothing here is shared with the others). Run beside
    // `site-wide`, whose one worker leaves the other idle. Before, they ran beside `empty-site`, and Playwright runs
    // each step of projects (those whose dependencies have run) only after the whole step before: the postgres stories
    // lengthened the run by their own time. (A failure in `chromium` now skips them: the run has failed anyway.)
    {
      name: "postgres",
      use: { ...devices["Desktop Chrome"], baseURL: POSTGRES_SERVER.baseURL, e2eServer: POSTGRES_SERVER },
      testMatch: POSTGRES_SPECS,
      dependencies: ["chromium"],
      // What the database does not change, to keep the added time small: axe's checks of the markup, and the
      // German wording of the sign-up messages (the same actions as in English).
      grepInvert: [/axe finds nothing/, /messages in German/],
    },
  ],
  webServer: E2E_SERVERS.map(webServer),
});
