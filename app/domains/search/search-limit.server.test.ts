import { describe, expect, it } from "vitest";
import { SearchLimiter } from "./search-limit.server.ts";

describe("the searches' limit per address", () => {
  it("lets `max` searches through in a window, then answers the wait until it ends", () => {
    let now = 1_000;
    const limiter = new SearchLimiter(3, 60_000, () => now);
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([0, 0, 0]);
    expect(limiter.take("a")).toBe(60_000);
    expect(limiter.take("b")).toBe(0);
    now += 59_999;
    expect(limiter.take("a")).toBe(1);
    now += 1;
    expect(limiter.take("a")).toBe(0);
  });

  it("keeps at most `maxKeys` addresses, forgetting ended windows first, then the oldest", () => {
    let now = 0;
    const limiter = new SearchLimiter(1, 1_000, () => now, 2);
    limiter.take("a");
    limiter.take("b");
    // "c" makes room by forgetting the oldest ("a"), whose window has not ended: it may search again.
    limiter.take("c");
    expect(limiter.take("a")).toBe(0);
    expect(limiter.take("c")).toBeGreaterThan(0);
    now = 5_000;
    expect(limiter.take("b")).toBe(0);
  });
});
