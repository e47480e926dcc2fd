import { useMemo } from "react";
import { useRouteLoaderData } from "react-router";
import type { AccountDictionary, AccountTranslate } from "#app/i18n/account-dictionary.ts";
import { createTranslator, type Language } from "#app/i18n/i18n.ts";

export type AccountLayoutData = { email: string; isAdmin: boolean; lang: Language; dictionary: AccountDictionary };

export const ACCOUNT_LAYOUT_ROUTE_ID = "routes/account";

export function useAccountData(): AccountLayoutData | undefined {
  return useRouteLoaderData(ACCOUNT_LAYOUT_ROUTE_ID) as AccountLayoutData | undefined;
}

/** The account pages' strings, sent by the account layout's loader. */
export function useAccountTranslate(): AccountTranslate {
  const dictionary = useAccountData()?.dictionary;
  return useMemo(() => createTranslator(dictionary ?? ({} as AccountDictionary)), [dictionary]);
}
