import { spawn } from "node:child_process";
import { request } from "#tests/support/server-process.ts";
import { pinned } from "./processes.ts";

export type WrkResult = {
  requestsPerSecond: number;
  /** Latency percentiles in milliseconds. */
  p50Ms: number;
  /** wrk prints no 95th percentile of its own: NaN unless a script's `done` writes a `95%` line (search.ts). */
  p95Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses outside 2xx/3xx and socket errors: a run with any of them did not measure the page. */
  non2xx: number;
  socketErrors: number;
};

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function duration(text: string | undefined): number {
  const match = text?.match(/^([\d.]+)(us|ms|s|m)$/);
  if (!match) return Number.NaN;
  return Number(match[1]) * (UNIT_MS[match[2] as string] ?? Number.NaN);
}

/** The figures of `wrk --latency` output. */
export function parseWrk(output: string): WrkResult {
  const percentile = (p: number) => duration(output.match(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m"))?.[1]);
  const socket = output.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    requestsPerSecond: Number(output.match(/^Requests\/sec:\s+([\d.]+)/m)?.[1] ?? Number.NaN),
    p50Ms: percentile(50),
    p95Ms: percentile(95),
    p99Ms: percentile(99),
    requests: Number(output.match(/^\s+(\d+) requests in /m)?.[1] ?? Number.NaN),
    non2xx: Number(output.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    socketErrors: socket ? socket.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0,
  };
}

export type WrkOptions = {
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** A wrk Lua script (its path), e.g. one that chooses each request's path and headers. */
  script?: string;
};

/**
 * A run of the bench's rounds (bench.ts `load`): wrk on that URL, kept in the run's record under its label and
 * round, its errors reported as problems.
 */
export type LoadRun = (
  label: string,
  round: number,
  url: string,
  connections: number,
  extra?: Partial<WrkOptions>,
) => Promise<WrkResult>;

/** One wrk run (one thread, on the load generator's core); fails when the output has no figures. */
export function runWrk(url: string, options: WrkOptions): Promise<WrkResult> {
  const args = ["-t1", `-c${options.connections}`, `-d${options.seconds}s`, "--latency"];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push("-H", `${name}: ${value}`);
  if (options.script) args.push("-s", options.script);
  args.push(url);
  const [command, commandArgs] = pinned("load", "wrk", args);
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const result = parseWrk(output);
      if (code !== 0 || Number.isNaN(result.requestsPerSecond)) {
        reject(new Error(`wrk ${args.join(" ")} failed (${code}):\n${output}`));
      } else {
        resolve(result);
      }
    });
  });
}

/** One wrk run of the bench, as its --json file lists them. */
export type WrkRun = { label: string; round: number; url: string; connections: number; result: WrkResult };

/** The bench's `load` (scripts/bench.ts): one wrk run of `seconds`, noted in `runs`, its errors in `problems`. */
export function wrkLoader(runs: WrkRun[], problems: string[], seconds: number) {
  return async (
    label: string,
    round: number,
    url: string,
    connections: number,
    extra: Partial<WrkOptions> = {},
  ): Promise<WrkResult> => {
    // The last run's queue drained first: wrk closes its connections when its time is up, but the server still
    // answers what it had read, and a run started meanwhile (a 1-second smoke run above all) would time that backlog
    // instead of its own requests, or see none of its own answered. One answered request on a new connection waits it
    // out.
    await request(url).catch(() => null);
    const result = await runWrk(url, { connections, seconds, ...extra });
    runs.push({ label, round, url, connections, result });
    // A run with errors measured something else than the page (an error page, refused connections).
    if (result.non2xx > 0 || result.socketErrors > 0) {
      problems.push(
        `${label}, round ${round}: ${result.non2xx} non-2xx responses, ${result.socketErrors} socket errors`,
      );
    }
    return result;
  };
}
