import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { E2E_BASE_URL, E2E_DATA_DIR, E2E_PORT, E2E_SECRET } from "./tests/e2e/e2e-env.ts";

// Debian's Chromium where it exists (CI, our machines); Playwright's own browser elsewhere.
const SYSTEM_CHROMIUM = "/usr/bin/chromium";
const EMPTY_SITE_SPECS = ["**/routes.spec.ts"];
const executablePath = fs.existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined;

// Specs that change what every page shows (the site name, the description) or who is an admin: they run
// after all the others, one test at a time, so that no other test sees their changes. To run one of them
// alone: `npx playwright test --no-deps tests/e2e/admin-settings.spec.ts`.
// admin-gallery adds, reorders and deletes pictures that the gallery spec counts; contact-form puts "Contact" in
// every page's menu while it runs; browser-preferences sets the theme every first visit gets.
const SITE_WIDE =
  /(admin-settings|gallery-watermark|gallery-viewer|first-hour|gallery-layout|admin-gallery|contact-form|browser-preferences)\.spec\.ts$/;

export default defineConfig({
  testDir: "./tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Time per test, not a claim about speed: stories that sign in, fill forms and run axe on several pages
  // took up to 30 s on a loaded two-core machine. What a user waits for is bounded by `expect` below.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: "list",
  use: {
    baseURL: E2E_BASE_URL,
    trace: "retain-on-failure",
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
  ],
  webServer: {
    // The production build (server.js builds it when missing or stale) on a fresh data directory.
    command: "node tests/e2e/start-server.js",
    url: `${E2E_BASE_URL}/api/settings`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      BASE_URL: E2E_BASE_URL,
      AUTH_SECRET: E2E_SECRET,
      AUTH_MAX_FAILED_ATTEMPTS: "10000",
      DATABASE_URL: "",
      // The server's output is shown with the tests': warnings and errors, not a line per request.
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    },
  },
});
