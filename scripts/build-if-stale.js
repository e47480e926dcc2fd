// The production build is current when build/server/index.js is newer than every source file.
// Used by server.js (npm start) and by the integration tests' global setup.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUILD_ENTRY = path.join(ROOT, "build/server/index.js");
const SOURCES = [
  "app",
  "server",
  "public",
  "package.json",
  "vite.config.ts",
  "react-router.config.ts",
  "scripts/build-if-stale.js",
];

function newestMtime(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    // Tests beside the code are not part of the build: editing one must not trigger a rebuild.
    if (/\.test\.tsx?$/.test(entry)) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Whether the build exists and is newer than every source (`npm run bench` measures only such a build). */
export function buildIsCurrent() {
  const built = fs.statSync(BUILD_ENTRY, { throwIfNoEntry: false });
  const sourceTime = Math.max(...SOURCES.map((source) => newestMtime(path.join(ROOT, source))));
  return Boolean(built && built.mtimeMs >= sourceTime);
}

/**
 * Runs the build command. `progress` (npm start): one line before and one with the seconds after, the build's own
 * listing (some 60 lines) kept back so that the address and the admin setup code are what the owner reads last;
 * `quiet` (the tests' global setup): no lines of its own. Either way a failing build's whole output goes to stderr,
 * so that its cause is visible, and an error is thrown.
 */
export function runBuild(command, args, { output = "progress", env = process.env, cwd = ROOT, say = defaultSay } = {}) {
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    // Interleaved as the build wrote them would be nicer; two buffers are enough to show why it failed.
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error || result.status !== 0) {
    process.stderr.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    const reason = result.error?.message ?? (result.signal ? `signal ${result.signal}` : `exit code ${result.status}`);
    throw new Error(`The build failed (${reason}); its output is above.`);
  }
  if (output === "progress") say(`Built in ${Math.round((performance.now() - started) / 1000)} s.\n`);
}

function defaultSay(text) {
  process.stdout.write(text);
}

/** Builds when the build is missing or older than its sources; returns the server build's path. */
export function buildIfStale({ quiet = false, say = defaultSay } = {}) {
  if (buildIsCurrent()) return BUILD_ENTRY;
  const built = fs.statSync(BUILD_ENTRY, { throwIfNoEntry: false });
  if (!quiet) {
    say(
      built
        ? "The sources changed since the last build; building the site again (about a minute)…\n"
        : "Building the site (first start only, about a minute)…\n",
    );
  }
  runBuild(process.execPath, [path.join(ROOT, "node_modules/@react-router/dev/dist/cli/index.js"), "build"], {
    output: quiet ? "quiet" : "progress",
    // Always a production bundle: a test runner's NODE_ENV=test would otherwise ship React's development build.
    env: { ...process.env, NODE_ENV: "production" },
    say,
  });
  return BUILD_ENTRY;
}
