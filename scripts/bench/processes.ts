import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cleanEnv, freePort, ROOT, request, ServerProcess, startServer } from "#tests/support/server-process.ts";

export const BARE_APP_DIR = path.join(ROOT, "bench/bare-app");

function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(target).map((entry) => newestMtime(path.join(target, entry))));
}

/** Whether bench/bare-app/build exists and is newer than the bare app's sources (`npm run bench:build`). */
export function bareAppBuildIsCurrent(): boolean {
  const built = fs.statSync(path.join(BARE_APP_DIR, "build/server/index.js"), { throwIfNoEntry: false });
  const sources = ["app", "react-router.config.ts", "vite.config.ts"].map((source) =>
    newestMtime(path.join(BARE_APP_DIR, source)),
  );
  return Boolean(built && built.mtimeMs >= Math.max(...sources));
}

function onPath(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

const HAS_TASKSET = onPath("taskset") && (process.env.BENCH_NO_PIN ?? "") === "";

/**
 * Servers on core 0, the load generator on core 1, so that wrk never takes CPU time from what it measures
 * (and the figures do not depend on where the scheduler happens to put the processes). Without taskset (or
 * on one core) the command runs unpinned.
 */
export function pinned(role: "server" | "load", command: string, args: string[]): [string, string[]] {
  if (!HAS_TASKSET) return [command, args];
  if (os.availableParallelism() < 2) return [command, args];
  return ["taskset", ["-c", role === "server" ? "0" : "1", command, ...args]];
}

/**
 * Lets a pinned process (every thread of it) use every core again: the upload figure measures the image
 * pipeline as it runs in production, where sharp's threads are not held to one core.
 */
export function unpin(pid: number): boolean {
  if (!HAS_TASKSET) return false;
  return (
    spawnSync("taskset", ["-a", "-p", "-c", `0-${os.availableParallelism() - 1}`, String(pid)], { stdio: "ignore" })
      .status === 0
  );
}

export function pinningNote(): string {
  return HAS_TASKSET ? "servers pinned to core 0, wrk to core 1 (taskset)" : "not pinned (no taskset)";
}

/**
 * Installs the Debian packages of missing tools (as root only: the bench never asks for a password);
 * returns the tools still missing afterwards.
 */
export function ensureTools(tools: { command: string; aptPackage: string }[]): string[] {
  const missing = tools.filter((tool) => !onPath(tool.command));
  if (missing.length === 0) return [];
  if (process.getuid?.() === 0 && onPath("apt-get")) {
    console.log(`Installing ${missing.map((tool) => tool.aptPackage).join(", ")} with apt-get…`);
    try {
      execFileSync("apt-get", ["update"], { stdio: "ignore" });
      execFileSync("apt-get", ["install", "-y", ...missing.map((tool) => tool.aptPackage)], {
        stdio: "ignore",
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      });
    } catch (error) {
      console.log(`apt-get failed: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  return missing.filter((tool) => !onPath(tool.command)).map((tool) => tool.command);
}

/** Resolves once the URL answers (any status), or fails after the timeout. */
async function waitForHttp(url: string, timeoutMs: number, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await request(url);
      return;
    } catch (error) {
      if (exited() || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Spawns a yardstick server pinned like the app and resolves once it is ready (by default: once it answers HTTP);
 * when it is not, kills it and fails with its name, its stderr and `log()` (a log file of its own).
 */
async function startPinned(
  name: string,
  [command, args]: [string, string[]],
  options: {
    port: number;
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    ready?: (server: ServerProcess) => Promise<unknown>;
    log?: () => string;
  },
): Promise<ServerProcess> {
  const child = spawn(...pinned("server", command, args), {
    cwd: options.cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: options.env,
  });
  const server = new ServerProcess(child, options.port);
  const ready = options.ready ?? (() => waitForHttp(server.url("/"), 10_000, () => child.exitCode !== null));
  try {
    await ready(server);
  } catch (error) {
    await server.stop("SIGKILL");
    throw new Error(`${name} did not start: ${(error as Error).message}\n${server.stderr}${options.log?.() ?? ""}`);
  }
  return server;
}

/** The Node flags `npm start` runs the server with (package.json's start script), so the bench measures the same. */
export function startFlags(root = ROOT): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const words = manifest.scripts.start.split(/\s+/);
  return words.slice(1, words.indexOf("server.js"));
}

/**
 * The server as `npm start` runs it, on that data folder, pinned like every server of the bench; `env` and
 * `nodeFlags` add to that (the live-streams section raises the per-address cap and opens an inspector port).
 * `root` runs another checkout's build with its own `npm start` flags (`--before`).
 */
export function startApp(options: {
  dataDir: string;
  authSecret: string;
  pageCache: boolean;
  env?: Record<string, string | undefined>;
  nodeFlags?: string[];
  root?: string;
}): Promise<ServerProcess> {
  return startServer({
    root: options.root,
    dataDir: options.dataDir,
    authSecret: options.authSecret,
    // The switch the issue defines; unset, the page cache is on.
    env: { PAGE_CACHE: options.pageCache ? undefined : "off", ...options.env },
    nodeFlags: [...startFlags(options.root), ...(options.nodeFlags ?? [])],
    launch: (command, args) => pinned("server", command, args),
  });
}

/** The bare React Router app (bench/bare-app) reading that SQLite file. */
export async function startBareApp(sqliteFile: string): Promise<ServerProcess> {
  const port = await freePort();
  return startPinned("The bare app", [process.execPath, ["server.js"]], {
    port,
    cwd: BARE_APP_DIR,
    env: cleanEnv({ NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", BARE_SQLITE_FILE: sqliteFile }),
    ready: (server) => server.waitForOutput("Bare app is running on"),
  });
}

/**
 * nginx serving files (URL path → file content) from a folder of its own: one worker, no access log, every
 * path it writes inside that folder, so it needs neither root-owned directories nor the system config.
 */
export async function startNginx(dir: string, pages: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const html = path.join(dir, "html");
  fs.mkdirSync(html, { recursive: true });
  const locations: string[] = [];
  for (const [index, [urlPath, body]] of Object.entries(pages).entries()) {
    const file = `page-${index}.html`;
    fs.writeFileSync(path.join(html, file), body);
    locations.push(`    location = ${urlPath} { try_files /${file} =404; }`);
  }
  for (const name of ["body", "proxy", "fastcgi", "uwsgi", "scgi"])
    fs.mkdirSync(path.join(dir, name), { recursive: true });
  // Started as root, nginx's worker runs as nobody: the folder (a private temp dir of its own) must be readable.
  fs.chmodSync(dir, 0o755);
  fs.chmodSync(html, 0o755);
  const config = path.join(dir, "nginx.conf");
  fs.writeFileSync(
    config,
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  default_type text/html;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${html};
${locations.join("\n")}
  }
}
`,
  );
  const log = path.join(dir, "error.log");
  return startPinned("nginx", ["nginx", ["-p", dir, "-c", config, "-e", log]], {
    port,
    log: () => `\n${fs.readFileSync(log, { encoding: "utf8", flag: "a+" })}`,
  });
}

/**
 * Node's own `node:http` alone answering the same pages' bytes (scripts/bench/node-floor.mjs), pinned like the app:
 * the yardstick of what any Node.js process answers on one core, so that the app's figures against nginx split
 * into what the app costs and what Node costs. `dir` holds its pages file.
 */
export async function startNodeFloor(dir: string, pages: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const file = path.join(dir, "node-floor-pages.json");
  fs.writeFileSync(file, JSON.stringify(pages));
  return startPinned("node:http alone", [process.execPath, [path.join(import.meta.dirname, "node-floor.mjs")]], {
    port,
    env: cleanEnv({ PORT: String(port), NODE_FLOOR_PAGES: file }),
  });
}

/**
 * A starter that lists each server in `servers` as soon as it runs, so that a failed start of another (or of a later
 * step) still stops it: the caller stops everything listed in its `finally`.
 */
export function listingIn(servers: ServerProcess[]) {
  return async (starting: Promise<ServerProcess>): Promise<ServerProcess> => {
    const server = await starting;
    servers.push(server);
    return server;
  };
}

/**
 * The yardsticks of the page-cached server: nginx and `node:http` alone, each serving these very pages' bytes
 * (checked for nginx). `started` lists each for the bench's clean-up.
 */
export async function startFloors(options: {
  nginxDir: string;
  tempRoot: string;
  pages: Record<string, string>;
  started: (server: Promise<ServerProcess>) => Promise<ServerProcess>;
}): Promise<{ nginx: ServerProcess; nodeFloor: ServerProcess }> {
  const nginx = await options.started(startNginx(options.nginxDir, options.pages));
  for (const [page, body] of Object.entries(options.pages)) {
    if ((await request(nginx.url(page))).body !== body) throw new Error(`nginx does not serve the app's ${page}`);
  }
  return { nginx, nodeFloor: await options.started(startNodeFloor(options.tempRoot, options.pages)) };
}

/** The process's resident memory now (VmRSS), in kB; 0 once it is gone. */
export function rssKb(pid: number): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Samples the process's resident memory (VmRSS) every 50 ms until stopped; returns the largest, in MB. */
export function sampleRss(pid: number): { stop: () => number } {
  let maxKb = 0;
  // A process gone reads 0: the samples so far stand.
  const sample = () => {
    maxKb = Math.max(maxKb, rssKb(pid));
  };
  sample();
  const timer = setInterval(sample, 50);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return maxKb / 1024;
    },
  };
}
