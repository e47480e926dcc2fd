import { sql } from "kysely";
import type { AppDatabase } from "./database.server.ts";

/**
 * The key of the advisory lock the starts of Vitrine take on PostgreSQL ("vitrine" in ASCII). Kysely's Migrator
 * takes its own (3853314791062309107) around the migrations alone; this one is another, held around more.
 */
const START_LOCK_KEY = "33329996108492389";

/**
 * Runs `work` (migrating, the backup before it, the first settings, the setup code) while no other process starting
 * on the same PostgreSQL database does the same: several instances started at once take turns, and each after the
 * first finds the database migrated and set up. Kysely's Migrator already serialises the migrations themselves (a
 * session-level advisory lock, the state read after it), but not what comes around them: every instance would take
 * a pre-migration backup while another migrates, and each would make its own admin setup code.
 *
 * A session-level lock on one connection of the pool, held for the whole of `work` (which uses other connections),
 * rather than a transaction-level one: the Migrator runs in transactions of its own. The lock goes with the
 * connection, so a process that dies while holding it frees it. `onWait` is called when another process holds it.
 * On SQLite nothing is locked: one file, and its writers already wait for each other.
 */
export async function withStartLock<T>(
  database: AppDatabase,
  work: () => Promise<T>,
  onWait: () => void = () => {},
): Promise<T> {
  if (database.kind !== "postgres") return work();
  return database.db.connection().execute(async (connection) => {
    const tried = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(${START_LOCK_KEY}::bigint) as locked`.execute(connection);
    if (!tried.rows[0]?.locked) {
      onWait();
      await sql`select pg_advisory_lock(${START_LOCK_KEY}::bigint)`.execute(connection);
    }
    try {
      return await work();
    } finally {
      // A connection lost meanwhile took the lock with it; the work's own error is the one to report.
      await sql`select pg_advisory_unlock(${START_LOCK_KEY}::bigint)`.execute(connection).catch(() => {});
    }
  });
}
