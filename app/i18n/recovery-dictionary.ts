import type { Language } from "./i18n.ts";
import { recoveryDe } from "./recovery.de.ts";
import { recoveryEn } from "./recovery.en.ts";

/** The password-recovery pages' own strings; they translate together with the root dictionary's. */
export type RecoveryMessageKey = keyof typeof recoveryEn;
export type RecoveryDictionary = Record<RecoveryMessageKey, string>;

export function recoveryDictionaryFor(lang: Language): RecoveryDictionary {
  return lang === "de" ? recoveryDe : recoveryEn;
}
