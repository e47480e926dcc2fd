import type { ShouldRevalidateFunction } from "react-router";

/** `/` with the given filter, page and picture (empty values left out). */
export function galleryHref(params: { category?: string | null; page?: number; image?: string | null }): string {
  const search = new URLSearchParams();
  if (params.category) search.set("category", params.category);
  if (params.page && params.page > 1) search.set("page", String(params.page));
  if (params.image) search.set("image", params.image);
  const query = search.toString();
  return query ? `/?${query}` : "/";
}

/**
 * Whether going from one address to the other only opens, moves or closes the gallery's lightbox: same
 * page of the site, same filter, and a picture named on at least one side. Such steps (including Back and
 * Forward) need no data from the server, since the pictures are already on the page.
 */
export function isLightboxStep(current: URL, next: URL): boolean {
  // The same address again is a reload asked for (a language or theme switch), never a lightbox step.
  if (current.href === next.href) return false;
  if (current.pathname !== "/" || next.pathname !== "/") return false;
  if (current.searchParams.get("category") !== next.searchParams.get("category")) return false;
  if (!current.searchParams.has("image") && !next.searchParams.has("image")) return false;
  const others = (url: URL) =>
    [...url.searchParams.keys()]
      .filter((key) => !["category", "image", "page"].includes(key))
      .sort()
      .join("&");
  return others(current) === others(next);
}

/** `shouldRevalidate` for the root and the gallery: a lightbox step loads nothing; anything else as usual. */
export const keepDataForLightboxSteps: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => (formMethod === undefined && isLightboxStep(currentUrl, nextUrl) ? false : defaultShouldRevalidate);
