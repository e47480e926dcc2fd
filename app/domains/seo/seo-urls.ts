import type { Language } from "#app/i18n/i18n.ts";

export const DEFAULT_SHARE_IMAGE = "/og-image.png";

export type SeoData = {
  lang: Language;
  baseUrl: string;
  siteTitle: string;
  description: string;
  ogImage: string;
  faviconUrl: string;
};

/** The URL made absolute against the site; the site itself when it cannot be read. */
export function absolute(url: string, baseUrl: string): string {
  try {
    return new URL(url, `${baseUrl}/`).href;
  } catch {
    return baseUrl;
  }
}

/** The page's address on BASE_URL: the path, the query that names what the page shows (a shared picture), the language. */
function urlFor(baseUrl: string, pathname: string, query: Record<string, string>, lang?: Language): string {
  const url = new URL(pathname, `${baseUrl}/`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  if (lang) url.searchParams.set("lang", lang);
  return url.href;
}

/**
 * A page's address per language, as its hreflang alternates name them: `en` and `de` by `?lang=`, `default`
 * (x-default, and the English page's canonical) without. The sitemap lists the same (app/domains/seo/).
 */
export function languageUrls(
  baseUrl: string,
  pathname: string | Record<Language, string>,
  query: Record<string, string> = {},
): { en: string; de: string; default: string } {
  // A blog post has a path (slug) per language; the x-default is the English one.
  const pathIn = (lang: Language) => (typeof pathname === "string" ? pathname : pathname[lang]);
  return {
    en: urlFor(baseUrl, pathIn("en"), query, "en"),
    de: urlFor(baseUrl, pathIn("de"), query, "de"),
    default: urlFor(baseUrl, pathIn("en"), query),
  };
}
