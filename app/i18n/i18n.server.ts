import { de } from "./de.ts";
import { en } from "./en.ts";
import { createTranslator, type Dictionary, type Language } from "./i18n.ts";

// Dictionaries reach the browser only through the root loader, one language at a time.
export function dictionaryFor(lang: Language): Dictionary {
  return lang === "de" ? de : en;
}

export function translatorFor(lang: Language) {
  return createTranslator(dictionaryFor(lang));
}
