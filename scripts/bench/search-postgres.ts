import Database from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import { reindexAll } from "#app/domains/search-index/search-index.server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * The search section on PostgreSQL (when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server, as the instances
 * section reads them): a fresh database of its own on that server, migrated, given the content rows of the
 * section's SQLite data folder (the same pictures and posts, so both kinds search the same text), its index
 * rebuilt by `reindexAll` (timed), and dropped afterwards.
 */

/** The content tables whose rows are copied, parents first (gallery_images points at images, post_* at posts). */
const TABLES = ["images", "gallery_images", "links", "faq_entries", "videos", "posts", "post_slugs", "post_tags"];
const BATCH = 500;

export function postgresServerUrl(): string | undefined {
  return process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
}

export type SearchPostgres = {
  database: TestDatabase;
  databaseUrl: string;
  reindexMs: number;
  indexed: Record<string, number>;
  indexBytes: number;
  databaseBytes: number;
};

export async function seedSearchPostgres(serverUrl: string, sqliteFile: string): Promise<SearchPostgres> {
  const database = await createTestDatabase("postgres", { serverUrl });
  try {
    const source = new Database(sqliteFile, { readonly: true });
    // Untyped: rows of any of the copied tables, as SQLite holds them.
    const target = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    try {
      for (const table of TABLES) {
        const rows = source.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
        // SQLite's 0/1 booleans go as they are: PostgreSQL reads '0' and '1' as a boolean's input.
        for (let start = 0; start < rows.length; start += BATCH) {
          await target
            .insertInto(table)
            .values(rows.slice(start, start + BATCH))
            .execute();
        }
      }
    } finally {
      source.close();
    }
    const started = performance.now();
    const indexed = await reindexAll(database.db);
    const reindexMs = performance.now() - started;
    // The table with its indexes (the GIN index of terms_vector) and TOAST: what the index takes on disk.
    const { rows } = await sql<{ index_bytes: string; database_bytes: string }>`
      SELECT pg_total_relation_size('search_documents') AS index_bytes,
             pg_database_size(current_database()) AS database_bytes`.execute(database.db);
    const sizes = rows[0];
    const databaseUrl = database.location.databaseUrl;
    if (!sizes || !databaseUrl) throw new Error("No sizes or URL of the PostgreSQL database");
    return {
      database,
      databaseUrl,
      reindexMs,
      indexed,
      indexBytes: Number(sizes.index_bytes),
      databaseBytes: Number(sizes.database_bytes),
    };
  } catch (error) {
    await database.destroy();
    throw error;
  }
}
