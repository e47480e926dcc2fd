import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeProbe, lastProbe, littleMeanMs, pausesByKind } from "./latency-tail.ts";

describe("the latency tail's loop probe", () => {
  it("reports, on SIGUSR2, how late the loop ran and the collections since the last report", () => {
    // A process that blocks its running loop for 60 ms, collects twice, then asks the preloaded probe twice.
    const script = `
      setTimeout(() => {
        const until = Date.now() + 60; while (Date.now() < until) {}
        globalThis.gc(); globalThis.gc();
        setTimeout(() => { process.kill(process.pid, "SIGUSR2"); setTimeout(() => process.kill(process.pid, "SIGUSR2"), 50); }, 50);
        setTimeout(() => {}, 300);
      }, 20);`;
    const result = spawnSync(
      process.execPath,
      ["--expose-gc", "--import", path.resolve(import.meta.dirname, "loop-probe.mjs"), "-e", script],
      { encoding: "utf8", timeout: 10_000 },
    );
    const first = lastProbe(result.stderr.slice(0, result.stderr.indexOf("\n") + 1));
    const second = lastProbe(result.stderr);
    expect(first?.delay.max).toBeGreaterThanOrEqual(40);
    expect(pausesByKind(first?.pauses ?? []).find((entry) => entry.kind === "mark-sweep-compact")?.count).toBe(2);
    // The second report starts afresh: no blocked loop, no forced collection.
    expect(second?.delay.max).toBeLessThan(25);
    expect(second?.pauses.filter((pause) => pause.kind === 4)).toEqual([]);
  });

  it("sums the pauses by kind and says them per second", () => {
    const probe = {
      delay: { p50: 5.5, p99: 11.5, max: 55.2 },
      pauses: [
        { kind: 1, ms: 0.5 },
        { kind: 4, ms: 7.8 },
        { kind: 1, ms: 0.9 },
      ],
    };
    expect(pausesByKind(probe.pauses)).toEqual([
      { kind: "scavenge", count: 2, totalMs: 1.4, maxMs: 0.9 },
      { kind: "mark-sweep-compact", count: 1, totalMs: 7.8, maxMs: 7.8 },
    ]);
    expect(describeProbe(probe, 2)).toBe(
      "loop late by p50 5.50 ms, p99 11.5 ms, max 55.2 ms; GC: scavenge 2× (0.700 ms a second, longest 0.900 ms), mark-sweep-compact 1× (3.90 ms a second, longest 7.80 ms)",
    );
  });

  it("gives the least mean wait a closed loop of that many connections allows at that throughput", () => {
    // 50 connections answered 5,000 times a second: each waits 10 ms on average.
    expect(littleMeanMs(50, 5_000)).toBe(10);
    expect(littleMeanMs(10, 20_000)).toBe(0.5);
  });
});
