import { de } from "./de.ts";
import { en } from "./en.ts";
import { createTranslator, type Dictionary, type Language, type MessageKey } from "./i18n.ts";

// Dictionaries reach the browser only through the root loader, one language at a time.
export function dictionaryFor(lang: Language): Dictionary {
  return lang === "de" ? de : en;
}

/** Each language's root dictionary as JSON text, made once: what the root loader sends (root-data.ts says why). */
const DICTIONARY_TEXTS: Record<Language, string> = { en: JSON.stringify(en), de: JSON.stringify(de) };

export function dictionaryTextFor(lang: Language): string {
  return DICTIONARY_TEXTS[lang];
}

export function translatorFor(lang: Language) {
  return createTranslator(dictionaryFor(lang));
}

/** A translator over the root dictionary and a route's own (the account and recovery pages send theirs). */
export function translatorWith<Key extends string>(lang: Language, own: Record<Key, string>) {
  return createTranslator<MessageKey | Key>({ ...dictionaryFor(lang), ...own });
}
