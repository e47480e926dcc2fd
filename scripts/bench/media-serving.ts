// Media with the files in a bucket (issue 20, decision 012): served through the site, or answered with a redirect
// to a URL signed for the bucket. For the page of pictures a phone loads on `/` (each picture's AVIF candidate for
// a 390 px wide screen at 3×), both ways: the bytes the Node process sends, its CPU time, and each file's time from
// request to last byte (the redirect's time includes its 302 and the fetch from the bucket). Interleaved round by
// round (which way goes first alternates); servers pinned to core 0, the visitor and the bucket (s3rver, a process
// of its own) to core 1. It builds nothing: it needs `npm run build`.
//   npx tsx scripts/bench/media-serving.ts [--rounds 5] [--pictures 24] [--json FILE] [--smoke] [--keep]
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createS3Storage } from "#app/domains/media/s3-storage.server.ts";
import { bucketEnv, type CountingRelay, startCountingRelay } from "#tests/support/s3-relay.ts";
import { S3RVER_CREDENTIALS, startS3Server } from "#tests/support/s3rver-process.ts";
import type { ServerProcess } from "#tests/support/server-process.ts";
import { buildIsCurrent } from "../build-if-stale.js";
import { startCachingProxy } from "./caching-proxy.ts";
import { ensureTools, pinned, pinningNote, startApp } from "./processes.ts";
import { seedDataFolder } from "./seed-data.ts";
import { describe, formatNumber, median, spread } from "./stats.ts";

const BUCKET = "vitrine-bench";
const { values: options } = parseArgs({
  options: {
    rounds: { type: "string" },
    pictures: { type: "string" },
    json: { type: "string" },
    smoke: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    "bucket-server": { type: "boolean", default: false },
  },
});

/** The bucket as a process of its own: s3rver on a free port; prints its address, stops on SIGTERM. */
async function bucketServer() {
  const server = await startS3Server(BUCKET);
  process.stdout.write(`${JSON.stringify({ endpoint: server.endpoint })}\n`);
  process.on("SIGTERM", () => void server.stop().finally(() => process.exit(0)));
}

const smoke = options.smoke;
const count = (text: string | undefined, fallback: number) => {
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`Not a positive whole number: ${text}`);
  return value;
};
const ROUNDS = count(options.rounds, smoke ? 1 : 5);
const PICTURES = count(options.pictures, smoke ? 6 : 24);
/** The phone: 390 CSS pixels wide, 3 device pixels to one (an iPhone 14's screen). */
const PHONE = { width: 390, density: 3 };

type Way = "site" | "signed" | "bucketed";
const WAYS: Record<Way, string> = {
  site: "through the site",
  signed: "redirect, signed per request",
  bucketed: "redirect, signed per hour",
};

/** The candidate of a srcset a phone picks for a picture `sizes` says is shown at (the smallest wide enough). */
function phoneCandidate(srcset: string, sizes: string): string {
  // The last entry holds for the narrowest screens: `calc((100vw - 2rem) * SHARE)` (justified-rows.ts).
  const share = Number(/calc\(\(100vw - 2rem\) \* ([\d.]+)\)$/.exec(sizes.trim())?.[1] ?? 1);
  const needed = (PHONE.width - 32) * share * PHONE.density;
  const candidates = srcset
    .split(",")
    .map((entry) => entry.trim().split(/\s+/))
    .map(([url = "", width = "0w"]) => ({ url: url.replaceAll("&amp;", "&"), width: Number.parseInt(width, 10) }))
    .sort((a, b) => a.width - b.width);
  return (candidates.find((candidate) => candidate.width >= needed) ?? candidates.at(-1))?.url ?? "";
}

/** Every picture's phone candidate on the page, in page order. */
function phoneFiles(html: string): string[] {
  const sources = [...html.matchAll(/<source type="image\/avif" srcset="([^"]+)" sizes="([^"]+)"/gi)];
  return sources.map((match) => phoneCandidate(match[1] ?? "", match[2] ?? ""));
}

type Fetched = { status: number; location?: string; bytes: number; body: number; cache?: string };

