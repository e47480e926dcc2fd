import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import readline from "node:readline";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import * as tar from "tar";
import { type AppDatabase, databaseKindOf, openDatabase } from "#app/db/database.server.ts";
import { type MigrationSet, migrateToLatest, migrateUpTo, siteMigrations } from "#app/db/migrations.server.ts";
import type { Database } from "#app/db/schema.ts";
import { BACKUP_FORMAT_VERSION, type BackupManifest, listFiles, MANIFEST_NAME, sha256Of } from "./backup.server.ts";
import { BACKUP_TABLES, type NeutralRow } from "./tables.server.ts";

/** A restore refused before anything was written; the message says why. */
export class RestoreError extends Error {
  override name = "RestoreError";
}

export type RestoreTarget = {
  /** DATA_DIR: the SQLite file (without DATABASE_URL) and `storage/` go here. */
  dataDir: string;
  databaseUrl?: string;
  /** The site's migrations; tests pass another list to act out an older or newer version. */
  migrations?: MigrationSet;
};

const INSERT_BATCH = 200;
// Table names as the database has them: better-auth's two-factor table is `twoFactor`.
const ENTRY_PATH = /^(database\/[A-Za-z_]+\.jsonl|storage\/(public|private)\/[A-Za-z0-9_][A-Za-z0-9._/-]*)$/;

function damaged(detail: string): RestoreError {
  return new RestoreError(`The archive is damaged or not a Vitrine backup (${detail}); nothing was restored.`);
}

function parseManifest(text: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(text) as BackupManifest;
  } catch {
    throw damaged("its manifest is not JSON");
  }
  const valid =
    manifest?.format === "vitrine-backup" &&
    typeof manifest.formatVersion === "number" &&
    Array.isArray(manifest.entries) &&
    Array.isArray(manifest.schema?.migrations) &&
    manifest.entries.every(
      (entry) =>
        typeof entry?.path === "string" &&
        ENTRY_PATH.test(entry.path) &&
        !entry.path.split("/").includes("..") &&
        typeof entry.size === "number" &&
        typeof entry.sha256 === "string",
    );
  if (!valid) throw damaged("its manifest is not that of a Vitrine backup");
  return manifest;
}

/**
 * Reads the whole archive once: every entry must be a plain file or folder, listed in the manifest with the
 * same size and SHA-256, and every file the manifest lists must be there. Returns the manifest.
 */
export async function verifyBackup(archive: string): Promise<BackupManifest> {
  try {
    const info = await fsp.stat(archive);
    if (!info.isFile()) throw new RestoreError(`${archive} is not a file; nothing was restored.`);
  } catch (error) {
    if (error instanceof RestoreError) throw error;
    throw new RestoreError(`Cannot read ${archive}: ${(error as Error).message}; nothing was restored.`);
  }
  const found = new Map<string, { size: number; sha256: string }>();
  const problems: string[] = [];
  let manifestText: string | null = null;
  const pending: Promise<void>[] = [];
  try {
    await tar.list({
      file: archive,
      strict: true,
      onReadEntry: (entry) => {
        const name = entry.path.replace(/\/$/, "");
        if (entry.type === "Directory") {
          if (!/^(database|storage)(\/|$)/.test(name)) problems.push(`unexpected folder ${name}`);
          entry.resume();
          return;
        }
        if (entry.type !== "File" && entry.type !== "OldFile") {
          problems.push(`${name} is a ${entry.type}, not a file`);
          entry.resume();
          return;
        }
        if (found.has(name) || (name === MANIFEST_NAME && manifestText !== null)) problems.push(`${name} twice`);
        const hash = createHash("sha256");
        const chunks: Buffer[] = [];
        let size = 0;
        pending.push(
          new Promise<void>((resolve, reject) => {
            entry.on("data", (chunk: Buffer) => {
              hash.update(chunk);
              size += chunk.length;
              if (name === MANIFEST_NAME) chunks.push(chunk);
            });
            entry.on("end", () => {
              if (name === MANIFEST_NAME) manifestText = Buffer.concat(chunks).toString("utf8");
              else found.set(name, { size, sha256: hash.digest("hex") });
              resolve();
            });
            entry.on("error", reject);
          }),
        );
      },
    });
    await Promise.all(pending);
  } catch (error) {
    throw damaged((error as Error).message);
  }
  if (manifestText === null) throw damaged("it has no manifest");
  const manifest = parseManifest(manifestText);
  if (problems.length > 0) throw damaged(problems.slice(0, 3).join("; "));
  const listed = new Set<string>();
  for (const entry of manifest.entries) {
    listed.add(entry.path);
    const actual = found.get(entry.path);
    if (!actual) throw damaged(`${entry.path} is missing`);
    if (actual.size !== entry.size || actual.sha256 !== entry.sha256) throw damaged(`${entry.path} was altered`);
  }
  const extra = [...found.keys()].find((name) => !listed.has(name));
  if (extra) throw damaged(`${extra} is not in the manifest`);
  return manifest;
}

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
  const files = await listFiles(path.join(target.dataDir, "storage"), [".tmp"]);
  if (files.length > 0) {
    throw new RestoreError(
      `The data folder's storage (${path.join(target.dataDir, "storage")}) is not empty (${files.length} files): restore only into an empty one. Nothing was restored.`,
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
    await client.query("drop function if exists vitrine_notify_change() cascade");
  } finally {
    await client.end().catch(() => {});
  }
}

