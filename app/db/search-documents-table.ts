import type { Generated } from "kysely";

/** The search index (migration 0021): one row per item and language, the stems made by app/lib/search-text.ts. */
export interface SearchDocumentsTable {
  id: Generated<number>;
  /** post | picture | faq | video | link */
  kind: string;
  item_id: string;
  lang: string;
  /** The title's stems, space-separated (ranking: title matches first). */
  title_terms: string;
  /** Every stem of the item's text in this language, title included, each once, space-separated. */
  terms: string;
}
