import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";

/**
 * Counts attempts per key (a client address, an e-mail address) in a fixed window that starts with the first one:
 * failed sign-ins and sign-ups per address (the runtime's authLimiter), reset requests per e-mail address
 * (recovery-limit.server.ts), the contact form's limits and spent tokens (contact-guard.server.ts).
 *
 * In the database (`attempt_counts`, migration 0017), not a process's memory: with two server processes on one
 * database an attacker would otherwise get the limit twice, and a restart would forgive them. Every change is one
 * statement, so attempts sent at once, to one process or several, are counted one after the other (a row lock on
 * PostgreSQL, the write lock on SQLite) and exactly `maxFailures` get through. Rows of ended windows are swept by
 * a background task (`startAttemptCountSweep`); an ended window's row is also reused in place by the next attempt.
 */
export class FailedAttemptLimiter {
  private readonly db: Kysely<Database>;
  /** Which limit: keeps the counts of different limits on one key (a client address) apart. */
  readonly scope: string;
  readonly maxFailures: number;
  readonly windowMs: number;
  /** The clock of every window (injected by tests); each process's own, so servers' clocks must agree (NTP). */
  private readonly now: () => number;

  constructor(
    db: Kysely<Database>,
    scope: string,
    maxFailures: number,
    windowMs: number = 15 * 60 * 1000,
    now: () => number = Date.now,
  ) {
    this.db = db;
    this.scope = scope;
    this.maxFailures = maxFailures;
    this.windowMs = windowMs;
    this.now = now;
  }

  /** Milliseconds until the key may try again, or 0 when it may try now. */
  async retryAfterMs(key: string): Promise<number> {
    const now = this.now();
    const row = await this.db
      .selectFrom("attempt_counts")
      .select("reset_at")
      .where("scope", "=", this.scope)
      .where("key", "=", key)
      .where("failures", ">=", this.maxFailures)
      .where("reset_at", ">", new Date(now))
      .executeTakeFirst();
    return row ? Math.max(0, timeOf(row.reset_at) - now) : 0;
  }

  /** Counts one attempt, whatever the count (the caller has checked `retryAfterMs`, or does not care). */
  async recordFailure(key: string): Promise<void> {
    await this.#count(key, Number.POSITIVE_INFINITY);
  }

