import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { createSearchFtsTriggers, dropSearchFtsTriggers } from "./migration-support.server.ts";

/**
 * The search index in the order of its items' dates (docs/decisions/015-search.md, "Bounded work"). Migration 0021
 * made a search join every match of a common word before it could keep the newest: 25–30 ms for one search at
 * 10,000 pictures on SQLite. From here on:
 * - a row's `id` is its item's date in milliseconds × 1024 plus a small number that keeps it unique
 *   (app/domains/search-index/document-ids.ts), so "newest first" is "highest id first": FTS5 walks its matches in
 *   rowid order and stops at the limit, and PostgreSQL can do the same along the primary key;
 * - `terms` begins with the row's scope, a term no query can make (`_kpost_en`: queries keep letters and digits
 *   only), so that the full-text match itself keeps to one kind and language;
 * - the title's stems are searchable on their own (an FTS5 column; a second tsvector on PostgreSQL): the items
 *   whose title holds every word are found however old they are.
 * The rows are renumbered and given their scope here, in SQL: the dates come from the content tables. Every id
 * first goes negative, so that no renumbered row meets one not yet renumbered. Never edit a migration that has
 * shipped: add a new one.
 */
export function migration0022(kind: DatabaseKind): Record<string, Migration> {
  return {
    "0022_search_documents_by_date": {
      async up(db: Kysely<unknown>) {
        if (kind === "postgres") {
          await sql`ALTER TABLE search_documents ALTER COLUMN id TYPE bigint`.execute(db);
          await renumber(db, sql`(extract(epoch from t.at) * 1000)::bigint`);
          await sql`ALTER TABLE search_documents ADD COLUMN title_vector tsvector
            GENERATED ALWAYS AS (array_to_tsvector(string_to_array(title_terms, ' '))) STORED`.execute(db);
          await sql`CREATE INDEX search_documents_title_idx ON search_documents USING gin (title_vector)`.execute(db);
          return;
        }
        await dropSearchFtsTriggers(db);
        await sql`DROP TABLE search_fts`.execute(db);
        await renumber(db, sql`cast(round((julianday(t.at) - 2440587.5) * 86400000) as integer)`);
        // `_` is part of a word here, so that the scope term stays one term; the stems never hold one. The indexes
        // of 2- and 3-letter beginnings: while typing, "ph" or "mou" would otherwise gather the matches of every
        // term they begin (7 ms for a common letter pair at 10,000 pictures), several times per search.
        await sql`CREATE VIRTUAL TABLE search_fts USING fts5(
          title_terms, terms, content='search_documents', content_rowid='id',
          tokenize="unicode61 remove_diacritics 2 tokenchars '_'", prefix='2 3'
        )`.execute(db);
        await sql`INSERT INTO search_fts (search_fts) VALUES ('rebuild')`.execute(db);
        await createSearchFtsTriggers(db);
      },
    },
  };
}

/** Gives every row its date-ordered id and its scope term; `epochMs` turns the date `t.at` into milliseconds. */
async function renumber(db: Kysely<unknown>, epochMs: ReturnType<typeof sql>): Promise<void> {
  await sql`UPDATE search_documents SET id = -id`.execute(db);
  // The date a search orders by: a post's publication (its creation while a draft), anything else's creation.
  await sql`UPDATE search_documents SET
      id = numbered.new_id,
      terms = '_k' || search_documents.kind || '_' || search_documents.lang || ' ' || search_documents.terms
    FROM (
      SELECT t.id, ${epochMs} * 1024 + row_number() OVER (PARTITION BY t.at ORDER BY t.id) - 1 AS new_id
      FROM (
        SELECT d.id, coalesce(
          (SELECT coalesce(p.publish_at, p.created_at) FROM posts p WHERE d.kind = 'post' AND p.id = d.item_id),
          (SELECT g.created_at FROM gallery_images g WHERE d.kind = 'picture' AND g.id = d.item_id),
          (SELECT f.created_at FROM faq_entries f WHERE d.kind = 'faq' AND f.id = d.item_id),
          (SELECT v.created_at FROM videos v WHERE d.kind = 'video' AND v.id = d.item_id),
          (SELECT l.created_at FROM links l WHERE d.kind = 'link' AND l.id = d.item_id)
        ) AS at
        FROM search_documents d
      ) t
      WHERE t.at IS NOT NULL
    ) numbered
    WHERE search_documents.id = numbered.id`.execute(db);
  // A row whose item is gone (none should be: the index is written with its content) has nothing to order by.
  await sql`DELETE FROM search_documents WHERE id < 0`.execute(db);
}
