import type { Generated } from "kysely";

/**
 * The search index (migrations 0021, 0022): one row per item and language, the stems made by app/lib/search-text.ts.
 */
export interface SearchDocumentsTable {
  /** The item's date in milliseconds × 1024 plus a slot (search-index/document-ids.server.ts): newest is highest. */
  id: Generated<number>;
  /** post | picture | faq | video | link */
  kind: string;
  item_id: string;
  lang: string;
  /** The title's stems, space-separated (ranking: title matches first). */
  title_terms: string;
  /**
   * The row's scope term (`_kpost_en`), then every stem of the item's text in this language, title included, each
   * once, space-separated.
   */
  terms: string;
}

/**
 * SQLite only: the FTS5 table over `search_documents` (its rowid is the row's id). A search joins it to walk the
 * matches newest first; `search_fts` is the column a MATCH names.
 */
export interface SearchFtsTable {
  rowid: number;
  search_fts: string;
  title_terms: string;
  terms: string;
}