/** One GET on a kept connection (agent with one socket): the bytes the answer took on the wire, headers included. */
function get(agent: http.Agent, url: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const outgoing = http.get(url, { agent }, (response) => {
      const socket = response.socket;
      const before = (socket as { benchRead?: number }).benchRead ?? 0;
      let body = 0;
      response.on("data", (chunk: Buffer) => {
        body += chunk.length;
      });
      response.on("end", () => {
        (socket as { benchRead?: number }).benchRead = socket.bytesRead;
        resolve({
          status: response.statusCode ?? 0,
          location: response.headers.location,
          cache: response.headers["x-cache-status"] as string | undefined,
          bytes: socket.bytesRead - before,
          body,
        });
      });
      response.on("error", reject);
    });
    outgoing.on("error", reject);
  });
}

/** A process's CPU time so far (user + system), in ms, from /proc. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime: fields 14 and 15 of the line, 12 and 13 after the command's closing parenthesis.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

type PageLoad = { nodeBytes: number; bodyBytes: number; cpuMs: number; fileMs: number[]; pageMs: number };

/** The phone's page of files from one server, one after the other, as a visitor scrolling through it. */
async function loadPage(server: ServerProcess, files: string[], redirect: boolean): Promise<PageLoad> {
  const site = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const bucket = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const pid = server.child.pid as number;
  const cpuBefore = cpuMs(pid);
  const load: PageLoad = { nodeBytes: 0, bodyBytes: 0, cpuMs: 0, fileMs: [], pageMs: 0 };
  const started = performance.now();
  try {
    for (const file of files) {
      const start = performance.now();
      const first = await get(site, server.url(file));
      load.nodeBytes += first.bytes;
      let last = first;
      if (redirect) {
        if (first.status !== 302 || !first.location) throw new Error(`${file} answered ${first.status}, not a 302`);
        last = await get(bucket, first.location);
      }
      if (last.status !== 200) throw new Error(`${file} ended with ${last.status}`);
      load.bodyBytes += last.body;
      load.fileMs.push(performance.now() - start);
    }
  } finally {
    site.destroy();
    bucket.destroy();
  }
  load.pageMs = performance.now() - started;
  load.cpuMs = cpuMs(pid) - cpuBefore;
  return load;
}

/** Where each way's server sends a visitor for the same file, asked twice: the URLs a cache in front would key on. */
async function distinctLocations(server: ServerProcess, file: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: false });
  const first = await get(agent, server.url(file));
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const second = await get(agent, server.url(file));
  return new Set([first.location ?? file, second.location ?? file]).size;
}

type CdnVisit = { nodeRequests: number; nodeBytes: number; bucketRequests: number };

/**
 * The phone's page through the caching proxy (a CDN's stand-in) in front of one server: how many of its requests
 * reached the Node process (not answered from the cache), their bytes, and how many reached the bucket (the
 * server's reads and the visitor's redirected fetches alike, counted by the relay in front of it).
 */
async function cdnVisit(origin: string, files: string[], redirect: boolean, relay: CountingRelay): Promise<CdnVisit> {
  const edge = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const bucket = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const bucketBefore = relay.requests(`GET /${BUCKET}/`);
  const visit: CdnVisit = { nodeRequests: 0, nodeBytes: 0, bucketRequests: 0 };
  try {
    for (const file of files) {
      const first = await get(edge, `${origin}${file}`);
      if (first.cache !== "HIT") {
        visit.nodeRequests += 1;
        visit.nodeBytes += first.bytes;
      }
      const last = redirect && first.location ? await get(bucket, first.location) : first;
      if (last.status !== 200) throw new Error(`${file} through the proxy ended with ${last.status}`);
    }
  } finally {
    edge.destroy();
    bucket.destroy();
  }
  visit.bucketRequests = relay.requests(`GET /${BUCKET}/`) - bucketBefore;
  return visit;
}

