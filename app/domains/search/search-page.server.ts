import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { createTranslator, type Language } from "#app/i18n/i18n.ts";
import { type SearchDictionary, searchDictionaryFor } from "#app/i18n/search-dictionary.ts";
import { searchSite } from "./search.server.ts";
import type { SearchLimiter } from "./search-limit.server.ts";
import { readSearchParams, type SearchPageData } from "./search-schema.ts";
import { SEARCH_SUGGESTIONS } from "./search-suggestions.ts";
import type { SearchAudience } from "./search-visibility.server.ts";

export type SearchPageAnswer = {
  data: SearchPageData & { dictionary: SearchDictionary };
  status: number;
  retryAfterSeconds: number | null;
};

/**
 * What `/search` answers for an address's parameters: nothing searched (no query), a too long query's refusal
 * (200, the message shown by the field), too many searches from this address (429, its message), or the result.
 */
export async function answerSearchPage(options: {
  db: Kysely<Database>;
  limiter: SearchLimiter;
  client: string;
  lang: Language;
  /**
   * The address's `q`, `page` and `suggest`, as sent. `suggest=1` is the header type-ahead's request: the first
   * SEARCH_SUGGESTIONS hits of page 1 (the count is the page's).
   */
  params: { q: string | null; page: string | null; suggest?: string | null };
  /** `admin` (an admin who asked for `?scope=admin`) finds drafts and hidden items too. */
  audience?: SearchAudience;
}): Promise<SearchPageAnswer> {
  const dictionary = searchDictionaryFor(options.lang);
  const read = readSearchParams(options.params, options.lang);
  const base = { query: read.raw, result: null, error: read.error, dictionary };
  if (!read.query) return { data: base, status: 200, retryAfterSeconds: null };
  const waitMs = options.limiter.take(options.client);
  if (waitMs > 0) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    const error = createTranslator(dictionary)("search.tooMany", { seconds });
    return { data: { ...base, error }, status: 429, retryAfterSeconds: seconds };
  }
  const suggest = options.params.suggest === "1";
  const result = await searchSite(options.db, {
    lang: options.lang,
    query: read.query.q,
    page: suggest ? 1 : read.query.page,
    audience: options.audience,
    pageSize: suggest ? SEARCH_SUGGESTIONS : undefined,
  });
  return { data: { ...base, result }, status: 200, retryAfterSeconds: null };
}
