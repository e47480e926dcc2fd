/**
 * How the server's memory behaves under sustained load and afterwards: the production build on a seeded data
 * folder (SQLite, 300 pictures), pinned to core 0, wrk on core 1 with 200 connections asking for pages with
 * ever new query strings (`/?page=N`, `/?image=<id>` for every picture, `?lang=de`, an unknown parameter that
 * changes every time) and one request in ten signed in. The resident size is read from /proc every 5 s during
 * the load and during a quiet minute after it. Runs once with the page cache off and once with it on.
 *
 *   npm run build && npx tsx scripts/measure-memory.ts [--seconds 60] [--idle 30] [--cache off --cache on]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { startFlags } from "./bench/processes.ts";
import { copyPictureRows, pictureIds, seedDataFolder } from "./bench/seed-data.ts";

const { values } = parseArgs({
  options: { seconds: { type: "string" }, idle: { type: "string" }, cache: { type: "string", multiple: true } },
});
const SECONDS = Number(values.seconds ?? 60);
const IDLE_SECONDS = Number(values.idle ?? 30);

function residentMegabytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
  return Math.round(kilobytes / 1024);
}

function wrkScript(ids: string[], cookie: string): string {
  return `
local ids = {${ids.map((id) => `"${id}"`).join(",")}}
local n = 0
request = function()
  n = n + 1
  local kind = n % 5
  local path
  if kind == 0 then path = "/?page=" .. (n % 15 + 1)
  elseif kind == 1 then path = "/?image=" .. ids[n % #ids + 1]
  elseif kind == 2 then path = "/?image=" .. ids[n % #ids + 1] .. "&lang=de"
  elseif kind == 3 then path = "/faq?utm=" .. n
  else path = "/links?lang=de&x=" .. n end
  if n % 10 == 0 then return wrk.format("GET", path, { ["Cookie"] = "${cookie}" }) end
  return wrk.format("GET", path)
end
`;
}

async function measure(label: string, dataDir: string, script: string) {
  const server = await startServer({
    dataDir,
    authSecret: TEST_AUTH_SECRET,
    nodeFlags: startFlags(),
    env: { PAGE_CACHE: label },
    launch: (command, args) => ["taskset", ["-c", "0", command, ...args]],
  });
  const pid = server.child.pid as number;
  const samples: string[] = [`start ${residentMegabytes(pid)}`];
  const wrk = spawn("taskset", ["-c", "1", "wrk", "-t1", "-c200", `-d${SECONDS}s`, "-s", script, server.origin], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  wrk.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const started = Date.now();
  const timer = setInterval(
    () => samples.push(`${Math.round((Date.now() - started) / 1000)}s ${residentMegabytes(pid)}`),
    5000,
  );
  await new Promise((resolve) => wrk.on("close", resolve));
  clearInterval(timer);
  samples.push(`end ${residentMegabytes(pid)}`);
  for (let second = 10; second <= IDLE_SECONDS; second += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    samples.push(`idle+${second}s ${residentMegabytes(pid)}`);
  }
  const summary = output.split("\n").filter((line) => /Requests\/sec|Non-2xx|Socket errors|requests in/.test(line));
  console.log(
    `PAGE_CACHE=${label}: RSS MB ${samples.join(", ")}\n  ${summary.map((line) => line.trim()).join("\n  ")}`,
  );
  await server.stop();
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-memory-"));
try {
  const dataDir = path.join(root, "data");
  const { adminCookie } = await seedDataFolder(dataDir, { realPictures: 10, authSecret: TEST_AUTH_SECRET });
  copyPictureRows(sqliteFileIn(dataDir), 300);
  const script = path.join(root, "paths.lua");
  fs.writeFileSync(script, wrkScript([...pictureIds(sqliteFileIn(dataDir))], adminCookie));
  for (const label of values.cache ?? ["off", "on"]) await measure(label, dataDir, script);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
