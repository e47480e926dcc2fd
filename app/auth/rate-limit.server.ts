/**
 * Counts failed sign-ins and sign-ups per client address in a fixed window.
 * In memory: this is a single-process server, and a restart forgiving past failures is acceptable.
 */
export class FailedAttemptLimiter {
  readonly #attempts = new Map<string, { failures: number; resetAt: number }>();

  constructor(
    readonly maxFailures: number,
    readonly windowMs: number = 15 * 60 * 1000,
    private readonly now: () => number = Date.now,
    /**
     * The most addresses counted at once (about 100 bytes each). Addresses are the visitor's to choose (a
     * network's worth of IPv6 addresses): beyond this the oldest counts are forgotten, not the memory.
     */
    readonly maxAddresses = 50_000,
  ) {}

  /** How many addresses are counted now. */
  get size(): number {
    return this.#attempts.size;
  }

  /** Milliseconds until the address may try again, or 0 when it may try now. */
  retryAfterMs(key: string): number {
    const entry = this.#current(key);
    return entry && entry.failures >= this.maxFailures ? entry.resetAt - this.now() : 0;
  }

  recordFailure(key: string): void {
    const entry = this.#current(key);
    if (entry) entry.failures += 1;
    else this.#attempts.set(key, { failures: 1, resetAt: this.now() + this.windowMs });
    if (this.#attempts.size > this.maxAddresses) this.#prune();
  }

  /**
   * Counts an attempt before it is checked, so that many attempts sent at once cannot all slip through
   * while the slow password check runs. Returns the wait in milliseconds when the address is blocked
   * (nothing is counted then), or 0 when the attempt may go ahead.
   */
  begin(key: string): number {
    const wait = this.retryAfterMs(key);
    if (wait === 0) this.recordFailure(key);
    return wait;
  }

  /** Takes back one attempt counted by `begin` that turned out not to be a failure (a success, a typo). */
  forgive(key: string): void {
    const entry = this.#current(key);
    if (!entry) return;
    entry.failures -= 1;
    if (entry.failures <= 0) this.#attempts.delete(key);
  }

  #current(key: string) {
    const entry = this.#attempts.get(key);
    if (entry && entry.resetAt <= this.now()) {
      this.#attempts.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Drops expired counts, then, if still too many, the oldest (a Map keeps insertion order) down to 90 %. */
  #prune() {
    const now = this.now();
    for (const [key, entry] of this.#attempts) if (entry.resetAt <= now) this.#attempts.delete(key);
    if (this.#attempts.size <= this.maxAddresses) return;
    const keep = Math.floor(this.maxAddresses * 0.9);
    for (const key of this.#attempts.keys()) {
      if (this.#attempts.size <= keep) break;
      this.#attempts.delete(key);
    }
  }
}
