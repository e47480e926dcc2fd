import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { createSearchFtsTriggers, dropSearchFtsTriggers } from "./migration-support.server.ts";

/**
 * The search index, read faster (docs/decisions/015-search.md, "Measured"):
 * - PostgreSQL: the GIN indexes keep no pending list (`fastupdate = off`). With it, new entries wait in an unsorted
 *   list that every search reads from start to end until a vacuum merges them: after a rebuild of 24,000 rows,
 *   1.5–3 ms on each of a search's statements, where the index itself answered in 0.1 ms. A save writes one row
 *   per language, so entering it into the index at once costs little; a full rebuild takes longer.
 * - SQLite: the FTS5 table keeps which column a term is in, not its positions (`detail=column`): a search asks for
 *   no phrase and no NEAR, so positions were never read but made the index larger (44 → 31 MB at 10,000 pictures
 *   and 2,000 posts) and each match slower to read (a search's statements about 20 % faster).
 * Never edit a migration that has shipped: add a new one.
 */
export function migration0023(kind: DatabaseKind): Record<string, Migration> {
  return {
    "0023_search_index_read_faster": {
      async up(db: Kysely<unknown>) {
        if (kind === "postgres") {
          for (const index of ["search_documents_terms_idx", "search_documents_title_idx"]) {
            await sql`ALTER INDEX ${sql.id(index)} SET (fastupdate = off)`.execute(db);
            // What is pending now goes into the index proper (turning the option off does not move it).
            await sql`SELECT gin_clean_pending_list(${index}::regclass)`.execute(db);
          }
          return;
        }
        // The triggers name the table: they go first and come back as they were (migration 0022).
        await dropSearchFtsTriggers(db);
        await sql`DROP TABLE search_fts`.execute(db);
        await sql`CREATE VIRTUAL TABLE search_fts USING fts5(
          title_terms, terms, content='search_documents', content_rowid='id',
          tokenize="unicode61 remove_diacritics 2 tokenchars '_'", prefix='2 3', detail=column
        )`.execute(db);
        await sql`INSERT INTO search_fts (search_fts) VALUES ('rebuild')`.execute(db);
        await createSearchFtsTriggers(db);
      },
    },
  };
}
