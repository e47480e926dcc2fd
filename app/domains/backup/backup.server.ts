import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import type { AppDatabase } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { type FileStorage, StorageError } from "#app/domains/media/storage.server.ts";
import { listAllFiles } from "#app/domains/media/storage-copy.server.ts";
import { type ArchiveWriter, type ManifestEntry, openArchiveWriter } from "./archive-writer.server.ts";
import { BACKUP_TABLES, toNeutralRow, UNBACKED_TABLES } from "./tables.server.ts";

export type { ManifestEntry } from "./archive-writer.server.ts";

/** What a backup archive says about itself (`manifest.json`: its last entry since files are streamed in; readers take it wherever it is). */
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
  /** DATA_DIR: the SQLite file is read from it (on SQLite), the work folder made in `backups/`. */
  dataDir: string;
  sqliteFile?: string;
  /** Where the site keeps its files (DATA_DIR/storage or the bucket of STORAGE_URL): they are read through it. */
  storage: FileStorage;
};

export type BackupResult = { file: string; size: number; manifest: BackupManifest };

/**
 * Streams stored files into the archive, each as `storage/<key>`: those listed that are not in it yet (the second
 * pass adds only what appeared since the first). A file removed between the listing and its reading is left out.
 */
async function archiveStoredFiles(
  storage: FileStorage,
  archive: ArchiveWriter,
  archived: Map<string, ManifestEntry>,
): Promise<void> {
  for (const file of await listAllFiles(storage)) {
    if (archived.has(file.key)) continue;
    let stream: Readable;
    try {
      stream = await storage.readStream(file.key);
    } catch (error) {
      if (error instanceof StorageError && error.code === "not_found") continue;
      throw error;
    }
    archived.set(file.key, await archive.addStream(`storage/${file.key}`, stream, file.modifiedAt));
  }
}

/**
 * Writes one `.tar.gz` to `outFile` holding the database as it was at one moment, every stored file and a
 * manifest with the SHA-256 of each. Runs beside a serving site: the database is read from a snapshot (SQLite's
 * online backup API, or a repeatable-read transaction on PostgreSQL) and the files, through the storage (the disk
 * or a bucket alike), in one pass before it and one just after it for the files that appeared meanwhile (see
 * docs/decisions/003-backup-format.md). The files go into the archive as they are read, one at a time; the
 * manifest, which holds their checksums, comes last. The archive appears under its name only once complete,
 * readable by its owner only.
 */
export async function createBackup(source: BackupSource, outFile: string): Promise<BackupResult> {
  const { database, dataDir, storage } = source;
  const workRoot = path.join(dataDir, "backups");
  await makePrivateDir(workRoot);
  const work = await fsp.mkdtemp(path.join(workRoot, ".work-"));
  await fsp.chmod(work, 0o700);
  const out = path.resolve(outFile);
  const partial = path.join(path.dirname(out), `.${path.basename(out)}.${randomBytes(6).toString("hex")}.partial`);
  let archive: ArchiveWriter | null = null;
  try {
    const databaseDir = path.join(work, "database");
    await fsp.mkdir(path.dirname(out), { recursive: true });
    await createPrivateFile(partial);
    archive = openArchiveWriter(partial, work);
    const writer = archive;
    const files = new Map<string, ManifestEntry>();
    await archiveStoredFiles(storage, writer, files);

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
      await archiveStoredFiles(storage, writer, files);
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
          await archiveStoredFiles(storage, writer, files);
          return { migrations: applied, counts: await exportTables(trx, databaseDir) };
        }));
    }

    const entries = [...files.values()];
    const fileBytes = entries.reduce((sum, entry) => sum + entry.size, 0);
    for (const name of (await fsp.readdir(databaseDir)).sort()) {
      entries.push(await writer.addFile(`database/${name}`, path.join(databaseDir, name)));
    }
    const manifest: BackupManifest = {
      format: "vitrine-backup",
      formatVersion: BACKUP_FORMAT_VERSION,
      appVersion: appVersion(),
      createdAt: new Date().toISOString(),
      source: database.kind,
      schema: { version: migrations.at(-1) ?? null, migrations },
      counts: { rows: counts, files: files.size, fileBytes },
      entries: entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    };
    await writer.addBuffer(MANIFEST_NAME, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    await writer.finish();
    archive = null;
    await fsp.chmod(partial, 0o600);
    await fsp.rename(partial, out);
    return { file: out, size: (await fsp.stat(out)).size, manifest };
  } finally {
    await archive?.abort();
    await fsp.rm(partial, { force: true });
    await fsp.rm(work, { recursive: true, force: true });
  }
}
