import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it, vi } from "vitest";
import { settleMemory, startQuietSettling } from "./settle-memory.server.ts";

describe("settling the memory after the start", () => {
  const exposed = (globalThis as { gc?: unknown }).gc;
  afterEach(() => {
    (globalThis as { gc?: unknown }).gc = exposed;
  });

  it("does nothing where Node runs without --expose-gc", () => {
    (globalThis as { gc?: unknown }).gc = undefined;
    expect(settleMemory()).toBe(false);
  });

  it("asks for the full collection that gives freed pages back to the system", () => {
    const collect = vi.fn();
    (globalThis as { gc?: unknown }).gc = collect;
    expect(settleMemory()).toBe(true);
    expect(collect).toHaveBeenCalledExactlyOnceWith({ type: "major", execution: "sync", flavor: "last-resort" });
  });

  it("is a collection this Node accepts and that gives memory back (a process with --expose-gc, as npm start)", () => {
    const script = `
      const junk = Array.from({ length: 200000 }, (_, i) => ({ i, text: "x".repeat(50) }));
      junk.length = 0;
      const before = process.memoryUsage().rss;
      globalThis.gc({ type: "major", execution: "sync", flavor: "last-resort" });
      process.stdout.write(String(before - process.memoryUsage().rss));`;
    const run = spawnSync(process.execPath, ["--expose-gc", "-e", script], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(Number(run.stdout)).toBeGreaterThan(0);
  });
});

describe("settling the memory when the site falls quiet", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("collects after the start, then once after each burst of requests, never while they keep coming", () => {
    vi.useFakeTimers();
    let requests = 0;
    const settle = vi.fn(() => true);
    const stop = startQuietSettling({ everyMs: 1000, settle, requestCount: () => requests });
    // The start's work: collected at the first quiet look.
    vi.advanceTimersByTime(1000);
    expect(settle).toHaveBeenCalledTimes(1);
    // Quiet: nothing more.
    vi.advanceTimersByTime(5000);
    expect(settle).toHaveBeenCalledTimes(1);
    // A burst that goes on for a while: no collection in the middle of it.
    for (let second = 0; second < 5; second++) {
      requests += 40;
      vi.advanceTimersByTime(1000);
    }
    expect(settle).toHaveBeenCalledTimes(1);
    // Quiet again: one collection, one look later.
    vi.advanceTimersByTime(1000);
    expect(settle).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10_000);
    expect(settle).toHaveBeenCalledTimes(2);
    stop();
    requests += 1;
    vi.advanceTimersByTime(10_000);
    expect(settle).toHaveBeenCalledTimes(2);
  });
});
