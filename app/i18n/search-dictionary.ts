import type { Language } from "./i18n.ts";
import { searchDe } from "./search.de.ts";
import { searchEn } from "./search.en.ts";

/** The search page's own strings; they translate together with the root dictionary's. */
export type SearchMessageKey = keyof typeof searchEn;
export type SearchDictionary = Record<SearchMessageKey, string>;

export function searchDictionaryFor(lang: Language): SearchDictionary {
  return lang === "de" ? searchDe : searchEn;
}
