import { useMemo, useSyncExternalStore } from "react";
import { useRouteLoaderData } from "react-router";
import type { MenuSectionId, MenuSections } from "#app/domains/content/menu-sections.ts";
import {
  createTranslator,
  type Dictionary,
  type Language,
  type MessageKey,
  type Translate,
  type TranslateWith,
} from "#app/i18n/i18n.ts";
import type { Theme } from "#app/lib/preferences.ts";
import type { SeoData } from "./meta.ts";

export type RootData = {
  lang: Language;
  /** The theme the server rendered; with `followSystemTheme` the head's script may have made the page light. */
  theme: Theme;
  followSystemTheme: boolean;
  /**
   * The language's strings as JSON text: one value to React Router's serialiser, which otherwise walks an object's
   * every key and value (362 of them on every page, a third of `/`'s values) on every uncached answer.
   */
  dictionary: string;
  user: { email: string; isAdmin: boolean } | null;
  site: { name: string; logoText: string; logoUrl: string };
  /** The content pages the main menu offers (an empty one leaves it unless the settings keep it). */
  menu: MenuSections;
  /** Every menu section in the owner's order (the setting `menu_order`, sections it does not name last). */
  menuOrder: MenuSectionId[];
  footer: {
    copyright: string;
    siteName: string;
    description: string;
    imprintTitle: string;
    imprintHtml: string;
    privacyTitle: string;
    privacyHtml: string;
  };
  seo: SeoData;
};

export function useRootData(): RootData | undefined {
  return useRouteLoaderData("root") as RootData | undefined;
}

function watchThemeClass(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}

/**
 * The theme the page shows: on the server and while hydrating, the one the server rendered; then the `<html>`
 * class itself, which the head's script may have changed (a site following the visitor's system) and the
 * theme switch changes in place.
 */
export function useShownTheme(): Theme {
  const rendered = useRootData()?.theme ?? "dark";
  return useSyncExternalStore(
    watchThemeClass,
    () => (document.documentElement.classList.contains("light") ? "light" : "dark"),
    () => rendered,
  );
}

/**
 * Each dictionary text read so far, read once. The server has one text per language, and a browser gets the same one
 * with every page (and a new one only with a new release of the site), so this stays as small as that.
 */
const readDictionaries = new Map<string, Dictionary>();

function useRootDictionary(): Dictionary {
  const text = useRootData()?.dictionary ?? "{}";
  let dictionary = readDictionaries.get(text);
  if (!dictionary) {
    dictionary = JSON.parse(text) as Dictionary;
    readDictionaries.set(text, dictionary);
  }
  return dictionary;
}

/** The current language's strings, as sent by the root loader. */
export function useTranslate(): Translate {
  const dictionary = useRootDictionary();
  return useMemo(() => createTranslator(dictionary), [dictionary]);
}

/** The root dictionary's strings and a route's own, as its loader sent them (kept off every other page). */
export function useTranslateWith<Key extends string>(own: Record<Key, string>): TranslateWith<MessageKey | Key> {
  const dictionary = useRootDictionary();
  return useMemo(() => createTranslator<MessageKey | Key>({ ...dictionary, ...own }), [dictionary, own]);
}
