import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it, vi } from "vitest";
import { settleMemory } from "./settle-memory.server.ts";

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
