import fs from "node:fs";
import { getLogger } from "./logger.server.ts";

/**
 * Everything under DATA_DIR is private: the database, the auth secret, originals and unwatermarked pictures,
 * backups. Only the user the site runs as reads it (it serves the files itself), so directories are 0700 and files
 * 0600, whatever the umask of the shell or service manager that started the process.
 *
 * The process's umask becomes 0o077, so that every file it creates from now on (database, WAL, uploads, media,
 * temp files, backups, the outbox) is born private; DATA_DIR itself and an SQLite database made before this
 * (or by another tool) are set explicitly, because an umask does not change what exists. Called once the server's
 * build is done (build/ stays readable to a proxy serving its assets), and by the command line.
 */
export function protectDataDir(dataDir: string): void {
  process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  restrictMode(dataDir, 0o700);
}

/** The SQLite database and its WAL and shared-memory files: 0600. */
export function protectSqliteFiles(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) restrictMode(path, 0o600);
}

function restrictMode(path: string, mode: number): void {
  try {
    if ((fs.statSync(path).mode & 0o777) !== mode) fs.chmodSync(path, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    // A directory mounted from elsewhere may belong to another user: say so once, and go on.
    getLogger().warn({ path, mode: mode.toString(8), code }, "Could not make a data file private");
  }
}
