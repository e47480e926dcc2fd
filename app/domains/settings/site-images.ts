import { settingSpecs } from "./setting-registry.ts";
import type { SettingKey } from "./settings-defaults.ts";

/** Images an admin uploads for the site itself (not the gallery), shared by the server and the settings screen. */
export const SITE_IMAGE_KINDS = ["logo", "favicon", "share-image"] as const;
export type SiteImageKind = (typeof SITE_IMAGE_KINDS)[number];

export function isSiteImageKind(value: unknown): value is SiteImageKind {
  return (SITE_IMAGE_KINDS as readonly unknown[]).includes(value);
}

/** The setting each kind of site image fills in (the registry's `siteImage`), in the registry's order. */
export const SITE_IMAGE_SETTING = Object.fromEntries(
  Object.values(settingSpecs).flatMap((spec) => (spec.siteImage ? [[spec.siteImage, spec.key]] : [])),
) as Readonly<Record<SiteImageKind, SettingKey>>;

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
