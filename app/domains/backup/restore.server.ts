import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import readline from "node:readline";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { type AppDatabase, databaseKindOf, openDatabase } from "#app/db/database.server.ts";
import { type MigrationSet, migrateToLatest, migrateUpTo, siteMigrations } from "#app/db/migrations.server.ts";
import type { Database } from "#app/db/schema.ts";
import { type FileStorage, StorageError } from "#app/domains/media/storage.server.ts";
import { reindexAll } from "#app/domains/search-index/search-index.server.ts";
import { eachArchiveFile, RestoreError, verifyBackup } from "./archive-reader.server.ts";
import { BACKUP_FORMAT_VERSION, type BackupManifest } from "./backup.server.ts";
import { BACKUP_TABLES, type NeutralRow } from "./tables.server.ts";

export { RestoreError, verifyBackup } from "./archive-reader.server.ts";

export type RestoreTarget = {
  /** DATA_DIR: the SQLite file (without DATABASE_URL) and the work folder go here. */
  dataDir: string;
  databaseUrl?: string;
  /** Where the files go: DATA_DIR/storage, or the bucket of STORAGE_URL. It must hold no file. */
  storage: FileStorage;
  /** The storage as messages name it; the data folder's storage folder unless told. */
  storageName?: string;
  /** The site's migrations; tests pass another list to act out an older or newer version. */
  migrations?: MigrationSet;
  /** Called after each file written, for a command to show how far it is. */
  onProgress?: (progress: { done: number; total: number }) => void;
};

const INSERT_BATCH = 200;

/** Refuses a backup this version cannot read: a newer format, or a schema with migrations it does not know. */
function checkCompatible(manifest: BackupManifest, known: readonly string[]): void {
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new RestoreError(
      `The backup was written by a newer Vitrine (format ${manifest.formatVersion}, this one reads ${BACKUP_FORMAT_VERSION}); update Vitrine first. Nothing was restored.`,
    );
  }
  const unknown = manifest.schema.migrations.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new RestoreError(
      `The backup's database schema (${manifest.schema.version}) is newer than this Vitrine knows (${known.at(-1)}): update Vitrine first. Nothing was restored.`,
    );
  }
  const expected = known.slice(0, manifest.schema.migrations.length);
  if (expected.join("\n") !== manifest.schema.migrations.join("\n")) {
    throw new RestoreError(
      "The backup's database schema does not match this Vitrine's migrations. Nothing was restored.",
    );
  }
}

/** Tables in the target PostgreSQL database's schema (none for an empty one). */
async function postgresTables(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new RestoreError(
      `Cannot connect to the PostgreSQL database: ${(error as Error).message}. Nothing was restored.`,
    );
  }
  try {
    const result = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = current_schema()",
    );
    return result.rows.map((row) => row.table_name);
  } finally {
    await client.end().catch(() => {});
  }
}

const SQLITE_HEADER = "SQLite format 3\0";

/**
 * Whether an SQLite file holds anything, read from its first page by the file format's rules rather than by
 * opening it: even a read-only connection creates the -wal and -shm files of a WAL database, and a refused
 * restore writes nothing. Page 1 is the schema table's root: a leaf (type 13) with no cells means no table,
 * index, view or trigger; an interior page means many. A file that is not an SQLite database counts as content.
 */
async function sqliteHoldsSomething(file: string): Promise<boolean> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  try {
    const head = Buffer.alloc(108);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    // Created but never written (SQLite writes the header with the first change).
    if (bytesRead === 0) return false;
    if (bytesRead < head.length || head.toString("latin1", 0, 16) !== SQLITE_HEADER) return true;
    const pageType = head[100];
    const cells = head.readUInt16BE(103);
    return !(pageType === 13 && cells === 0);
  } finally {
    await handle.close();
  }
}

