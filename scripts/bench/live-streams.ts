import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import Database from "better-sqlite3";
import { cleanEnv, freePort, request, type ServerProcess } from "#tests/support/server-process.ts";
import { connectInspector, type Inspector } from "./inspector.ts";
import type { ClientCommand, ClientReply } from "./live-streams-client.ts";
import { pinned, rssKb, startApp } from "./processes.ts";
import { describe, formatNumber, median, percentile, type Row, range, verdictOf } from "./stats.ts";
import { runWrk, type WrkResult } from "./wrk.ts";

/*
 * The live-streams section (`--live`, issue 19): what the open event streams (GET /api/events) of many visitors
 * cost one server process. Three figures, on a server of its own (pinned to the servers' core; the streams are
 * held, and the saves sent, by a client process on the load generator's core, scripts/bench/live-streams-client.ts):
 * memory per open stream, the time from an admin's save to its event on every stream, and the cached pages'
 * req/s with the streams open ÷ without, the two conditions alternated round by round.
 *
 * Memory is read once, streams none and then all open (each after a full GC through the inspector): a second
 * "none" after streams have closed would keep what the allocator held on to. A delay runs from just before the
 * post is written to the moment the client reads the message on that stream, so it includes the client's own
 * reading of the streams before it (one process for all of them, as a thousand browsers would not be).
 */

export type LiveSettings = {
  /** Streams held open at once (the visitors watching the site). */
  streams: number;
  /** Admin saves timed to every stream. */
  saves: number;
  /** Least time from one save's post to the next's. */
  saveSpacingMs: number;
  rounds: number;
  seconds: number;
  smoke: boolean;
};

/** wrk's connections for the req/s comparison: those of the app ÷ nginx rows. */
const CONNECTIONS = 10;
const PAGES = ["/", "/home"] as const;
/** Long enough for a thousand streams through a busy server; a stream not open by then is a failure. */
const OPEN_TIMEOUT_MS = 30_000;
/** A save's event not on every stream by then is counted missing (and the figure misses its goal). */
const DELIVERY_TIMEOUT_MS = 10_000;

export type LiveServer = { server: ServerProcess; inspectorPort: number };

/**
 * The section's server: `npm start`'s, page cache on, with the per-address cap raised to the streams the bench
 * holds (they all come from 127.0.0.1; the total cap only when it is below them) and an inspector port for the
 * settled memory figures (nothing connects to it until then).
 */
export async function startLiveServer(options: {
  dataDir: string;
  authSecret: string;
  streams: number;
}): Promise<LiveServer> {
  const inspectorPort = await freePort();
  // Twice what is held: the streams just closed may still be counted on the server when the next ones open.
  const cap = String(options.streams * 2);
  const server = await startApp({
    dataDir: options.dataDir,
    authSecret: options.authSecret,
    pageCache: true,
    env: { LIVE_MAX_STREAMS_PER_CLIENT: cap, LIVE_MAX_STREAMS: options.streams * 2 > 2000 ? cap : undefined },
    nodeFlags: [`--inspect=127.0.0.1:${inspectorPort}`],
  });
  return { server, inspectorPort };
}

type Client = {
  ask: <T extends ClientReply["type"]>(command: ClientCommand, type: T) => Promise<Extract<ClientReply, { type: T }>>;
  stop: () => Promise<void>;
};