export type RestoreResult = { manifest: BackupManifest; kind: "sqlite" | "postgres" };

/**
 * Restores an archive written by `createBackup` into an empty data folder, with the database in that folder
 * (SQLite) or in an empty PostgreSQL database. The archive is read and every checksum verified first; a
 * damaged archive, a newer schema or a target that is not empty is refused with nothing written. The schema
 * is built by the migrations (so PostgreSQL's change triggers are there), up to the version the backup was
 * made with; the rows are loaded; later migrations then bring it up to date.
 */
export async function restoreBackup(archive: string, target: RestoreTarget): Promise<RestoreResult> {
  const migrations = target.migrations ?? siteMigrations;
  const kind = databaseKindOf(target.databaseUrl);
  const dataDir = path.resolve(target.dataDir);
  const sqliteFile = path.join(dataDir, "vitrine.sqlite");
  const manifest = await verifyBackup(archive);
  checkCompatible(manifest, Object.keys(migrations(kind)).sort());
  await checkEmptyTarget(target, sqliteFile);

  // Checked: from here on the target is written.
  await fsp.mkdir(dataDir, { recursive: true });
  const work = await fsp.mkdtemp(path.join(dataDir, ".restore-"));
  const restoringFile = path.join(work, "vitrine.sqlite");
  try {
    await fsp.chmod(work, 0o700);
    const extracted = path.join(work, "archive");
    await fsp.mkdir(extracted);
    await tar.extract({
      file: archive,
      cwd: extracted,
      strict: true,
      filter: (entryPath) => entryPath === MANIFEST_NAME || /^(database|storage)(\/|$)/.test(entryPath),
    });
    // The archive was verified above; this guards against it changing in between.
    for (const entry of manifest.entries) {
      if ((await sha256Of(path.join(extracted, entry.path))) !== entry.sha256) {
        throw new RestoreError(`${entry.path} changed while restoring; nothing was restored.`);
      }
    }

    const database = openDatabase(
      kind === "postgres" ? { databaseUrl: target.databaseUrl } : { sqliteFile: restoringFile },
    );
    try {
      if (manifest.schema.version) await migrateUpTo(database.db, kind, manifest.schema.version, migrations);
      await loadRows(database, path.join(extracted, "database"), manifest);
      await migrateToLatest(database.db, kind, migrations);
    } catch (error) {
      await database.close().catch(() => {});
      if (kind === "postgres") await emptyPostgres(target.databaseUrl as string).catch(() => {});
      throw error;
    }
    await database.close();

    const storage = path.join(dataDir, "storage");
    await fsp.mkdir(path.join(extracted, "storage"), { recursive: true });
    await fsp.rm(storage, { recursive: true, force: true }); // empty folders only: checked above
    await fsp.rename(path.join(extracted, "storage"), storage);
    if (kind === "sqlite") await fsp.rename(restoringFile, sqliteFile);
    return { manifest, kind };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}
