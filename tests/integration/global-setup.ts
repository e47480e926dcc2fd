import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "#tests/support/server-process.ts";

// The same rule as server.js: build when the production build is missing or older than its sources.
const BUILD_ENTRY = path.join(ROOT, "build/server/index.js");
const SOURCES = ["app", "server", "public", "package.json", "vite.config.ts", "react-router.config.ts"];

function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (/\.test\.tsx?$/.test(entry)) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/**
 * Builds once before any test file runs, so that the servers the integration tests start in
 * parallel never each start a build of their own (`node server.js` builds when the build is stale).
 */
export default function setup() {
  const built = fs.statSync(BUILD_ENTRY, { throwIfNoEntry: false });
  const sourceTime = Math.max(...SOURCES.map((source) => newestMtime(path.join(ROOT, source))));
  if (built && built.mtimeMs >= sourceTime) return;
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/@react-router/dev/dist/cli/index.js"), "build"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
}
