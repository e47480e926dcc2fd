import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { createSearchFtsTriggers, dropSearchFtsTriggers } from "./migration-support.server.ts";

/**
 * The search index's ids say each row's kind and language (docs/decisions/015-search.md, "Bounded work"). Since 0022
 * every row's `terms` began with a scope term (`_kpost_en`) that each full-text statement intersected with the
 * query's terms: a list of every document of the kind and language, most of each statement's time (FTS5, newest 100
 * matches: `mountain` alone 46 µs, with the scope term 259 µs). From here a row's id is its scope's range (kind and
 * language) plus its date in milliseconds × 64 plus a slot, and a statement asks for a range of ids, which both
 * indexes seek to. The rows are renumbered here from their ids of 0022 (date in milliseconds × 1024 plus a slot),
 * keeping their order, and lose the scope term. The constants are this migration's own copy of
 * app/domains/search-index/document-ids.server.ts (a migration never changes with the code). Never edit a migration
 * that has shipped: add a new one.
 */
const KINDS = ["post", "picture", "faq", "video", "link"];
const LANGUAGES = ["en", "de"];
const SCOPE_SPAN = 2 ** 49;
const ID_SLOTS = 64;
const SLOTS_0022 = 1024;
/** Renumbered rows written per statement. */
const BATCH = 500;

/** Each row's new id: in its scope's range, in the order of its old id (its date), none shared. */
function renumbered(rows: { id: number | string; kind: string; lang: string }[]): [number, number][] {
  const last = new Map<number, number>();
  const pairs: [number, number][] = [];
  for (const row of rows.toSorted((a, b) => Number(a.id) - Number(b.id))) {
    const kind = KINDS.indexOf(row.kind);
    const lang = LANGUAGES.indexOf(row.lang);
    if (kind < 0 || lang < 0) continue;
    const scope = lang * KINDS.length + kind;
    const first = scope * SCOPE_SPAN + Math.floor(Number(row.id) / SLOTS_0022) * ID_SLOTS;
    const id = Math.max(first, (last.get(scope) ?? -1) + 1);
    last.set(scope, id);
    pairs.push([Number(row.id), id]);
  }
  return pairs;
}

export function migration0028(kind: DatabaseKind): Record<string, Migration> {
  return {
    "0028_search_ids_by_scope": {
      async up(db: Kysely<unknown>) {
        const { rows } = await sql<{ id: number | string; kind: string; lang: string }>`
          SELECT id, kind, lang FROM search_documents`.execute(db);
        const pairs = renumbered(rows);
        if (kind === "postgres") {
          // Made again after the rows are rewritten: faster than entering every row into them twice.
          await sql`DROP INDEX search_documents_terms_idx`.execute(db);
          await sql`DROP INDEX search_documents_title_idx`.execute(db);
        } else {
          // FTS5's copy is rebuilt from the rewritten rows; the triggers name it and come back as 0023 made them.
          await dropSearchFtsTriggers(db);
        }
        // Old and new ids meet in one table: the old ones first move below zero (-id - 1: an id may be 0).
        await sql`CREATE TEMPORARY TABLE search_renumbered (old_id bigint PRIMARY KEY, new_id bigint NOT NULL)`.execute(
          db,
        );
        for (let start = 0; start < pairs.length; start += BATCH) {
          const values = pairs.slice(start, start + BATCH).map(([from, to]) => sql`(${-from - 1}, ${to})`);
          await sql`INSERT INTO search_renumbered (old_id, new_id) VALUES ${sql.join(values)}`.execute(db);
        }
        await sql`UPDATE search_documents SET id = -id - 1`.execute(db);
        const scope = sql`'_k' || search_documents.kind || '_' || search_documents.lang`;
        await sql`UPDATE search_documents SET
            id = r.new_id,
            terms = CASE
              WHEN terms = ${scope} THEN ''
              WHEN substr(terms, 1, length(${scope}) + 1) = ${scope} || ' ' THEN substr(terms, length(${scope}) + 2)
              ELSE terms END
          FROM search_renumbered r WHERE r.old_id = search_documents.id`.execute(db);
        // A row of no known kind or language (none should be) has no range.
        await sql`DELETE FROM search_documents WHERE id < 0`.execute(db);
        await sql`DROP TABLE search_renumbered`.execute(db);
        if (kind === "postgres") {
          await sql`CREATE INDEX search_documents_terms_idx ON search_documents USING gin (terms_vector)
            WITH (fastupdate = off)`.execute(db);
          await sql`CREATE INDEX search_documents_title_idx ON search_documents USING gin (title_vector)
            WITH (fastupdate = off)`.execute(db);
          await sql`ANALYZE search_documents`.execute(db);
          return;
        }
        await sql`INSERT INTO search_fts (search_fts) VALUES ('rebuild')`.execute(db);
        await createSearchFtsTriggers(db);
      },
    },
  };
}
