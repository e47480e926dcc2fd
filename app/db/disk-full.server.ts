/**
 * What each database says when its disk is full: better-sqlite3's SQLITE_FULL (SQLite maps ENOSPC on its files to
 * it), PostgreSQL's SQLSTATE 53100 (disk_full: a table or index could not grow, a temporary file not be written).
 */
const DISK_FULL_CODES = new Set(["SQLITE_FULL", "53100"]);

/**
 * Whether a write failed because the database's disk is full (causes are followed). The write's transaction was
 * rolled back, so nothing of it was kept: the request is refused like an upload on a full disk (507), not a fault.
 */
export function isDatabaseFull(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && DISK_FULL_CODES.has(code)) return true;
    current = current.cause;
  }
  return false;
}
