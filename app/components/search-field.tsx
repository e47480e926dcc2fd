import { type ComponentType, type FocusEvent, useEffect, useId, useState } from "react";
import { Form } from "react-router";
import { useTranslate } from "#app/web/root-data.ts";
import type { TypeaheadProps } from "./search-typeahead.tsx";

/*
 * The header's search field (issue 22). Every page renders a plain GET form to `/search`, which works without
 * JavaScript; the type-ahead (search-typeahead.tsx) is loaded only when a field is first focused, so that no first
 * load carries it (tests/e2e/lean-public-pages.spec.ts), and then takes the field's place, its text and its focus.
 * Every page loads this file: its looks are in app.css (`.site-search-header`: a magnifier that widens while
 * focused or holding text), and it is kept short.
 */

type Typeahead = ComponentType<TypeaheadProps>;

/** One load per page, shared by the header's field and the mobile menu's. */
let typeaheadLoad: Promise<Typeahead> | undefined;

export type SearchFieldVariant = "header" | "menu";

export function SearchField({ variant }: { variant: SearchFieldVariant }) {
  const t = useTranslate();
  const id = useId();
  const [loaded, setLoaded] = useState<{ Typeahead: Typeahead; takeOver: HTMLInputElement; focused: boolean }>();
  const inputClass = `site-search-${variant}`;

  const wake = ({ currentTarget }: FocusEvent<HTMLInputElement>) => {
    typeaheadLoad ??= import("./search-typeahead.tsx").then((module) => module.SearchTypeahead);
    typeaheadLoad.then(
      // Whether the visitor is still in the field is read as it arrives: one who has moved on keeps their place.
      (Typeahead) =>
        setLoaded({ Typeahead, takeOver: currentTarget, focused: document.activeElement === currentTarget }),
      // The plain form still searches (a release replaced the file, the network dropped); a later focus tries again.
      () => {
        typeaheadLoad = undefined;
      },
    );
  };

  return (
    <Form
      method="get"
      action="/search"
      role="search"
      aria-label={t("siteSearch.label")}
      className={variant === "header" ? "relative size-10" : "relative"}
    >
      <label htmlFor={id} className="sr-only">
        {t("siteSearch.label")}
      </label>
      {loaded ? (
        <loaded.Typeahead
          inputId={id}
          inputClass={inputClass}
          variant={variant}
          takeOver={loaded.takeOver}
          tookFocus={loaded.focused}
        />
      ) : (
        <input
          id={id}
          type="search"
          name="q"
          placeholder={t("siteSearch.placeholder")}
          className={inputClass}
          onFocus={wake}
        />
      )}
    </Form>
  );
}

/** The header's search field that is shown: the header row's, or the open mobile menu's. */
const shownField = () =>
  // Not by its box: a closed <details>' content keeps one in Chromium (hidden by content-visibility).
  [...document.querySelectorAll<HTMLInputElement>("header [role=search] input")].find((input) =>
    input.checkVisibility(),
  );

/**
 * `/` focuses the search field from anywhere but where a `/` is typed (a field, an editor) and a dialog (the
 * lightbox keeps the focus while it is open). On a narrow screen the field is in the menu, which opens.
 */
export function useSearchShortcut(openMenu: () => void) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || target.isContentEditable) return;
      if (target.closest?.("input,textarea,select,dialog")) return;
      if (!shownField()) openMenu();
      const field = shownField();
      if (!field) return;
      event.preventDefault();
      field.focus();
      field.select();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [openMenu]);
}
