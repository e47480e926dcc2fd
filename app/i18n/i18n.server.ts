import { de } from "./de.ts";
import { en } from "./en.ts";
import { createTranslator, type Dictionary, type Language, type MessageKey } from "./i18n.ts";

// Dictionaries reach the browser only through the root loader, one language at a time.
export function dictionaryFor(lang: Language): Dictionary {
  return lang === "de" ? de : en;
}

/** The language's root dictionary as JSON text, made once: what the root loader sends (root-data.ts says why). */
const dictionaryTexts = new Map<Language, string>();

export function dictionaryTextFor(lang: Language): string {
  let text = dictionaryTexts.get(lang);
  if (text === undefined) {
    text = JSON.stringify(dictionaryFor(lang));
    dictionaryTexts.set(lang, text);
  }
  return text;
}

export function translatorFor(lang: Language) {
  return createTranslator(dictionaryFor(lang));
}

/** A translator over the root dictionary and a route's own (the account and recovery pages send theirs). */
export function translatorWith<Key extends string>(lang: Language, own: Record<Key, string>) {
  return createTranslator<MessageKey | Key>({ ...dictionaryFor(lang), ...own });
}
