import { z } from "zod";
import type { Language } from "#app/i18n/i18n.ts";

/*
 * The search's contract (issue 22), shared by the `/search` route, the header's type-ahead (a fetcher loads
 * `/search?q=…`) and the search service. Client-safe: nothing here touches the server.
 */

/** The most characters of a query after trimming: longer ones are refused with a message, not cut silently. */
export const SEARCH_QUERY_MAX = 200;
/** Results per page on `/search` (the type-ahead shows the first ones of page 1). */
export const SEARCH_PAGE_SIZE = 20;
/**
 * No page beyond this is served: a search reads at most 200 candidates of each of its 5 kinds (search.server.ts),
 * so deeper pages would be empty.
 */
export const SEARCH_MAX_PAGE = 50;

export type SearchKind = "post" | "picture" | "faq" | "video" | "link";
export const SEARCH_KINDS: readonly SearchKind[] = ["post", "picture", "faq", "video", "link"];

/** A part of a snippet: plain text (never HTML), `match` when it is a word the query matched (shown in `<mark>`). */
export type SnippetPart = { text: string; match: boolean };

export type SearchHit = {
  kind: SearchKind;
  id: string;
  title: string;
  /** The page that shows it, in the searcher's language (`?lang=de` where the search had it). */
  url: string;
  snippet: SnippetPart[];
  thumbnail: { src: string; width: number; height: number; alt: string } | null;
};

export type SearchResult = {
  /** The query as searched (trimmed, white space collapsed). */
  query: string;
  /** The matches the searcher may see that the search read (each kind's newest, and best by title: search.server.ts). */
  total: number;
  /** More matched than were read: the page says "{total}+ results". */
  capped: boolean;
  page: number;
  pageCount: number;
  hits: SearchHit[];
};

/** What `/search`'s loader answers (a fetcher reads the same): no query, a result, or a refusal's message. */
export type SearchPageData = { query: string; result: SearchResult | null; error: string | null };

const MESSAGES = {
  en: { tooLong: `Please shorten your search to at most ${SEARCH_QUERY_MAX} characters.` },
  de: { tooLong: `Bitte kürzen Sie Ihre Suche auf höchstens ${SEARCH_QUERY_MAX} Zeichen.` },
} as const;

/**
 * Control characters (NUL and the like) and lone surrogates are no search terms: they become spaces rather than a
 * refusal, so that pasted text still searches. Runs of white space collapse to one.
 */
export function cleanQuery(raw: string): string {
  return (
    raw
      .toWellFormed()
      .replace(/\uFFFD/g, " ")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ")
      .normalize("NFC")
      .replace(/\s+/g, " ")
      .trim()
  );
}

/** The query parameters of a search, refused in the searcher's language. */
function makeSearchQuerySchema(lang: Language) {
  return z.object({
    q: z.preprocess(
      (value) => (typeof value === "string" ? cleanQuery(value) : ""),
      z.string().min(1).max(SEARCH_QUERY_MAX, { error: MESSAGES[lang].tooLong }),
    ),
    // A missing, broken or too large page number is page 1 or the last page served: an address is never refused for it.
    page: z.preprocess((value) => {
      const number = typeof value === "string" && /^\d{1,6}$/.test(value) ? Number(value) : 1;
      return Math.min(Math.max(number, 1), SEARCH_MAX_PAGE);
    }, z.number().int().min(1)),
  });
}

/** Made once per language: building a zod schema costs more than using it (0.2 ms of each search, profiled). */
const SEARCH_QUERY_SCHEMAS = { en: makeSearchQuerySchema("en"), de: makeSearchQuerySchema("de") } satisfies Record<
  Language,
  unknown
>;

export function searchQuerySchema(lang: Language) {
  return SEARCH_QUERY_SCHEMAS[lang];
}

export type SearchQuery = z.infer<ReturnType<typeof makeSearchQuerySchema>>;

/**
 * Reads an address's `q` and `page`: `{ query: null }` when nothing is searched (no `q`, or only spaces), with the
 * refusal's message when the query is too long.
 */
export function readSearchParams(
  params: { q: string | null; page: string | null },
  lang: Language,
): { query: SearchQuery | null; raw: string; error: string | null } {
  const raw = params.q ?? "";
  const parsed = searchQuerySchema(lang).safeParse({ q: raw, page: params.page ?? undefined });
  if (parsed.success) return { query: parsed.data, raw: parsed.data.q, error: null };
  const tooLong = parsed.error.issues.find((issue) => issue.path[0] === "q" && issue.code === "too_big");
  // The field shows what was typed, cut to what it accepts.
  const shown = cleanQuery(raw).slice(0, SEARCH_QUERY_MAX);
  return { query: null, raw: shown, error: tooLong ? tooLong.message : null };
}
