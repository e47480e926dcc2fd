import { Form, Link, useSearchParams } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { type MenuItem, menuItemsFor } from "#app/domains/content/menu-sections.ts";
import {
  SEARCH_QUERY_MAX,
  type SearchHit,
  type SearchPageData,
  type SearchResult,
  type SnippetPart,
} from "#app/domains/search/search-schema.ts";
import type { MessageKey, TranslateWith } from "#app/i18n/i18n.ts";
import type { SearchDictionary, SearchMessageKey } from "#app/i18n/search-dictionary.ts";
import { useRootData, useTranslateWith } from "#app/web/root-data.ts";

type T = TranslateWith<MessageKey | SearchMessageKey>;

const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500";

/** The sections an empty result points to, as the main menu offers them. */
const browseItems: MenuItem<MessageKey>[] = [
  { id: "gallery", to: "/", label: "nav.gallery" },
  { id: "blog", to: "/blog", label: "nav.blog", section: "blog" },
  { id: "faq", to: "/faq", label: "nav.faq", section: "faq" },
  { id: "videos", to: "/videos", label: "nav.videos", section: "videos" },
  { id: "links", to: "/links", label: "nav.links", section: "links" },
  { id: "albums", to: "/albums", label: "nav.albums", section: "albums" },
];

/** The results' heading: how many, "more than" when the search stopped reading at its bound (search.server.ts). */
export function resultCountOf(result: SearchResult, t: T): string {
  if (result.total === 1 && !result.capped) return t("search.countOne", { query: result.query });
  if (result.capped) return t("search.countMany", { count: result.total, query: result.query });
  return t("search.count", { count: result.total, query: result.query });
}

/** `/search`: a GET form that works without JavaScript, the refusal in an alert, the results a page at a time. */
export function SearchPageView({ data }: { data: SearchPageData & { dictionary: SearchDictionary } }) {
  const t = useTranslateWith(data.dictionary);
  const [params] = useSearchParams();
  // A shared `?lang=` address keeps its language for the next search too.
  const lang = params.get("lang");
  // The admin's search keeps its scope for the next search and the next page (the server checks who asks).
  const admin = params.get("scope") === "admin";
  return (
    <>
      <PageHeader title={t("search.title")} subtitle={t("search.intro")} />
      <Form method="get" action="/search" role="search" className="mb-8 max-w-2xl">
        <label htmlFor="search-page-query" className="mb-2 block font-medium">
          {t("search.label")}
        </label>
        <div className="flex gap-2">
          <input
            id="search-page-query"
            type="search"
            name="q"
            defaultValue={data.query}
            key={data.query}
            maxLength={SEARCH_QUERY_MAX}
            aria-describedby="search-page-hint"
            className={`min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 ${focusRing}`}
          />
          {lang === "de" || lang === "en" ? <input type="hidden" name="lang" value={lang} /> : null}
          {admin ? <input type="hidden" name="scope" value="admin" /> : null}
          <button
            type="submit"
            className={`rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 ${focusRing}`}
          >
            {t("search.submit")}
          </button>
        </div>
        <p id="search-page-hint" className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">
          {t("search.hint")}
        </p>
      </Form>
      <div
        role="alert"
        className={
          data.error
            ? "mb-8 rounded-md border border-red-300 px-4 py-3 text-red-800 dark:border-red-800 dark:text-red-200"
            : ""
        }
      >
        {data.error}
      </div>
      {data.result ? <SearchResults t={t} result={data.result} lang={lang} admin={admin} /> : null}
    </>
  );
}

