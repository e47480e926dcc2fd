/**
 * Searches per client address (issue 22): at most `max` in a fixed window that starts with the first one. Kept in
 * the process's memory, unlike the sign-in limits (rate-limit.server.ts): a search writes nothing, and counting
 * each one in the database would make every search a write (SQLite's one writer) for a limit whose only job is to
 * keep one address from flooding the server. With several processes an address gets the limit once per process,
 * which is still a bound. The map is bounded too: at `maxKeys` addresses the ended windows go, then the oldest.
 */
export class SearchLimiter {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();

  readonly max: number;
  readonly windowMs: number;
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(max = 120, windowMs = 60_000, now: () => number = Date.now, maxKeys = 10_000) {
    this.max = max;
    this.windowMs = windowMs;
    this.now = now;
    this.maxKeys = maxKeys;
  }

  /** Counts one search; answers 0 when it may run, else the milliseconds until the address may search again. */
  take(key: string): number {
    const now = this.now();
    const window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      this.#forgetSome(now);
      this.#windows.set(key, { count: 1, resetAt: now + this.windowMs });
      return 0;
    }
    if (window.count >= this.max) return window.resetAt - now;
    window.count += 1;
    return 0;
  }

  #forgetSome(now: number) {
    if (this.#windows.size < this.maxKeys) return;
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
    // Still full (a flood of addresses): the oldest windows go first (a Map keeps insertion order).
    for (const key of this.#windows.keys()) {
      if (this.#windows.size < this.maxKeys) break;
      this.#windows.delete(key);
    }
  }
}
