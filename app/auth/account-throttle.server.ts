import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";

/**
 * Failed sign-ins per account, in the database so that they survive a restart and hold across processes. The
 * per-address limit (rate-limit.server.ts) does not stop guessing spread over many addresses; this does.
 *
 * The balance (docs/decisions/004-account-protection.md): no hard lock-out, which would let anyone keep the owner
 * out by typing wrong passwords for their address. The first failures are free (typos); after that each failure
 * makes the account wait before the next password is checked, twice as long each time, never more than a few
 * minutes. About 20 passwords an hour can be tried against one account however many addresses are used (ASVS
 * 2.2.1 allows at most 100); the owner waits at most MAX_DELAY_MS, and a successful sign-in clears the count.
 */
export const FREE_FAILURES = 5;
export const FIRST_DELAY_MS = 15_000;
export const MAX_DELAY_MS = 5 * 60_000;
/** Failures are forgotten after an hour without one. */
export const FAILURE_MEMORY_MS = 60 * 60_000;

/** How long the account waits after its `failures`-th failure in a row. */
export function delayAfterFailures(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - FREE_FAILURES - 1));
}

function timeOf(value: string | Date | null): number {
  if (value === null) return 0;
  return (value instanceof Date ? value : new Date(value)).getTime();
}

/**
 * Counts a sign-in attempt for `account` (the normalised e-mail, whether or not such an account exists, so that
 * the answer tells nothing about which do) before its password is checked: attempts sent at once cannot all slip
 * through while the slow check runs. Returns the wait in milliseconds when the account must wait first (nothing
 * is counted then), or 0 when the password may be checked. A success is to call `clearAccountFailures`.
 */
export async function beginAccountAttempt(db: Kysely<Database>, account: string, at?: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto("sign_in_failures")
      .values({ account, failures: 0, last_failure_at: at ?? new Date(), locked_until: null })
      .onConflict((oc) => oc.column("account").doNothing())
      .execute();
    // Touching the row locks it (a row lock on PostgreSQL, the write lock on SQLite): concurrent attempts for one
    // account are counted one after the other, each seeing the ones before.
    await trx
      .updateTable("sign_in_failures")
      .set((eb) => ({ failures: eb.ref("failures") }))
      .where("account", "=", account)
      .execute();
    const row = await trx
      .selectFrom("sign_in_failures")
      .select(["failures", "last_failure_at", "locked_until"])
      .where("account", "=", account)
      .executeTakeFirstOrThrow();
    // The time after the lock: an attempt that waited for another one's commit must not see its wait as longer.
    const now = at ?? new Date();
    const wait = timeOf(row.locked_until) - now.getTime();
    if (wait > 0) return wait;
    const forgotten = now.getTime() - timeOf(row.last_failure_at) >= FAILURE_MEMORY_MS;
    const failures = (forgotten ? 0 : row.failures) + 1;
    const delay = delayAfterFailures(failures);
    await trx
      .updateTable("sign_in_failures")
      .set({ failures, last_failure_at: now, locked_until: delay > 0 ? new Date(now.getTime() + delay) : null })
      .where("account", "=", account)
      .execute();
    return 0;
  });
}

/** After a successful sign-in: the account's failures are forgotten. */
export async function clearAccountFailures(db: Kysely<Database>, account: string): Promise<void> {
  await db.deleteFrom("sign_in_failures").where("account", "=", account).execute();
}

/** Drops the rows of accounts without a failure for an hour (so that guessed addresses do not pile up). */
export async function sweepAccountFailures(db: Kysely<Database>, now = new Date()): Promise<void> {
  await db
    .deleteFrom("sign_in_failures")
    .where("last_failure_at", "<", new Date(now.getTime() - FAILURE_MEMORY_MS))
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", now)]))
    .execute();
}
