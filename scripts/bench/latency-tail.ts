import { formatNumber } from "./stats.ts";

/*
 * What scripts/measure-latency-tail.ts reads from the server's loop probe (scripts/bench/loop-probe.mjs): how late
 * the event loop ran and which garbage collections paused it during one load run.
 */

export type LoopProbe = {
  /** How late a 1 ms timer fired, in ms: percentiles and the largest. */
  delay: { p50: number; p99: number; max: number };
  /** Every collection in the run: V8's kind (perf_hooks' NODE_PERFORMANCE_GC_* flags) and its pause. */
  pauses: { kind: number; ms: number }[];
};

const GC_KINDS: Record<number, string> = {
  1: "scavenge",
  2: "minor mark-sweep",
  4: "mark-sweep-compact",
  8: "incremental marking",
  16: "weak callbacks",
};

/**
 * The mean wait, in ms, of a closed loop of `connections` at that throughput (Little's law): every load-generator
 * connection sends its next request when its answer arrives, so no server of that throughput can average less.
 */
export function littleMeanMs(connections: number, requestsPerSecond: number): number {
  return (connections / requestsPerSecond) * 1000;
}

/** The probe's last line in a server's stderr since `from` (a character offset), or null when there is none. */
export function lastProbe(stderr: string, from = 0): LoopProbe | null {
  const lines = stderr.slice(from).match(/^LOOP-PROBE (.*)$/gm);
  const last = lines?.at(-1);
  return last ? (JSON.parse(last.slice("LOOP-PROBE ".length)) as LoopProbe) : null;
}

/** The pauses by kind: how many, their sum and the longest, in ms; the kinds in V8's order. */
export function pausesByKind(
  pauses: LoopProbe["pauses"],
): { kind: string; count: number; totalMs: number; maxMs: number }[] {
  const byKind = new Map<number, { count: number; totalMs: number; maxMs: number }>();
  for (const { kind, ms } of pauses) {
    const entry = byKind.get(kind) ?? { count: 0, totalMs: 0, maxMs: 0 };
    entry.count += 1;
    entry.totalMs += ms;
    entry.maxMs = Math.max(entry.maxMs, ms);
    byKind.set(kind, entry);
  }
  return [...byKind.entries()]
    .sort(([a], [b]) => a - b)
    .map(([kind, entry]) => ({ kind: GC_KINDS[kind] ?? `kind ${kind}`, ...entry }));
}

/** One line of the probe's figures for a run of `seconds`. */
export function describeProbe(probe: LoopProbe, seconds: number): string {
  const pauses = pausesByKind(probe.pauses)
    .map(
      (entry) =>
        `${entry.kind} ${entry.count}× (${formatNumber(entry.totalMs / seconds)} ms a second, longest ${formatNumber(entry.maxMs)} ms)`,
    )
    .join(", ");
  const { p50, p99, max } = probe.delay;
  return `loop late by p50 ${formatNumber(p50)} ms, p99 ${formatNumber(p99)} ms, max ${formatNumber(max)} ms; GC: ${pauses || "none"}`;
}
