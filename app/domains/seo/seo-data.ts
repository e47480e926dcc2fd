import { siteDescription, siteTitle } from "#app/domains/settings/settings.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import type { Language } from "#app/i18n/i18n.ts";
import type { SeoData } from "./seo-urls.ts";

/**
 * What every page's head is made from (the root loader sends it), also for loaders that make a page's structured
 * data on the server, so a visitor's code carries no JSON-LD builder.
 */
export function seoDataFor(settings: SiteSettings, lang: Language, baseUrl: string): SeoData {
  return {
    lang,
    baseUrl,
    siteTitle: siteTitle(settings),
    description: siteDescription(settings, lang),
    ogImage: settings.meta_og_image,
    faviconUrl: settings.site_favicon_url,
  };
}