/** A write-ahead log with frames: a running site (or one that crashed) whose changes may not be in the file yet. */
async function hasWriteAheadLog(file: string): Promise<boolean> {
  try {
    return (await fsp.stat(`${file}-wal`)).size > 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Refuses a target that holds anything: a restore never merges into or replaces a site. */
async function checkEmptyTarget(target: RestoreTarget, sqliteFile: string): Promise<void> {
  if (databaseKindOf(target.databaseUrl) === "postgres") {
    const tables = await postgresTables(target.databaseUrl as string);
    if (tables.length > 0) {
      throw new RestoreError(
        `The PostgreSQL database is not empty (${tables.length} tables): restore only into an empty one. Nothing was restored.`,
      );
    }
  } else if ((await sqliteHoldsSomething(sqliteFile)) || (await hasWriteAheadLog(sqliteFile))) {
    throw new RestoreError(
      `The data folder's database (${sqliteFile}) is not empty (or a site is running on it): restore only into an empty data folder. Nothing was restored.`,
    );
  }
  let files = 0;
  for (const area of ["public/", "private/"]) files += (await target.storage.list(area, { limit: 10_000 })).length;
  if (files > 0) {
    throw new RestoreError(
      `${storageNameOf(target)} is not empty (${files >= 10_000 ? "10,000 or more" : files} files): restore only into an empty one. Nothing was restored.`,
    );
  }
}

function storageNameOf(target: RestoreTarget): string {
  return target.storageName ?? `The data folder's storage (${path.join(path.resolve(target.dataDir), "storage")})`;
}

/**
 * Reads the archive once more, as it is written: each stored file straight into the storage (no copy of it on the
 * disk first, whichever storage it is), the database's files into `databaseDir`, each checked against the manifest
 * as it passes. Every key written is put in `written` first, so that a failure can remove them all.
 */
async function unpack(
  archive: string,
  manifest: BackupManifest,
  target: RestoreTarget,
  databaseDir: string,
  written: string[],
): Promise<void> {
  const expected = new Map(manifest.entries.map((entry) => [entry.path, entry]));
  const total = manifest.entries.filter((entry) => entry.path.startsWith("storage/")).length;
  let done = 0;
  let seen = 0;
  await eachArchiveFile(archive, async (name, body) => {
    const entry = expected.get(name);
    if (!entry) return; // the manifest, read and checked before
    seen++;
    const hash = createHash("sha256");
    let size = 0;
    const counted = Readable.from(
      (async function* () {
        for await (const chunk of body) {
          hash.update(chunk as Buffer);
          size += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
      })(),
    );
    if (name.startsWith("storage/")) {
      const key = name.slice("storage/".length);
      written.push(key);
      try {
        await target.storage.save(key, counted);
      } catch (error) {
        // Someone else's file under that name (the storage was empty when checked) is not this restore's to remove.
        if (error instanceof StorageError && error.code === "exists") written.pop();
        throw error;
      }
      target.onProgress?.({ done: ++done, total });
    } else {
      await pipeline(counted, fs.createWriteStream(path.join(databaseDir, path.basename(name)), { flags: "wx" }));
    }
    if (size !== entry.size || hash.digest("hex") !== entry.sha256) {
      throw new RestoreError(`${name} changed while restoring; nothing was restored.`);
    }
  });
  if (seen !== manifest.entries.length)
    throw new RestoreError("The archive changed while restoring; nothing was restored.");
}

/** Removes what a failed restore wrote into the storage; a failure to do so is added to the restore's own. */
async function removeWritten(target: RestoreTarget, written: string[], cause: unknown): Promise<unknown> {
  try {
    for (let start = 0; start < written.length; start += 1000) {
      await target.storage.remove(written.slice(start, start + 1000));
    }
    return cause;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return new Error(
      `${cause instanceof Error ? cause.message : String(cause)} The files it had written could not all be removed (${reason}): empty ${storageNameOf(target).replace(/^The/, "the")} before restoring again.`,
    );
  }
}

/** Inserts the rows of `database/<table>.jsonl` in batches. */
async function loadTable(db: Kysely<Database>, table: string, file: string): Promise<number> {
  // The backup's tables are only known at run time; their rows are checked against the schema by the database.
  const loose = db as unknown as Kysely<Record<string, NeutralRow>>;
  let batch: NeutralRow[] = [];
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await loose.insertInto(table).values(batch).execute();
    count += batch.length;
    batch = [];
  };
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    batch.push(JSON.parse(line) as NeutralRow);
    if (batch.length >= INSERT_BATCH) await flush();
  }
  await flush();
  return count;
}

/** Loads every table's rows (one transaction), then moves PostgreSQL's id sequences past the loaded ids. */
async function loadRows(database: AppDatabase, databaseDir: string, manifest: BackupManifest): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    for (const table of BACKUP_TABLES) {
      const file = path.join(databaseDir, `${table.name}.jsonl`);
      if (!fs.existsSync(file)) continue;
      const count = await loadTable(trx, table.name, file);
      const expected = manifest.counts.rows[table.name];
      if (expected !== undefined && expected !== count) {
        throw new Error(`${table.name}: ${count} rows loaded, the manifest says ${expected}`);
      }
    }
    if (database.kind === "postgres") {
      const serials = await sql<{ table_name: string; column_name: string }>`
        select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and column_default like 'nextval(%'`.execute(trx);
      for (const { table_name, column_name } of serials.rows) {
        await sql`select setval(pg_get_serial_sequence(${table_name}, ${column_name}),
          coalesce((select max(${sql.ref(column_name)}) from ${sql.table(table_name)}), 0) + 1, false)`.execute(trx);
      }
    }
  });
}

