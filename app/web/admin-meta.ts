import type { MetaDescriptor } from "react-router";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import { ADMIN_LAYOUT_ROUTE_ID, type AdminLayoutData } from "#app/lib/admin-data.ts";
import { pageMeta, rootSeo } from "./meta.ts";

/** The head of an admin screen: its name in the admin's language in front of the site title, never indexed. */
export function adminPageMeta(
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>,
  pathname: string,
  title: AdminMessageKey,
): MetaDescriptor[] {
  const layout = matches.find((match) => match?.id === ADMIN_LAYOUT_ROUTE_ID)?.loaderData as
    | AdminLayoutData
    | undefined;
  return [
    ...pageMeta(rootSeo(matches), pathname, { title: layout?.dictionary[title] ?? "Admin" }),
    { name: "robots", content: "noindex" },
  ];
}
