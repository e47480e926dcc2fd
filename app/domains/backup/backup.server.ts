import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import * as tar from "tar";
import type { AppDatabase } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { BACKUP_TABLES, toNeutralRow, UNBACKED_TABLES } from "./tables.server.ts";

/** What a backup archive says about itself (`manifest.json`, its first entry). */
export type BackupManifest = {
  format: "vitrine-backup";
  formatVersion: number;
  /** The version of Vitrine that wrote it. */
  appVersion: string;
  createdAt: string;
  /** The kind of database it was made from (it restores into either). */
  source: "sqlite" | "postgres";
  schema: { version: string | null; migrations: string[] };
  counts: { rows: Record<string, number>; files: number; fileBytes: number };
  /** Every file in the archive but the manifest, with its size and SHA-256. */
  entries: ManifestEntry[];
};

export type ManifestEntry = { path: string; size: number; sha256: string };

export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_NAME = "manifest.json";
const PAGE_SIZE = 1000;

/** The app's version, from package.json (the CLI and the server both run from the checkout). */
function appVersion(): string {
  try {
    const file = path.resolve(import.meta.dirname, "../../../package.json");
    return String(JSON.parse(fs.readFileSync(file, "utf8")).version ?? "unknown");
  } catch {
    return "unknown";
  }
}

/** Makes a directory only its owner can enter, whatever the umask. */
export async function makePrivateDir(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  await fsp.chmod(dir, 0o700);
}

/** Creates an empty file only its owner can read, whatever the umask; fails when it exists. */
async function createPrivateFile(file: string): Promise<void> {
  const handle = await fsp.open(file, "wx", 0o600);
  try {
    await handle.chmod(0o600);
  } finally {
    await handle.close();
  }
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Every regular file under `dir`, as paths relative to it with `/`, skipping `skip` names at the top. */
export async function listFiles(dir: string, skip: readonly string[] = []): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string) => {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(path.join(dir, relative), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const entry of entries) {
      if (relative === "" && skip.includes(entry.name)) continue;
      const child = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  await walk("");
  return found.sort();
}

/**
 * Puts every stored file into `target` as a hard link (a copy where links are impossible). The storage writes
 * a file under a temp name and renames it into place, and removes files by unlinking: a linked file keeps the
 * bytes it had, whatever happens to the storage meanwhile. Already linked names are kept (the second pass);
 * files gone since the listing are skipped. Two names for one file are copied, so that the archive holds
 * plain files only.
 */
async function linkStorage(storageRoot: string, target: string, seenInodes: Set<string>): Promise<void> {
  for (const relative of await listFiles(storageRoot, [".tmp"])) {
    const from = path.join(storageRoot, relative);
    const to = path.join(target, relative);
    try {
      const info = await fsp.stat(from);
      await fsp.mkdir(path.dirname(to), { recursive: true });
      const inode = `${info.dev}:${info.ino}`;
      if (seenInodes.has(inode)) {
        await fsp.copyFile(from, to, fs.constants.COPYFILE_EXCL);
        continue;
      }
      try {
        await fsp.link(from, to);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "EXDEV" && code !== "EPERM" && code !== "ENOTSUP") throw error;
        await fsp.copyFile(from, to, fs.constants.COPYFILE_EXCL);
      }
      seenInodes.add(inode);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST" || code === "ENOENT") continue;
      throw error;
    }
  }
}

/** The migrations applied to this database, by name. */
async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  try {
    const result = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    return result.rows.map((row) => row.name);
  } catch {
    return []; // never migrated
  }
}

