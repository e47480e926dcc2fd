// Shared by the backup tests (domain and HTTP): a canonical dump to compare sites by, and empty targets.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import type { DatabaseKind } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { listFiles } from "#app/domains/backup/backup.server.ts";
import { BACKUP_TABLES, toNeutralRow } from "#app/domains/backup/tables.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { listAllFiles } from "#app/domains/media/storage-copy.server.ts";
import { storageIn } from "#tests/support/gallery-factories.ts";
import { createTestDatabase } from "#tests/support/test-database.ts";

export type CanonicalDump = { tables: Record<string, string[]>; files: Record<string, string> };

/** Every row of every table (neutral form, sorted) and the SHA-256 of every stored file. */
export async function canonicalDump(db: Kysely<Database>, dataDir: string): Promise<CanonicalDump> {
  const tables: Record<string, string[]> = {};
  for (const table of BACKUP_TABLES) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(db);
    tables[table.name] = rows
      .map((row) => {
        const neutral = toNeutralRow(table, row);
        return JSON.stringify(Object.fromEntries(Object.entries(neutral).sort(([a], [b]) => a.localeCompare(b))));
      })
      .sort();
  }
  const storage = path.join(dataDir, "storage");
  const files: Record<string, string> = {};
  for (const relative of await listFiles(storage, [".tmp"])) {
    files[relative] = createHash("sha256")
      .update(fs.readFileSync(path.join(storage, relative)))
      .digest("hex");
  }
  return { tables, files };
}

export type EmptyTarget = {
  kind: DatabaseKind;
  dataDir: string;
  databaseUrl?: string;
  /** The data folder's own storage (DATA_DIR/storage). */
  storage: FileStorage;
  destroy: () => Promise<void>;
};

/** The SHA-256 of every file in a storage (the disk or a bucket), by key: to compare sites by their files. */
export async function storedFilesDump(storage: FileStorage): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const file of await listAllFiles(storage)) {
    const hash = createHash("sha256");
    for await (const chunk of await storage.readStream(file.key)) hash.update(chunk as Buffer);
    files[file.key] = hash.digest("hex");
  }
  return files;
}

/** An empty data folder, and for PostgreSQL an empty database (no tables at all). */
export async function createEmptyTarget(kind: DatabaseKind): Promise<EmptyTarget> {
  if (kind === "sqlite") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-restore-"));
    return {
      kind,
      dataDir,
      storage: storageIn(dataDir),
      destroy: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const database = await createTestDatabase("postgres", { migrate: false });
  await database.close();
  return {
    kind,
    dataDir: database.location.dataDir,
    databaseUrl: database.location.databaseUrl,
    storage: storageIn(database.location.dataDir),
    destroy: () => database.destroy(),
  };
}

/** What the target holds: its tables (none when nothing was written) and its files. */
export async function targetContents(target: EmptyTarget): Promise<{ tables: string[]; files: string[] }> {
  const files = await listFiles(target.dataDir);
  if (target.kind === "sqlite") return { tables: [], files };
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = current_schema()",
    );
    return { tables: rows.map((row) => row.table_name), files };
  } finally {
    await client.end();
  }
}