  /**
   * Counts an attempt before it is checked, so that many attempts sent at once cannot all slip through while
   * the slow password check runs. Returns the wait in milliseconds when the key is blocked (nothing is counted
   * then), or 0 when the attempt may go ahead. `windowEndsAt` (ms) sets the end of a window this attempt starts,
   * instead of `windowMs` from now (a contact form's token is spent until the token itself expires).
   */
  async begin(key: string, windowEndsAt?: number): Promise<number> {
    // A refusal reads the window's end after the counting statement refused; should that window end (or be
    // forgiven) in between, the key is no longer blocked and the attempt is counted afresh.
    for (let round = 0; round < 3; round++) {
      if (await this.#count(key, this.maxFailures, windowEndsAt)) return 0;
      const wait = await this.retryAfterMs(key);
      if (wait > 0) return wait;
    }
    // Refused three times, and each time freed (forgiven, or its window ended) before the wait was read: under
    // such churn for one key, a short wait is the honest answer.
    return 1000;
  }

  /** Takes back one attempt counted by `begin` that turned out not to be a failure (a success, a typo). */
  async forgive(key: string): Promise<void> {
    const now = new Date(this.now());
    await this.db
      .updateTable("attempt_counts")
      .set((eb) => ({ failures: eb("failures", "-", 1) }))
      .where("scope", "=", this.scope)
      .where("key", "=", key)
      .where("reset_at", ">", now)
      .where("failures", ">", 0)
      .execute();
    // All forgiven: the row goes, as if never counted (the next attempt starts a window of its own). A concurrent
    // attempt that counted in between raised the count above 0 and keeps it.
    await this.db
      .deleteFrom("attempt_counts")
      .where("scope", "=", this.scope)
      .where("key", "=", key)
      .where("failures", "<=", 0)
      .execute();
  }

  /**
   * One statement: a new key starts a window at 1; a key whose window ended (or whose count was all forgiven)
   * starts a new one at 1; a key under `limit` in its window goes up by one; a key at `limit` is left as it is.
   * Returns whether the attempt was counted. The upsert's row lock makes concurrent calls for one key wait for
   * each other, each seeing the counts before it.
   */
  async #count(key: string, limit: number, windowEndsAt?: number): Promise<boolean> {
    const nowMs = this.now();
    const now = new Date(nowMs);
    const resetAt = new Date(windowEndsAt ?? nowMs + this.windowMs);
    const counted = await this.db
      .insertInto("attempt_counts")
      .values({ scope: this.scope, key, failures: 1, reset_at: resetAt })
      .onConflict((oc) => {
        const conflict = oc.columns(["scope", "key"]).doUpdateSet((eb) => {
          const fresh = eb.or([eb("attempt_counts.reset_at", "<=", now), eb("attempt_counts.failures", "<=", 0)]);
          return {
            failures: eb
              .case()
              .when(fresh)
              .then(1)
              .else(eb("attempt_counts.failures", "+", 1))
              .end(),
            reset_at: eb.case().when(fresh).then(resetAt).else(eb.ref("attempt_counts.reset_at")).end(),
          };
        });
        if (!Number.isFinite(limit)) return conflict;
        return conflict.where((eb) =>
          eb.or([eb("attempt_counts.reset_at", "<=", now), eb("attempt_counts.failures", "<", limit)]),
        );
      })
      .returning("failures")
      .executeTakeFirst();
    // No row back: the update's condition refused it (the key is at its limit in its window).
    return counted !== undefined;
  }
}

/**
 * Failed sign-ins and sign-ups (and the account pages' password checks) per client address: AUTH_MAX_FAILED_ATTEMPTS
 * per 15 minutes. Made once by the runtime.
 */
export function createAuthLimiter(db: Kysely<Database>, maxFailures: number): FailedAttemptLimiter {
  return new FailedAttemptLimiter(db, "auth", maxFailures);
}

/** A stored time as milliseconds: ISO text on SQLite, a Date on PostgreSQL. */
function timeOf(value: string | Date): number {
  return (value instanceof Date ? value : new Date(value)).getTime();
}

/** Rows deleted per statement by the sweep: SQLite's write lock (every process's sign-ins wait for it) stays short. */
export const ATTEMPT_SWEEP_BATCH = 5_000;

/**
 * Deletes the rows of windows that have ended (they count nothing any more), a batch at a time; returns how many.
 * An attacker with many addresses leaves one row per address and limit, for at most its window and a sweep's
 * interval (docs/decisions/004-account-protection.md, addendum).
 */
export async function sweepAttemptCounts(
  db: Kysely<Database>,
  now = new Date(),
  batch = ATTEMPT_SWEEP_BATCH,
): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db
      .deleteFrom("attempt_counts")
      .where((eb) =>
        eb(
          eb.refTuple("scope", "key"),
          "in",
          eb
            .selectFrom("attempt_counts")
            .select(["scope", "key"])
            .where("reset_at", "<=", now)
            .limit(batch)
            .$asTuple("scope", "key"),
        ),
      )
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    if (deleted < batch) return total;
  }
}

/** How often ended windows are swept: the table holds at most about a window and this of attempts' keys. */
export const ATTEMPT_SWEEP_INTERVAL_MS = 10 * 60_000;

/** Sweeps ended windows now and every ATTEMPT_SWEEP_INTERVAL_MS; returns the stop. */
export function startAttemptCountSweep(options: {
  db: Kysely<Database>;
  onError: (error: unknown) => void;
}): () => void {
  const run = () => void sweepAttemptCounts(options.db).catch(options.onError);
  run();
  const timer = setInterval(run, ATTEMPT_SWEEP_INTERVAL_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}
