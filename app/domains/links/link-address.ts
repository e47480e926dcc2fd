/**
 * What a stored link address is, and the `href` a page gives it. Kept free of zod and the database: the public
 * link list imports it, and a visitor's page should carry no more than these few lines.
 */
export type LinkAddressKind = "web" | "mail" | "phone";

export function linkAddressKind(url: string): LinkAddressKind {
  const scheme = url.slice(0, url.indexOf(":") + 1).toLowerCase();
  return scheme === "mailto:" ? "mail" : scheme === "tel:" ? "phone" : "web";
}

/**
 * The address as a link's `href`. A telephone number keeps its spaces in the admin (as the owner typed it) but not
 * in the link: RFC 3966 allows `-`, `.`, `(` and `)` as visual separators, not spaces.
 */
export function linkHref(url: string): string {
  return linkAddressKind(url) === "phone" ? url.replace(/\s+/g, "") : url;
}
