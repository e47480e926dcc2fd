import { useMemo } from "react";
import { useRouteLoaderData } from "react-router";
import type { AdminDictionary, AdminTranslate } from "#app/i18n/admin-dictionary.ts";
import { createTranslator, type Language } from "#app/i18n/i18n.ts";

export type AdminLayoutData = { email: string; lang: Language; dictionary: AdminDictionary };

export const ADMIN_LAYOUT_ROUTE_ID = "routes/admin";

export function useAdminData(): AdminLayoutData | undefined {
  return useRouteLoaderData(ADMIN_LAYOUT_ROUTE_ID) as AdminLayoutData | undefined;
}

/** The admin screens' strings, sent by the admin layout's loader (visitors never receive them). */
export function useAdminTranslate(): AdminTranslate {
  const dictionary = useAdminData()?.dictionary;
  return useMemo(() => createTranslator(dictionary ?? ({} as AdminDictionary)), [dictionary]);
}
