import { useMemo } from "react";
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
import type { SeoData } from "./meta.ts";
import type { Theme } from "./preferences.ts";

export type RootData = {
  lang: Language;
  theme: Theme;
  dictionary: Dictionary;
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

/** The current language's strings, as sent by the root loader. */
export function useTranslate(): Translate {
  const dictionary = useRootData()?.dictionary;
  return useMemo(() => createTranslator(dictionary ?? ({} as Dictionary)), [dictionary]);
}

/** The root dictionary's strings and a route's own, as its loader sent them (kept off every other page). */
export function useTranslateWith<Key extends string>(own: Record<Key, string>): TranslateWith<MessageKey | Key> {
  const dictionary = useRootData()?.dictionary;
  return useMemo(
    () => createTranslator<MessageKey | Key>({ ...(dictionary ?? ({} as Dictionary)), ...own }),
    [dictionary, own],
  );
}
