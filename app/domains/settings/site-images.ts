/**
 * Images an admin uploads for the site itself (not the gallery), shared by the server and the settings screen; the
 * setting each fills in is the registry's (SITE_IMAGE_SETTING). Visitors' pages load this module (favicon links),
 * so it imports no value from the registry, which holds every default text.
 */
export const SITE_IMAGE_KINDS = ["logo", "favicon", "share-image"] as const;
export type SiteImageKind = (typeof SITE_IMAGE_KINDS)[number];

export function isSiteImageKind(value: unknown): value is SiteImageKind {
  return (SITE_IMAGE_KINDS as readonly unknown[]).includes(value);
}

/** Storage prefix of the site images: served at /media/site/…. */
export const SITE_IMAGE_PREFIX = "public/site/";

/** The icon sizes browsers and phones ask for; the first is what the favicon setting names. */
export const FAVICON_SIZES = [32, 180, 192, 512] as const;

const UPLOADED_FAVICON = /^\/media\/site\/favicon-([0-9a-f]{16})-32\.png$/;

export type IconLink = { rel: "icon" | "apple-touch-icon"; sizes: string; href: string; type: string };

/**
 * The icon links of an uploaded favicon (its setting names the 32 px file; the other sizes sit beside it),
 * or null for a favicon address typed in by hand.
 */
export function faviconUrls(setting: string): IconLink[] | null {
  const hash = UPLOADED_FAVICON.exec(setting)?.[1];
  if (!hash) return null;
  return FAVICON_SIZES.map((size) => ({
    rel: size === 180 ? "apple-touch-icon" : "icon",
    sizes: `${size}x${size}`,
    href: `/media/site/favicon-${hash}-${size}.png`,
    type: "image/png",
  }));
}