function SearchResults({
  t,
  result,
  lang,
  admin,
}: {
  t: T;
  result: SearchResult;
  lang: string | null;
  admin: boolean;
}) {
  if (result.hits.length === 0) return <NoResults t={t} query={result.query} />;
  return (
    <section aria-labelledby="search-results-heading">
      <h2 id="search-results-heading" className="mb-6 text-lg font-semibold" aria-live="polite">
        {resultCountOf(result, t)}
      </h2>
      <ol aria-label={t("search.resultsLabel")} className="max-w-3xl space-y-6">
        {result.hits.map((hit) => (
          <SearchHitItem key={`${hit.kind}:${hit.id}`} t={t} hit={hit} />
        ))}
      </ol>
      <SearchPaging t={t} result={result} lang={lang} admin={admin} />
    </section>
  );
}

function SearchHitItem({ t, hit }: { t: T; hit: SearchHit }) {
  const external = hit.kind === "link";
  return (
    <li className="flex gap-4">
      {hit.thumbnail ? (
        <img
          src={hit.thumbnail.src}
          width={hit.thumbnail.width}
          height={hit.thumbnail.height}
          alt={hit.thumbnail.alt}
          loading="lazy"
          decoding="async"
          className="size-20 shrink-0 rounded-md object-cover"
        />
      ) : null}
      <div className="min-w-0">
        <p className="text-xs font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">
          {t(`search.kind.${hit.kind}`)}
        </p>
        <h3 className="text-lg font-semibold">
          {external ? (
            <a href={hit.url} rel="noopener noreferrer" className={`underline-offset-4 hover:underline ${focusRing}`}>
              {hit.title || hit.url}
            </a>
          ) : (
            <Link to={hit.url} className={`underline-offset-4 hover:underline ${focusRing}`}>
              {hit.title || hit.url}
            </Link>
          )}
        </h3>
        {hit.snippet.length > 0 ? <Snippet parts={hit.snippet} /> : null}
      </div>
    </li>
  );
}

/** Text only: React escapes every part; matched words in `<mark>`. */
function Snippet({ parts }: { parts: SnippetPart[] }) {
  return (
    <p className="mt-1 text-zinc-700 dark:text-zinc-300">
      {parts.map((part, index) =>
        part.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts never move
          <mark key={index} className="rounded-sm bg-yellow-200 px-0.5 text-zinc-900 dark:bg-yellow-300">
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts never move
          <span key={index}>{part.text}</span>
        ),
      )}
    </p>
  );
}

function SearchPaging({ t, result, lang, admin }: { t: T; result: SearchResult; lang: string | null; admin: boolean }) {
  if (result.pageCount <= 1) return null;
  const href = (page: number) => {
    const params = new URLSearchParams({ q: result.query });
    if (page > 1) params.set("page", String(page));
    if (lang === "de" || lang === "en") params.set("lang", lang);
    if (admin) params.set("scope", "admin");
    return `/search?${params}`;
  };
  const linkClass = `rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800 ${focusRing}`;
  return (
    <nav aria-label={t("search.pages")} className="mt-10 flex max-w-3xl flex-wrap items-center justify-between gap-4">
      {result.page > 1 ? (
        <Link to={href(result.page - 1)} rel="prev" className={linkClass}>
          {t("search.previous")}
        </Link>
      ) : (
        <span />
      )}
      <p className="text-sm text-zinc-600 dark:text-zinc-300">
        {t("search.pageOf", { page: result.page, count: result.pageCount })}
      </p>
      {result.page < result.pageCount ? (
        <Link to={href(result.page + 1)} rel="next" className={linkClass}>
          {t("search.next")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

function NoResults({ t, query }: { t: T; query: string }) {
  const root = useRootData();
  const items = root ? menuItemsFor(browseItems, root.menu, root.menuOrder) : browseItems;
  return (
    <section className="max-w-3xl">
      <h2 className="text-lg font-semibold" aria-live="polite">
        {t("search.none", { query })}
      </h2>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">{t("search.suggestions")}</p>
      <ul className="mt-3 flex flex-wrap gap-3">
        {items.map((item) => (
          <li key={item.id}>
            <Link
              to={item.to}
              className={`text-indigo-700 underline underline-offset-4 dark:text-indigo-300 ${focusRing}`}
            >
              {t(item.label)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
