import type { ChangeArea } from "#app/db/change-areas.ts";
import type { KeptDependencies } from "#app/db/version-cache.server.ts";
import { MENU_SECTIONS_KEY } from "#app/domains/content/menu-sections.server.ts";

/**
 * What each kept public page shows of the database, so that a write in one area leaves the pages of the others
 * kept (issue 19): a new FAQ entry no longer empties the kept gallery pages. Conservative by rule: an area a page
 * might show is named, and an address not listed here depends on everything.
 *
 * Every page shows the header and footer (settings) and the main menu. The menu reads links, FAQ, videos and
 * posts, but only whether each has a published entry: pages name the menu's kept value rather than those areas,
 * so that a change that leaves the menu as it was leaves them kept (see `KeptDependencies`).
 */
const EVERY_PAGE: readonly ChangeArea[] = ["settings"];
const MENU = [MENU_SECTIONS_KEY];

/** By the page's first path segment ('' for the gallery at `/`); blog pages show their author's name (users). */
const PAGE_AREAS: Readonly<Record<string, readonly ChangeArea[]>> = {
  "": ["gallery", "media"],
  home: ["gallery", "media", "links", "posts", "videos", "users"],
  links: ["links"],
  faq: ["faq"],
  videos: ["videos", "media"],
  blog: ["posts", "media", "users"],
  albums: ["albums", "gallery", "media"],
  "legal-notice": [],
  privacy: [],
  contact: [],
};

/**
 * The page an address (with its query) shows: the path without its query and React Router's `.data` suffix (a
 * client-side navigation's data), where a path ending in `/` takes `_.data` (the data of `/` is `/_.data`).
 */
function firstSegment(url: string): string | undefined {
  let pathname = url.split("?")[0] ?? "";
  if (pathname.endsWith("/_.data")) pathname = pathname.slice(0, -"_.data".length);
  else if (pathname.endsWith(".data")) pathname = pathname.slice(0, -".data".length);
  const match = /^\/([a-z-]*)(\/|$)/.exec(pathname);
  return match?.[1];
}

/** What the page at `url` depends on: its areas and the menu, or undefined (everything) when not known. */
export function pageDependencies(url: string): KeptDependencies | undefined {
  const segment = firstSegment(url);
  if (segment === undefined || !Object.hasOwn(PAGE_AREAS, segment)) return undefined;
  return { areas: [...EVERY_PAGE, ...(PAGE_AREAS[segment] ?? [])], values: MENU };
}

/** The page cache's key starts with the address (server/page-cache.ts, `pageCacheKey`). */
export function pageDependenciesOfKey(key: string): KeptDependencies {
  return pageDependencies(key.split("\u0000")[0] ?? "") ?? {};
}