/** The stream-holding process, on the load generator's core, driven one command at a time over IPC. */
function startClient(): Client {
  const file = path.join(import.meta.dirname, "live-streams-client.ts");
  const [command, args] = pinned("load", process.execPath, [file]);
  const child: ChildProcess = spawn(command, args, {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: cleanEnv({}),
  });
  let exited = false;
  const ended = new Promise<void>((resolve) =>
    child.on("exit", () => {
      exited = true;
      resolve();
    }),
  );
  return {
    ask(command, type) {
      return new Promise((resolve, reject) => {
        if (exited) return reject(new Error("The live-streams client has ended"));
        const onExit = () => reject(new Error("The live-streams client ended"));
        child.once("exit", onExit);
        child.once("message", (reply: ClientReply) => {
          child.off("exit", onExit);
          if (reply.type === type) resolve(reply as Extract<ClientReply, { type: typeof type }>);
          else reject(new Error(reply.type === "failed" ? reply.message : `Unexpected reply ${reply.type}`));
        });
        child.send(command);
      });
    },
    async stop() {
      if (!exited) child.disconnect();
      await ended;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The id of the link the save made (titles are unique to each save). */
function linkIdByTitle(sqliteFile: string, title: string): string | undefined {
  const db = new Database(sqliteFile, { readonly: true });
  try {
    return (db.prepare("SELECT id FROM links WHERE title = ?").get(title) as { id: string } | undefined)?.id;
  } finally {
    db.close();
  }
}

/**
 * Resident memory after a full garbage collection (two, so that what the first one's finalizers freed goes too):
 * the median of several VmRSS samples, and the V8 heap. Without the inspector it waits instead.
 */
async function settledMemory(
  pid: number,
  inspector: Inspector | null,
  smoke: boolean,
): Promise<{ rssMb: number; heapMb: number }> {
  if (inspector) {
    await inspector.collectGarbage();
    await inspector.collectGarbage();
    // Freed pages go back to the system as the sweeper finishes.
    await sleep(smoke ? 100 : 500);
  } else {
    await sleep(smoke ? 500 : 5000);
  }
  const samples: number[] = [];
  for (let index = 0; index < (smoke ? 3 : 7); index++) {
    samples.push(rssKb(pid));
    await sleep(smoke ? 50 : 200);
  }
  const heapMb = inspector ? (await inspector.heapUsed()) / 1024 / 1024 : Number.NaN;
  return { rssMb: median(samples) / 1024, heapMb };
}

export type LiveResult = {
  streams: number;
  saves: number;
  /** Every (save × stream) delay, summed up; `missing` pairs never arrived within the time. */
  delivery: { pairs: number; missing: number; p50Ms: number; p95Ms: number; maxMs: number };
  /** How long opening the streams took (each time). */
  openMs: number[];
};

export type LiveContext = {
  live: LiveServer;
  settings: LiveSettings;
  adminCookie: string;
  sqliteFile: string;
  hasWrk: boolean;
  record: (name: string, value: number) => void;
  /** The bench's wrk run: recorded with its label and checked for errors. */
  load: (label: string, round: number, url: string, connections: number) => Promise<WrkResult>;
  problems: string[];
};

export async function measureLiveStreams(context: LiveContext): Promise<LiveResult> {
  const { live, settings, record, problems } = context;
  const { server } = live;
  const pid = server.child.pid as number;
  const count = settings.streams;
  const openMs: number[] = [];
  const client = startClient();
  let inspector: Inspector | null = null;
  // Between opening or closing the streams and a measurement: that burst's work and garbage are gone, in both
  // conditions alike (a full collection when the inspector is there).
  const settle = async () => {
    await inspector?.collectGarbage();
    await sleep(settings.smoke ? 200 : 2000);
  };
  const open = async (streams: number) => {
    const reply = await client.ask(
      { type: "open", url: server.url("/api/events"), count: streams, timeoutMs: OPEN_TIMEOUT_MS },
      "opened",
    );
    if (reply.open !== streams) {
      const reasons = [...new Set(reply.refused)].slice(0, 3).join("; ");
      throw new Error(`Only ${reply.open} of ${streams} live streams opened (${reasons})`);
    }
    return reply.ms;
  };
  const close = async () => {
    const reply = await client.ask({ type: "close" }, "closed");
    if (reply.dropped > 0) problems.push(`Live streams: the server ended ${reply.dropped} stream(s) the bench held`);
  };
  let saveNumber = 0;
  /** One admin save as the links screen posts it (no JavaScript), timed by the client; the new link's id. */
  const save = async () => {
    const title = `Live bench link ${++saveNumber} ${Date.now()}`;
    const reply = await client.ask(
      {
        type: "save",
        url: server.url("/admin/links"),
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          // The CSRF check wants the site's own origin, as a browser sends it.
          Origin: server.origin,
          Cookie: context.adminCookie,
        },
        body: new URLSearchParams({
          intent: "create",
          title,
          url: "https://example.com/live",
          icon: "globe",
          active: "on",
        }).toString(),
      },
      "saved",
    );
    if (reply.status !== 200) throw new Error(`An admin save (POST /admin/links) answered ${reply.status}`);
    const id = linkIdByTitle(context.sqliteFile, title);
    if (!id) throw new Error(`The saved link "${title}" is not in the database`);
    return { ...reply, key: `links:${id}` };
  };

  try {
    console.log(`Live streams: warming up (${count} streams, ${settings.saves} saves to time)…`);
    for (const page of PAGES) await request(server.url(page));
    // The code of the pages, the streams and the save run once before anything is measured (not worth the time
    // in a smoke run).
    if (!settings.smoke) {
      if (context.hasWrk) {
        for (const page of PAGES) await runWrk(server.url(page), { connections: CONNECTIONS, seconds: 2 });
      }
      await open(Math.min(count, 100));
      await save();
      await close();
    }

    // Memory: none open, then every stream open and idle, each after a full collection.
    inspector = await connectInspector(live.inspectorPort).catch((error: Error) => {
      problems.push(`Live streams: no inspector (${error.message}); memory read after a wait, without a GC`);
      return null;
    });
    await settle();
    const before = await settledMemory(pid, inspector, settings.smoke);
    openMs.push(await open(count));
    await settle();
    const after = await settledMemory(pid, inspector, settings.smoke);
    record("live rss no streams", before.rssMb);
    record("live rss streams", after.rssMb);
    record("live rss kB per stream", ((after.rssMb - before.rssMb) * 1024) / count);
    if (inspector) {
      record("live heap no streams", before.heapMb);
      record("live heap streams", after.heapMb);
      record("live heap kB per stream", ((after.heapMb - before.heapMb) * 1024) / count);
    }

    // From each save's post to its event on every stream.
    const delays: number[] = [];
    let missing = 0;
    for (let index = 0; index < settings.saves; index++) {
      const started = performance.now();
      const saved = await save();
      const arrived = await client.ask(
        { type: "await", key: saved.key, sentAt: saved.sentAt, timeoutMs: DELIVERY_TIMEOUT_MS },
        "arrived",
      );
      delays.push(...arrived.delaysMs);
      missing += arrived.missing;
      record("live save answered ms", saved.answeredMs);
      record("live save on every stream ms", arrived.missing > 0 ? Number.NaN : Math.max(...arrived.delaysMs));
      if (arrived.missing > 0) {
        problems.push(
          `Live streams: save ${index + 1} did not reach ${arrived.missing} stream(s) within ${DELIVERY_TIMEOUT_MS} ms`,
        );
      }
      await sleep(settings.saveSpacingMs - (performance.now() - started));
    }

    // Cached pages with the streams open ÷ without, alternated round by round; the saves dropped the kept pages.
    for (const page of PAGES) await request(server.url(page));
    if (context.hasWrk) {
      for (let round = 1; round <= settings.rounds; round++) {
        console.log(`Live streams: round ${round} of ${settings.rounds}…`);
        await close();
        await settle();
        const without: number[] = [];
        for (const page of PAGES) {
          const label = `app (cache on) ${page}, no live streams, ${CONNECTIONS} connections`;
          without.push((await context.load(label, round, server.url(page), CONNECTIONS)).requestsPerSecond);
        }
        openMs.push(await open(count));
        await settle();
        for (const [index, page] of PAGES.entries()) {
          const label = `app (cache on) ${page}, ${count} live streams open, ${CONNECTIONS} connections`;
          const rps = (await context.load(label, round, server.url(page), CONNECTIONS)).requestsPerSecond;
          record(`live ${page} without streams`, without[index] as number);
          record(`live ${page} with streams`, rps);
          record(`live ${page} with/without`, rps / (without[index] as number));
        }
      }
    }
    await close();
    const all = [...delays, ...Array.from({ length: missing }, () => Number.POSITIVE_INFINITY)];
    return {
      streams: count,
      saves: settings.saves,
      delivery: {
        pairs: all.length,
        missing,
        p50Ms: percentile(all, 50),
        p95Ms: percentile(all, 95),
        maxMs: all.reduce((max, delay) => Math.max(max, delay), Number.NEGATIVE_INFINITY),
      },
      openMs,
    };
  } finally {
    inspector?.close();
    await client.stop();
  }
}

/** The section's rows; without a result (not asked for) one row saying how to ask. */
export function liveRows(
  result: LiveResult | null,
  values: (name: string) => number[],
  hasWrk: boolean,
  why = "run with --live",
): Row[] {
  if (!result) {
    return [
      {
        figure: "Live streams: memory per open stream, save-to-stream delay, cached req/s with streams open",
        measured: "n/a",
        goal: "p95 ≤ 1 s; ≥ 0.9",
        verdict: `skipped (${why})`,
      },
    ];
  }
  const count = result.streams.toLocaleString("en-US");
  const rows: Row[] = [];
  const heap = values("live heap kB per stream");
  const mb = (name: string) => formatNumber(values(name)[0] ?? Number.NaN);
  rows.push({
    figure: `Live streams: memory per open stream, (server RSS with ${count} idle streams − with none) ÷ ${count}, each after a full GC`,
    measured:
      `${formatNumber(values("live rss kB per stream")[0] ?? Number.NaN)} kB (RSS ${mb("live rss no streams")} → ${mb("live rss streams")} MB)` +
      (heap.length > 0
        ? `; V8 heap ${formatNumber(heap[0] as number)} kB a stream (${mb("live heap no streams")} → ${mb("live heap streams")} MB)`
        : ""),
    goal: "none set (reported)",
    verdict: "reported",
  });
  const { delivery } = result;
  const missed = delivery.missing > 0 ? `; ${delivery.missing} of ${delivery.pairs} never arrived` : "";
  rows.push({
    figure: `Live streams: an admin's save (form post) to its change event on each of ${count} streams, p95 over ${result.saves} saves × ${count} streams`,
    measured:
      `p95 ${formatNumber(delivery.p95Ms)} ms; p50 ${formatNumber(delivery.p50Ms)} ms, max ${formatNumber(delivery.maxMs)} ms${missed}; ` +
      `save answered ${describe(values("live save answered ms"), "ms")}`,
    goal: "p95 ≤ 1 s",
    verdict:
      Number.isFinite(delivery.p95Ms) && delivery.p95Ms <= 1000 && delivery.missing === 0
        ? "meets goal"
        : "MISSES goal",
  });
  for (const page of PAGES) {
    const figure = `Anonymous \`${page}\` (page cache on), req/s with ${count} idle live streams open ÷ without (${CONNECTIONS} connections)`;
    if (!hasWrk) {
      rows.push({ figure, measured: "n/a", goal: "≥ 0.9", verdict: "skipped (wrk missing)" });
      continue;
    }
    const withStreams = values(`live ${page} with streams`);
    const without = values(`live ${page} without streams`);
    const ratio = median(withStreams) / median(without);
    rows.push({
      figure,
      measured: `${formatNumber(ratio)} (rounds ${range(values(`live ${page} with/without`))}); with ${describe(withStreams, "req/s")}, without ${describe(without, "req/s")}`,
      goal: "≥ 0.9",
      verdict: verdictOf(ratio, (value) => value >= 0.9),
    });
  }
  return rows;
}
