// The production build is current when build/server/index.js is newer than every source file.
// Used by server.js (npm start) and by the integration tests' global setup.
import { execFileSync } from "node:child_process";
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

/** Builds when the build is missing or older than its sources; returns the server build's path. */
export function buildIfStale({ quiet = false } = {}) {
  if (buildIsCurrent()) return BUILD_ENTRY;
  const built = fs.statSync(BUILD_ENTRY, { throwIfNoEntry: false });
  if (!quiet) console.log(built ? "Sources changed since the last build; building…" : "No build yet; building…");
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/@react-router/dev/dist/cli/index.js"), "build"], {
    cwd: ROOT,
    // Always a production bundle: a test runner's NODE_ENV=test would otherwise ship React's development build.
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", quiet ? "ignore" : "inherit", "inherit"],
  });
  return BUILD_ENTRY;
}
