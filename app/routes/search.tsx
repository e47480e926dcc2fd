import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { SearchPageView } from "#app/components/search/search-page.tsx";
import { answerSearchPage } from "#app/domains/search/search-page.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { clientAddressContext, sessionUserContext, visitNotesContext } from "#app/lib/request-context.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { readerOf } from "#app/web/session.server.ts";
import { PRIVATE_CACHE_CONTROL } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/search";

/**
 * `/search?q=…&page=…` (issue 22): the page without JavaScript, and the header's type-ahead loads the same data
 * with a fetcher (`&suggest=1`: only the hits it shows). Its data is `SearchPageData` (search-schema.ts) plus the
 * page's strings. Never kept by a cache: it varies by query, and a kept answer would bypass the limit per address.
 */
const SEARCH_HEADERS = { "Cache-Control": PRIVATE_CACHE_CONTROL, "X-Robots-Tag": "noindex" };

/**
 * React Router makes a document's and a `.data` answer's headers from the routes' `headers` exports only, so the
 * loader's (SEARCH_HEADERS, and a 429's Retry-After) are passed on as it set them. The loader does not run when only
 * the root's data is loaded again (shouldRevalidate keeps the results after an action): that answer is not kept
 * either, or a page cache would keep one per query.
 */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders.has("Cache-Control") ? loaderHeaders : SEARCH_HEADERS;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const runtime = runtimeOf(context);
  const params = new URL(request.url).searchParams;
  const answer = await answerSearchPage({
    db: runtime.database.db,
    limiter: runtime.searchLimiter,
    client: context.get(clientAddressContext),
    lang: languageOf(request).lang,
    params: { q: params.get("q"), page: params.get("page"), suggest: params.get("suggest") },
    // The admin's search (drafts, hidden items too) for an admin who asks; anyone else gets the visitors' search.
    // The reader's own search otherwise: a member also finds what is for members and their groups.
    audience: params.get("scope") === "admin" && context.get(sessionUserContext)?.isAdmin ? "admin" : readerOf(context),
  });
  // The statistics' site searches (issue 46): the words of a counted search page, never who searched.
  const notes = context.get(visitNotesContext);
  const result = answer.data.result;
  if (notes && result && params.get("suggest") !== "1")
    notes.search = { query: answer.data.query, found: result.total > 0 };
  const headers: Record<string, string> = { ...SEARCH_HEADERS };
  if (answer.retryAfterSeconds) headers["Retry-After"] = String(answer.retryAfterSeconds);
  return data(answer.data, { status: answer.status, headers });
}

/**
 * A search depends on its address, not on what the visitor does elsewhere: after an action (the theme or language
 * toggle, the header's sign-out) the results, and the header's type-ahead fetcher, are not loaded again, which
 * would also count against the visitor's limit. A navigation or a live reload still loads them.
 */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod.toUpperCase() !== "GET") return false;
  return defaultShouldRevalidate;
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  // The query is part of the page's address (canonical, hreflang); no search engine should keep any of them.
  const query: Record<string, string> = loaderData?.query ? { q: loaderData.query } : {};
  return [
    ...pageMeta(rootSeo(matches), location.pathname, { title: loaderData?.dictionary["search.title"], query }),
    { name: "robots", content: "noindex" },
  ];
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  return <SearchPageView data={loaderData} />;
}
