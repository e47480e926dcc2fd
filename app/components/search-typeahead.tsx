import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { useFetcher, useLocation, useNavigate } from "react-router";
import type { SearchHit, SearchKind, SearchPageData } from "#app/domains/search/search-schema.ts";
import { SEARCH_SUGGESTIONS } from "#app/domains/search/search-suggestions.ts";
import type { MessageKey, Translate } from "#app/i18n/i18n.ts";
import { useTranslate } from "#app/web/root-data.ts";
import type { SearchFieldVariant } from "./search-field.tsx";

/*
 * The header's type-ahead (issue 22), loaded by search-field.tsx when its field is first focused. The WAI-ARIA
 * combobox pattern with a listbox popup (https://www.w3.org/WAI/ARIA/apg/patterns/combobox/): the focus stays in
 * the field and `aria-activedescendant` names the option the arrow keys chose. The results are what `/search`'s
 * loader answers (a fetcher, so the server decides what the visitor may see); the first few are shown.
 */

export type TypeaheadProps = {
  inputId: string;
  inputClass: string;
  variant: SearchFieldVariant;
  /** The plain field this one replaces: its text, its selection and (if the visitor is still in it) the focus. */
  takeOver: HTMLInputElement;
  tookFocus: boolean;
};

/** The pause after the last key before asking the server: a word typed at speed is one request. */
const PAUSE_MS = 200;

const KIND_LABEL: Record<SearchKind, MessageKey> = {
  post: "siteSearch.kind.post",
  picture: "siteSearch.kind.picture",
  faq: "siteSearch.kind.faq",
  video: "siteSearch.kind.video",
  link: "siteSearch.kind.link",
};

/** What the live region says once results arrive: the count, and that the first ones are listed. */
export function announcementOf(data: SearchPageData, t: Translate): string {
  if (data.error) return data.error;
  const result = data.result;
  if (!result) return "";
  if (result.total === 0) return t("siteSearch.none", { query: result.query });
  // The search stops reading at its bound (search.server.ts): a capped total means "at least".
  const count =
    result.total === 1 && !result.capped
      ? t("siteSearch.one")
      : result.capped
        ? t("siteSearch.moreThan", { count: result.total })
        : t("siteSearch.many", { count: result.total });
  const shown = Math.min(result.hits.length, SEARCH_SUGGESTIONS);
  return shown < result.total ? `${count} ${t("siteSearch.firstShown", { shown })}` : count;
}

