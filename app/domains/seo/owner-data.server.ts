import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import type { OwnerData } from "./structured-data.ts";

/**
 * The site's owner for the home page's `Person`: the site's name (a personal site carries its owner's), the
 * logo or else the share image as their picture, and the published links that lead to other sites as their
 * profiles elsewhere (`sameAs`; mailto and same-site links are not profiles).
 */
export function ownerData(settings: SiteSettings, links: readonly { url: string }[]): OwnerData {
  const sameAs = links.map((link) => link.url.trim()).filter((url) => /^https?:\/\/[^/]/i.test(url));
  return {
    name: settings.site_name.trim() || "Vitrine",
    image: settings.site_logo_url.trim() || settings.meta_og_image.trim(),
    sameAs: [...new Set(sameAs)],
  };
}
