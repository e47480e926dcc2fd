import { accountCommonDe } from "./account/common.de.ts";
import { accountCommonEn } from "./account/common.en.ts";
import { accountEmailDe } from "./account/email.de.ts";
import { accountEmailEn } from "./account/email.en.ts";
import { accountProfileDe } from "./account/profile.de.ts";
import { accountProfileEn } from "./account/profile.en.ts";
import { accountTwoFactorDe } from "./account/two-factor.de.ts";
import { accountTwoFactorEn } from "./account/two-factor.en.ts";
import { createTranslator, type Language, type TranslateWith } from "./i18n.ts";

/**
 * The account pages' strings (English the source, German checked by the type). Like the admin strings, they reach
 * the browser only through the account layout's loader: a visitor's JavaScript never holds them.
 */
export const accountEn = { ...accountCommonEn, ...accountProfileEn, ...accountEmailEn, ...accountTwoFactorEn };
export type AccountMessageKey = keyof typeof accountEn;
export type AccountDictionary = Record<AccountMessageKey, string>;
export const accountDe = {
  ...accountCommonDe,
  ...accountProfileDe,
  ...accountEmailDe,
  ...accountTwoFactorDe,
} satisfies AccountDictionary;

export function accountDictionaryFor(lang: Language): AccountDictionary {
  return lang === "de" ? accountDe : accountEn;
}

export type AccountTranslate = TranslateWith<AccountMessageKey>;

export function accountTranslatorFor(lang: Language): AccountTranslate {
  return createTranslator(accountDictionaryFor(lang));
}
