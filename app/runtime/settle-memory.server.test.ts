import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ROOT } from "#tests/support/server-process.ts";
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

describe("the young generation after settling", () => {
  it("stays as large as npm start sets it, so that a busy site does not collect five times as often", () => {
    // npm start's own Node flags. A memory-reducing collection shrinks V8's young generation to its least (1 MB), and
    // a server's short-lived garbage never grows it back: under load the settled process then scavenged every
    // ~1.8 MB instead of every ~12 MB (210 against 32 scavenges in 5 s of cached /home, measured side by side).
    const start = (
      JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }
    ).scripts.start;
    const words = start.split(/\s+/);
    const flags = words.slice(1, words.indexOf("server.js"));
    const semiSpaceMb = Number(/--max-semi-space-size=(\d+)/.exec(start)?.[1]);
    const script = `
      const v8 = require("node:v8");
      const youngMb = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size / 1048576;
      let kept = Array.from({ length: 200000 }, (_, i) => ({ i, text: "x" + i }));
      kept = null;
      globalThis.gc({ type: "major", execution: "sync", flavor: "last-resort" });
      let junk;
      for (let i = 0; i < 5e6; i++) junk = { i, text: "y" };
      process.stdout.write(String(youngMb()));`;
    const run = spawnSync(process.execPath, [...flags, "-e", script], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(semiSpaceMb).toBeGreaterThan(0);
    expect(Number(run.stdout)).toBeGreaterThanOrEqual(semiSpaceMb);
  });
});

describe("settling the memory when the site falls quiet", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("collects once, when the start's work is done and the site is first quiet, never during or after a burst", () => {
    vi.useFakeTimers();
    let requests = 0;
    const settle = vi.fn(() => true);
    startQuietSettling({ everyMs: 1000, settle, requestCount: () => requests });
    // The first requests right after the start: no collection while they keep coming.
    for (let second = 0; second < 3; second++) {
      requests += 40;
      vi.advanceTimersByTime(1000);
    }
    expect(settle).not.toHaveBeenCalled();
    // Quiet: the start's garbage collected, one look later.
    vi.advanceTimersByTime(1000);
    expect(settle).toHaveBeenCalledTimes(1);
    // A later burst, then quiet: no second collection (a settled process serves the next burst far worse).
    for (let second = 0; second < 5; second++) {
      requests += 40;
      vi.advanceTimersByTime(1000);
    }
    vi.advanceTimersByTime(20_000);
    expect(settle).toHaveBeenCalledTimes(1);
  });

  it("stops looking when stopped before it collected", () => {
    vi.useFakeTimers();
    const settle = vi.fn(() => true);
    const stop = startQuietSettling({ everyMs: 1000, settle, requestCount: () => 0 });
    vi.advanceTimersByTime(500);
    stop();
    vi.advanceTimersByTime(10_000);
    expect(settle).not.toHaveBeenCalled();
  });
});
