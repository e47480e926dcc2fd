import { contactDe } from "./contact.de.ts";
import { contactEn } from "./contact.en.ts";
import type { Language } from "./i18n.ts";

/** The contact page's own strings; they translate together with the root dictionary's. */
export type ContactMessageKey = keyof typeof contactEn;
export type ContactDictionary = Record<ContactMessageKey, string>;

export function contactDictionaryFor(lang: Language): ContactDictionary {
  return lang === "de" ? contactDe : contactEn;
}
