import { describe, expect, it } from "vitest";
import { FailedAttemptLimiter } from "./rate-limit.server.ts";

function limiter(maxFailures = 3, windowMs = 60_000) {
  const clock = { now: 1_000_000 };
  return { clock, limiter: new FailedAttemptLimiter(maxFailures, windowMs, () => clock.now) };
}

describe("failed attempt limiter", () => {
  it("lets an address try until it reaches the limit", () => {
    const { limiter: l } = limiter(3);
    l.recordFailure("10.0.0.1");
    l.recordFailure("10.0.0.1");
    expect(l.retryAfterMs("10.0.0.1")).toBe(0);

    l.recordFailure("10.0.0.1");

    expect(l.retryAfterMs("10.0.0.1")).toBe(60_000);
  });

  it("counts down to the end of the window, then forgives", () => {
    const { clock, limiter: l } = limiter(2, 60_000);
    l.recordFailure("a");
    clock.now += 10_000;
    l.recordFailure("a");

    // The window started with the first failure.
    expect(l.retryAfterMs("a")).toBe(50_000);
    clock.now += 49_999;
    expect(l.retryAfterMs("a")).toBe(1);
    clock.now += 1;
    expect(l.retryAfterMs("a")).toBe(0);
  });

  it("starts a fresh count after the window", () => {
    const { clock, limiter: l } = limiter(2, 60_000);
    l.recordFailure("a");
    clock.now += 60_000;

    l.recordFailure("a");

    expect(l.retryAfterMs("a")).toBe(0);
  });

  it("keeps addresses apart", () => {
    const { limiter: l } = limiter(1);
    l.recordFailure("a");
    expect(l.retryAfterMs("a")).toBeGreaterThan(0);
    expect(l.retryAfterMs("b")).toBe(0);
  });

  it("counts attempts up front, so attempts sent at once cannot all get through", () => {
    const { limiter: l } = limiter(3);
    const started = Array.from({ length: 10 }, () => l.begin("a"));

    expect(started.filter((wait) => wait === 0)).toHaveLength(3);
    expect(started.slice(3).every((wait) => wait > 0)).toBe(true);
  });

  it("a success forgives only its own attempt, not the address's earlier failures", () => {
    const { limiter: l } = limiter(3);
    l.begin("a");
    l.begin("a");
    l.begin("a");
    l.forgive("a");
    expect(l.retryAfterMs("a")).toBe(0);

    expect(l.begin("a")).toBe(0);
    expect(l.retryAfterMs("a")).toBeGreaterThan(0);
  });

  it("forgives nothing for an address it does not know", () => {
    const { limiter: l } = limiter(1);
    l.forgive("b");
    expect(l.begin("b")).toBe(0);
    expect(l.begin("b")).toBeGreaterThan(0);
  });

  it("keeps at most its limit of addresses, however many fail within one window, forgetting the oldest", () => {
    const clock = { now: 1_000_000 };
    const l = new FailedAttemptLimiter(1, 60_000, () => clock.now, 100);
    for (let index = 0; index < 1000; index++) l.recordFailure(`10.0.${index >> 8}.${index & 255}`);
    expect(l.size).toBeLessThanOrEqual(100);
    // The latest are still counted, the first are forgotten.
    expect(l.retryAfterMs("10.0.3.231")).toBe(60_000);
    expect(l.retryAfterMs("10.0.0.0")).toBe(0);
  });
});
