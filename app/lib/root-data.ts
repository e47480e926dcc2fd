import { useMemo } from "react";
import { useRouteLoaderData } from "react-router";
import { createTranslator, type Dictionary, type Language, type Translate } from "#app/i18n/i18n.ts";
import type { SeoData } from "./meta.ts";
import type { Theme } from "./preferences.ts";

export type RootData = {
  lang: Language;
  theme: Theme;
  dictionary: Dictionary;
  user: { email: string; isAdmin: boolean } | null;
  site: { name: string; logoText: string; logoUrl: string };
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