export function SearchTypeahead({ inputId, inputClass, variant, takeOver, tookFocus }: TypeaheadProps) {
  const t = useTranslate();
  const navigate = useNavigate();
  const location = useLocation();
  const fetcher = useFetcher<SearchPageData>();
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState(() => takeOver.value);
  const [focused, setFocused] = useState(false);
  // Escape (or a choice) closes the list until the visitor types or presses Down again.
  const [dismissed, setDismissed] = useState(false);
  const [active, setActive] = useState(-1);
  const [announcement, setAnnouncement] = useState("");

  // Take the plain field's place without the visitor noticing: same text, same selection, same focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when this replaces the plain field
  useLayoutEffect(() => {
    const field = input.current;
    if (!field) return;
    if (field.value !== takeOver.value) setQuery(takeOver.value);
    if (tookFocus) {
      field.focus();
      field.setSelectionRange(takeOver.selectionStart, takeOver.selectionEnd);
    }
  }, []);

  const load = fetcher.load;
  const trimmed = query.trim();
  useEffect(() => {
    if (!trimmed) return;
    const timer = window.setTimeout(() => void load(`/search?q=${encodeURIComponent(trimmed)}&suggest=1`), PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [trimmed, load]);

  const data = trimmed ? fetcher.data : undefined;
  const hits: SearchHit[] = data?.result?.hits.slice(0, SEARCH_SUGGESTIONS) ?? [];
  // The hits, then "See all results".
  const optionCount = hits.length > 0 ? hits.length + 1 : 0;
  const open = focused && !dismissed && data !== undefined;
  const activeIndex = open && active < optionCount ? active : -1;

  useEffect(() => {
    setActive(-1);
    setAnnouncement(data ? announcementOf(data, t) : "");
  }, [data, t]);

  // A navigation (a hit chosen, the results page) closes the list; arriving with text typed does not.
  const seenLocation = useRef(location.key);
  useEffect(() => {
    if (seenLocation.current === location.key) return;
    seenLocation.current = location.key;
    setDismissed(true);
  }, [location.key]);

  const optionId = (index: number) => `${listId}-option-${index}`;
  const seeAll = () => input.current?.form?.requestSubmit();
  const choose = (index: number) => {
    const hit = hits[index];
    setDismissed(true);
    if (!hit) {
      seeAll();
      return;
    }
    setQuery("");
    // A link's hit is its address elsewhere, which the router does not serve.
    if (hit.url.startsWith("/")) void navigate(hit.url);
    else window.location.assign(hit.url);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    const last = optionCount - 1;
    const moveTo = (index: number) => {
      event.preventDefault();
      setDismissed(false);
      setActive(index);
    };
    switch (event.key) {
      case "ArrowDown":
        if (optionCount === 0) return;
        moveTo(!open || activeIndex >= last ? 0 : activeIndex + 1);
        return;
      case "ArrowUp":
        if (optionCount === 0) return;
        moveTo(!open || activeIndex <= 0 ? last : activeIndex - 1);
        return;
      case "Home":
      case "End":
        // Without a chosen option they move the caret, as in any field.
        if (activeIndex < 0) return;
        moveTo(event.key === "Home" ? 0 : last);
        return;
      case "Escape":
        // An open list closes; a closed one leaves Escape to the field (which clears it).
        if (!open) return;
        event.preventDefault();
        setDismissed(true);
        setActive(-1);
        return;
      case "Enter":
        // On a hit: open it. Otherwise the form goes to `/search` (Enter's own submit).
        if (activeIndex < 0 || activeIndex >= hits.length) return;
        event.preventDefault();
        choose(activeIndex);
        return;
    }
  };

  const message = data?.error ?? (data?.result?.total === 0 ? announcement : null);
  const popupClass =
    variant === "header"
      ? "absolute top-full right-0 z-50 mt-2 w-[min(28rem,calc(100vw-2rem))]"
      : "relative z-50 mt-2 w-full";
  return (
    <>
      <input
        ref={input}
        id={inputId}
        type="search"
        name="q"
        autoComplete="off"
        enterKeyHint="search"
        aria-keyshortcuts="/"
        placeholder={t("siteSearch.placeholder")}
        className={inputClass}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open && optionCount > 0}
        aria-controls={listId}
        aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
        value={query}
        onChange={(event) => {
          setQuery(event.currentTarget.value);
          setDismissed(false);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
      />
      <div role="status" aria-live="polite" className="sr-only">
        {open ? announcement : ""}
      </div>
      <div
        className={`${popupClass} overflow-hidden rounded-md border border-zinc-200 bg-white shadow-lg dark:border-zinc-700 dark:bg-zinc-900 ${open ? "" : "hidden"}`}
      >
        {message ? <p className="px-3 py-2 text-sm text-zinc-700 dark:text-zinc-200">{message}</p> : null}
        <div id={listId} role="listbox" aria-label={t("siteSearch.results")} hidden={optionCount === 0}>
          {hits.map((hit, index) => (
            <HitOption
              key={`${hit.kind}:${hit.id}`}
              id={optionId(index)}
              hit={hit}
              active={index === activeIndex}
              kind={t(KIND_LABEL[hit.kind])}
              onChoose={() => choose(index)}
            />
          ))}
          {optionCount > 0 ? (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the field's (the combobox pattern)
            <div
              id={optionId(hits.length)}
              role="option"
              tabIndex={-1}
              aria-selected={activeIndex === hits.length}
              className={`${optionClass(activeIndex === hits.length)} border-t border-zinc-200 font-medium text-indigo-700 dark:border-zinc-700 dark:text-indigo-300`}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(hits.length)}
            >
              {t("siteSearch.seeAll")}
            </div>
          ) : null}
        </div>
      </div>
    </>
  );
}

const optionClass = (active: boolean) =>
  `block cursor-pointer px-3 py-2 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800 ${
    active ? "bg-zinc-100 outline-2 -outline-offset-2 outline-indigo-500 dark:bg-zinc-800" : ""
  }`;

function HitOption(props: { id: string; hit: SearchHit; active: boolean; kind: string; onChoose: () => void }) {
  const { hit } = props;
  const option = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (props.active) option.current?.scrollIntoView({ block: "nearest" });
  }, [props.active]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the field's (the combobox pattern)
    <div
      ref={option}
      id={props.id}
      role="option"
      tabIndex={-1}
      aria-selected={props.active}
      className={`${optionClass(props.active)} flex items-start gap-3`}
      // The focus stays in the field (the combobox pattern): a click chooses without taking it.
      onMouseDown={(event) => event.preventDefault()}
      onClick={props.onChoose}
    >
      {hit.thumbnail ? (
        <img
          src={hit.thumbnail.src}
          width={hit.thumbnail.width}
          height={hit.thumbnail.height}
          alt=""
          className="mt-0.5 size-10 shrink-0 rounded object-cover"
        />
      ) : null}
      <span className="min-w-0 flex-1">
        <span className="flex items-baseline justify-between gap-2">
          <span className="truncate font-medium text-zinc-900 dark:text-zinc-100">{hit.title || hit.url}</span>
          <span className="shrink-0 text-xs text-zinc-600 dark:text-zinc-300">{props.kind}</span>
        </span>
        {hit.snippet.length > 0 ? (
          <span className="mt-0.5 line-clamp-2 text-zinc-700 dark:text-zinc-300">
            {hit.snippet.map((part, index) =>
              part.match ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never move
                <mark key={index} className="rounded-sm bg-amber-200 px-0.5 text-zinc-900">
                  {part.text}
                </mark>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never move
                <span key={index}>{part.text}</span>
              ),
            )}
          </span>
        ) : null}
      </span>
    </div>
  );
}