/** Writes every table as `database/<table>.jsonl` (one neutral row a line, in key order); returns the counts. */
async function exportTables(db: Kysely<Database>, dir: string): Promise<Record<string, number>> {
  await fsp.mkdir(dir, { recursive: true });
  const present = new Map((await db.introspection.getTables()).map((table) => [table.name, table]));
  const known = new Set([...BACKUP_TABLES.map((table) => table.name), ...UNBACKED_TABLES]);
  const unknown = [...present.keys()].filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(`The database has tables the backup does not know (${unknown.join(", ")}); nothing was written`);
  }
  const counts: Record<string, number> = {};
  for (const table of BACKUP_TABLES) {
    if (!present.has(table.name)) continue;
    const handle = await fsp.open(path.join(dir, `${table.name}.jsonl`), "wx", 0o600);
    let count = 0;
    try {
      const order = sql.join(table.key.map((column) => sql.ref(column)));
      for (let offset = 0; ; offset += PAGE_SIZE) {
        const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}
          order by ${order} limit ${PAGE_SIZE} offset ${offset}`.execute(db);
        if (rows.length > 0) {
          await handle.write(rows.map((row) => `${JSON.stringify(toNeutralRow(table, row))}\n`).join(""));
        }
        count += rows.length;
        if (rows.length < PAGE_SIZE) break;
      }
    } finally {
      await handle.close();
    }
    counts[table.name] = count;
  }
  return counts;
}

export type BackupSource = {
  database: AppDatabase;
  /** DATA_DIR: the SQLite file (on SQLite) and `storage/` are read from it, the work folder made in `backups/`. */
  dataDir: string;
  sqliteFile?: string;
};

export type BackupResult = { file: string; size: number; manifest: BackupManifest };

/**
 * Writes one `.tar.gz` to `outFile` holding the database as it was at one moment, every stored file and a
 * manifest with the SHA-256 of each. Runs beside a serving site: the database is read from a snapshot (SQLite's
 * online backup API, or a repeatable-read transaction on PostgreSQL) and the files from hard links taken just
 * before and just after it (see docs/decisions/003-backup-format.md). The archive appears under its name only
 * once complete, readable by its owner only.
 */
export async function createBackup(source: BackupSource, outFile: string): Promise<BackupResult> {
  const { database, dataDir } = source;
  const storageRoot = path.join(dataDir, "storage");
  const workRoot = path.join(dataDir, "backups");
  await makePrivateDir(workRoot);
  const work = await fsp.mkdtemp(path.join(workRoot, ".work-"));
  await fsp.chmod(work, 0o700);
  const out = path.resolve(outFile);
  const partial = path.join(path.dirname(out), `.${path.basename(out)}.${randomBytes(6).toString("hex")}.partial`);
  try {
    const staged = path.join(work, "archive");
    const stagedStorage = path.join(staged, "storage");
    const databaseDir = path.join(staged, "database");
    await fsp.mkdir(stagedStorage, { recursive: true });
    const seenInodes = new Set<string>();
    await linkStorage(storageRoot, stagedStorage, seenInodes);

    let counts: Record<string, number>;
    let migrations: string[];
    if (database.kind === "sqlite") {
      const sqliteFile = source.sqliteFile ?? path.join(dataDir, "vitrine.sqlite");
      const snapshotFile = path.join(work, "snapshot.sqlite");
      const connection = new SQLite(sqliteFile, { fileMustExist: true });
      try {
        connection.pragma("busy_timeout = 5000");
        // All pages in one step: copied in steps, a backup starts over whenever the site writes in between, and
        // under steady writes it might never end. One step reads one moment (a few milliseconds per megabyte).
        await connection.backup(snapshotFile, { progress: () => 0x7fffffff });
      } finally {
        connection.close();
      }
      await linkStorage(storageRoot, stagedStorage, seenInodes);
      const snapshot = new Kysely<Database>({
        dialect: new SqliteDialect({ database: new SQLite(snapshotFile) }),
      });
      try {
        migrations = await appliedMigrations(snapshot);
        counts = await exportTables(snapshot, databaseDir);
      } finally {
        await snapshot.destroy();
      }
    } else {
      ({ counts, migrations } = await database.db
        .transaction()
        .setIsolationLevel("repeatable read")
        .setAccessMode("read only")
        .execute(async (trx) => {
          // The first statement fixes the snapshot every later one reads.
          const applied = await appliedMigrations(trx);
          await linkStorage(storageRoot, stagedStorage, seenInodes);
          return { migrations: applied, counts: await exportTables(trx, databaseDir) };
        }));
    }

    const entries: ManifestEntry[] = [];
    let fileBytes = 0;
    let files = 0;
    for (const relative of await listFiles(staged)) {
      const file = path.join(staged, relative);
      const size = (await fsp.stat(file)).size;
      entries.push({ path: relative, size, sha256: await sha256Of(file) });
      if (relative.startsWith("storage/")) {
        files++;
        fileBytes += size;
      }
    }
    const manifest: BackupManifest = {
      format: "vitrine-backup",
      formatVersion: BACKUP_FORMAT_VERSION,
      appVersion: appVersion(),
      createdAt: new Date().toISOString(),
      source: database.kind,
      schema: { version: migrations.at(-1) ?? null, migrations },
      counts: { rows: counts, files, fileBytes },
      entries,
    };
    await fsp.writeFile(path.join(staged, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });

    await fsp.mkdir(path.dirname(out), { recursive: true });
    await createPrivateFile(partial);
    await tar.create({ file: partial, gzip: true, cwd: staged, portable: true, strict: true }, [
      MANIFEST_NAME,
      "database",
      "storage",
    ]);
    await fsp.chmod(partial, 0o600);
    await fsp.rename(partial, out);
    return { file: out, size: (await fsp.stat(out)).size, manifest };
  } finally {
    await fsp.rm(partial, { force: true });
    await fsp.rm(work, { recursive: true, force: true });
  }
}
