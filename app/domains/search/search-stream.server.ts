import { sql } from "kysely";
import type { DbDate } from "#app/db/schema.ts";
import { scopeRange } from "#app/domains/search-index/document-ids.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import type { FtsTerm, QueryTerm } from "#app/lib/search-text.ts";
import type { SearchKind } from "./search-schema.ts";

/* What the search's streams are (search.server.ts), shared by the two databases' readers. */

/**
 * Which matches a stream reads: every row of the kind and language that holds every term, or only those whose
 * title holds every term.
 */
export type Stream = "all" | "title";
export type Lookup = {
  kind: SearchKind;
  lang: Language;
  terms: QueryTerm[];
  /** The terms as FTS5 is asked for them (SQLite: prefixes read out as words, fts-prefix.server.ts). */
  fts: FtsTerm[];
  stream: Stream;
  limit: number;
  /** Only documents older than this one (the title stream reads on where the newest matches stopped). */
  below?: DocumentId;
};
/** A document's id in the index: a number from SQLite, a bigint's text from PostgreSQL (sent back as it came). */
export type DocumentId = number | string;
export type CandidateRow = { id: string; title_terms: string; time: DbDate | null; document: DocumentId };
/** A stream's newest matches the audience may see, at most its limit; `more` when there may be others. */
export type StreamRows = { rows: CandidateRow[]; more: boolean };

/**
 * The rows of these kinds and language: a range of ids (document-ids.server.ts), which the full-text index seeks to
 * (FTS5 by rowid, PostgreSQL by the primary key) instead of intersecting every match with a list of the scope.
 */
export function inScope(column: "f.rowid" | "d.id", kinds: readonly SearchKind[], lang: Language) {
  const { from, to } = scopeRange(kinds, lang);
  const bound = column === "f.rowid" ? ftsRowid : Number;
  return sql<boolean>`${sql.ref(column)} >= ${bound(from)} and ${sql.ref(column)} <= ${bound(to - 1)}`;
}

/**
 * A bound on FTS5's rowid, as an integer. better-sqlite3 binds a JavaScript number as a real, and FTS5 seeks only
 * to an integer bound (it ignores any other): it then walked every match of the scopes above, newest first, for
 * SQLite to drop (a common word's English posts, the lowest range: 0.56 ms a statement against 0.13 ms).
 */
export function ftsRowid(value: number): bigint {
  return BigInt(value);
}
