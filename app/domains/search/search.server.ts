import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { Language } from "#app/i18n/i18n.ts";
import type { SearchResult } from "./search-schema.ts";

export type SearchOptions = {
  lang: Language;
  /** Cleaned by `readSearchParams` (search-schema.ts). */
  query: string;
  page: number;
  /** `admin` finds drafts, scheduled posts and hidden items too (the admin area's search). */
  audience?: "public" | "admin";
  now?: Date;
};

/** The site's search (issue 22). A first version: nothing is indexed yet. */
export async function searchSite(_db: Kysely<Database>, options: SearchOptions): Promise<SearchResult> {
  return { query: options.query, total: 0, page: options.page, pageCount: 1, hits: [] };
}