/** Removes what a failed restore made in an empty PostgreSQL database, leaving it empty again. */
async function emptyPostgres(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = current_schema()",
    );
    for (const row of rows) await client.query(`drop table if exists "${row.table_name}" cascade`);
    // The migrations' trigger functions (vitrine_notify_change, and one vitrine_event_<table> each since 0015).
    const functions = await client.query<{ signature: string }>(
      `select p.oid::regprocedure::text as signature from pg_proc p
       where p.pronamespace = current_schema()::regnamespace and p.proname like 'vitrine\\_%'`,
    );
    for (const row of functions.rows) await client.query(`drop function if exists ${row.signature} cascade`);
  } finally {
    await client.end().catch(() => {});
  }
}

export type RestoreResult = { manifest: BackupManifest; kind: "sqlite" | "postgres" };

/**
 * Restores an archive written by `createBackup` into an empty site: the database in the data folder (SQLite) or
 * in an empty PostgreSQL database, the files into an empty storage (the data folder's, or a bucket). The archive is
 * read and every checksum verified first; a damaged archive, a newer schema or a target that is not empty is
 * refused with nothing written. Then the files are written, then the database: its schema built by the migrations
 * (so PostgreSQL's change triggers are there) up to the version the backup was made with, the rows loaded, later
 * migrations bringing it up to date. A failure on the way removes what was written (the files, the tables, the
 * work folder): a bucket has no folder to swap in at the end, and the target was empty, so that leaves it empty.
 */
export async function restoreBackup(archive: string, target: RestoreTarget): Promise<RestoreResult> {
  const migrations = target.migrations ?? siteMigrations;
  const kind = databaseKindOf(target.databaseUrl);
  const dataDir = path.resolve(target.dataDir);
  const sqliteFile = path.join(dataDir, "vitrine.sqlite");
  const manifest = await verifyBackup(archive);
  checkCompatible(manifest, Object.keys(migrations(kind)).sort());
  await checkEmptyTarget(target, sqliteFile);

  // Checked: from here on the target is written: the files first, then the database.
  await fsp.mkdir(dataDir, { recursive: true });
  const work = await fsp.mkdtemp(path.join(dataDir, ".restore-"));
  const restoringFile = path.join(work, "vitrine.sqlite");
  const written: string[] = [];
  try {
    await fsp.chmod(work, 0o700);
    const databaseDir = path.join(work, "database");
    await fsp.mkdir(databaseDir);
    await unpack(archive, manifest, target, databaseDir, written);

    const database = openDatabase(
      kind === "postgres" ? { databaseUrl: target.databaseUrl } : { sqliteFile: restoringFile },
    );
    try {
      if (manifest.schema.version) await migrateUpTo(database.db, kind, manifest.schema.version, migrations);
      await loadRows(database, databaseDir, manifest);
      await migrateToLatest(database.db, kind, migrations);
      // The search index is in no backup: made again from the restored content.
      await reindexAll(database.db);
    } catch (error) {
      await database.close().catch(() => {});
      if (kind === "postgres") await emptyPostgres(target.databaseUrl as string).catch(() => {});
      throw error;
    }
    await database.close();
    if (kind === "sqlite") await fsp.rename(restoringFile, sqliteFile);
    return { manifest, kind };
  } catch (error) {
    throw await removeWritten(target, written, error);
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}