function startBucket(): Promise<{ child: ChildProcess; endpoint: string }> {
  const [command, args] = pinned("load", process.execPath, [
    "--import",
    "tsx",
    import.meta.filename,
    "--bucket-server",
  ]);
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const line = output.split("\n").find((text) => text.startsWith("{"));
      if (line) resolve({ child, endpoint: (JSON.parse(line) as { endpoint: string }).endpoint });
    });
    child.on("exit", (code) => reject(new Error(`The bucket server ended (${code}) before it answered`)));
  });
}

/** Every file of a data folder's storage into the bucket, under the prefix the servers use. */
async function copyIntoBucket(storageDir: string, endpoint: string): Promise<number> {
  const bucket = createS3Storage({
    bucket: BUCKET,
    prefix: "site",
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    secret: "bench",
  });
  let copied = 0;
  try {
    for (const entry of fs.readdirSync(storageDir, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      const key = path.relative(storageDir, file).split(path.sep).join("/");
      if (!entry.isFile() || !/^(public|private)\//.test(key)) continue;
      await bucket.save(key, fs.readFileSync(file), { overwrite: true });
      copied += 1;
    }
  } finally {
    bucket.close();
  }
  return copied;
}

async function main() {
  const hasNginx = ensureTools([{ command: "nginx", aptPackage: "nginx-light" }]).length === 0;
  if (!buildIsCurrent())
    throw new Error("The production build is missing or older than the sources: run `npm run build`.");
  const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-bench-media-"));
  const servers: ServerProcess[] = [];
  let bucket: ChildProcess | undefined;
  let relay: CountingRelay | undefined;
  let stopProxy = async () => {};
  let nginxDir: string | undefined;
  const authSecret = `bench-${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("hex")}`;
  try {
    console.log(
      `Media serving with the files in a bucket: ${ROUNDS} round(s), ${PICTURES} pictures; ${os.cpus().length} cores, ` +
        `${pinningNote()} (the bucket with the visitor)${smoke ? "; SMOKE run (figures not meaningful)" : ""}`,
    );
    console.log(`Seeding ${PICTURES} pictures through the image pipeline…`);
    const seed = path.join(tempRoot, "seed");
    await seedDataFolder(seed, { realPictures: PICTURES, authSecret });
    const started = await startBucket();
    bucket = started.child;
    const copied = await copyIntoBucket(path.join(seed, "storage"), started.endpoint);
    // The servers, and the visitors they redirect, reach the bucket through a relay that counts their requests.
    relay = await startCountingRelay(Number(new URL(started.endpoint).port));
    // The servers must find every file in the bucket: none is left on the disk to fall back on.
    fs.rmSync(path.join(seed, "storage"), { recursive: true });
    console.log(`Copied ${copied} files into the bucket; starting the servers…`);
    const serverOf = {} as Record<Way, ServerProcess>;
    for (const way of Object.keys(WAYS) as Way[]) {
      const dataDir = path.join(tempRoot, way);
      fs.cpSync(seed, dataDir, { recursive: true });
      serverOf[way] = await startApp({
        dataDir,
        authSecret,
        pageCache: true,
        env: {
          ...bucketEnv(BUCKET, relay.endpoint),
          VITRINE_BENCH_MEDIA_REDIRECT: way === "site" ? undefined : way,
          LOG_LEVEL: "warn",
        },
      });
      servers.push(serverOf[way]);
    }
    const page = await new Promise<string>((resolve, reject) =>
      http.get(serverOf.site.url("/"), (response) => {
        let html = "";
        response.setEncoding("utf8").on("data", (chunk: string) => {
          html += chunk;
        });
        response.on("end", () => resolve(html));
        response.on("error", reject);
      }),
    );
    const files = phoneFiles(page);
    if (files.length !== PICTURES) throw new Error(`The page offers ${files.length} pictures, not ${PICTURES}`);

    const series = new Map<string, number[]>();
    const record = (name: string, value: number) => series.set(name, [...(series.get(name) ?? []), value]);
    const order = Object.keys(WAYS) as Way[];
    console.log("Warming up…");
    for (const way of order) await loadPage(serverOf[way], files, way !== "site");
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`Round ${round} of ${ROUNDS}…`);
      for (const way of round % 2 === 1 ? order : [...order].reverse()) {
        const load = await loadPage(serverOf[way], files, way !== "site");
        record(`${way} node kB`, load.nodeBytes / 1024);
        record(`${way} body kB`, load.bodyBytes / 1024);
        record(`${way} cpu ms`, load.cpuMs);
        record(`${way} file ms`, median(load.fileMs));
        record(`${way} page ms`, load.pageMs);
      }
    }
    const locations = Object.fromEntries(
      await Promise.all(order.map(async (way) => [way, await distinctLocations(serverOf[way], files[0] ?? "")])),
    ) as Record<Way, number>;

    const cdn: Partial<Record<Way, CdnVisit[]>> = {};
    if (hasNginx) {
      const ports = Object.fromEntries(order.map((way) => [way, serverOf[way].port]));
      // A temp folder of its own, not inside tempRoot: nginx's worker (nobody) cannot enter a private one.
      nginxDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-bench-media-nginx-"));
      const proxy = await startCachingProxy(nginxDir, ports);
      stopProxy = proxy.stop;
      for (const way of order) {
        const origin = proxy.origins[way] ?? "";
        // A first phone fills the cache, a second one is served from it as far as the answers allow.
        cdn[way] = [
          await cdnVisit(origin, files, way !== "site", relay),
          await cdnVisit(origin, files, way !== "site", relay),
        ];
      }
    }
    const cdnCell = (way: Way, visit: 0 | 1, what: keyof CdnVisit) => {
      const found = cdn[way]?.[visit];
      if (!found) return "skipped (no nginx)";
      return what === "nodeBytes" ? `${formatNumber(found[what] / 1024)} kB` : String(found[what]);
    };
    const values = (name: string) => series.get(name) ?? [];
    const rows: [string, (way: Way) => string][] = [
      ["Bytes sent by the Node process for the page", (way) => describe(values(`${way} node kB`), "kB")],
      ["Picture bytes the phone received", (way) => describe(values(`${way} body kB`), "kB")],
      ["CPU time of the Node process for the page", (way) => describe(values(`${way} cpu ms`), "ms")],
      [
        "Time per file, request to last byte (median of the page's files)",
        (way) => describe(values(`${way} file ms`), "ms"),
      ],
      ["Time for the whole page, one file after the other", (way) => describe(values(`${way} page ms`), "ms")],
      ["Addresses a cache sees for one file asked twice, 1 s apart", (way) => String(locations[way])],
      ["Behind a caching proxy, 1st phone: requests reaching Node", (way) => cdnCell(way, 0, "nodeRequests")],
      ["Behind a caching proxy, 2nd phone: requests reaching Node", (way) => cdnCell(way, 1, "nodeRequests")],
      ["Behind a caching proxy, 2nd phone: bytes sent by Node", (way) => cdnCell(way, 1, "nodeBytes")],
      ["Behind a caching proxy, 2nd phone: requests reaching the bucket", (way) => cdnCell(way, 1, "bucketRequests")],
    ];
    console.log(`\n| Figure (${files.length} files) | ${order.map((way) => WAYS[way]).join(" | ")} |`);
    console.log(`|---|${order.map(() => "---").join("|")}|`);
    for (const [figure, cell] of rows) console.log(`| ${figure} | ${order.map(cell).join(" | ")} |`);
    console.log("\nRaw numbers (one per round):");
    for (const [name, list] of series) console.log(`  ${name}: ${list.map(formatNumber).join(", ")}`);
    if (options.json) {
      const summary = Object.fromEntries(
        [...series].map(([name, list]) => [name, { median: median(list), ...spread(list), values: list }]),
      );
      const config = { rounds: ROUNDS, pictures: PICTURES, phone: PHONE, files };
      fs.writeFileSync(options.json, `${JSON.stringify({ config, summary, locations, cdn }, null, 2)}\n`);
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop().catch(() => null)));
    await stopProxy();
    await relay?.close();
    bucket?.kill("SIGTERM");
    if (options.keep) console.log(`Kept ${tempRoot}${nginxDir ? ` and ${nginxDir}` : ""}`);
    else for (const dir of [tempRoot, nginxDir ?? ""]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (options["bucket-server"]) await bucketServer();
else
  await main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
