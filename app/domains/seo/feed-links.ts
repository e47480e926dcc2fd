import type { Language } from "#app/i18n/i18n.ts";

/**
 * The blog's feed addresses (made by app/domains/seo/feeds.server.ts), shared with every page's head, which
 * names the feeds of its language for autodiscovery. German with `?lang=de`, as every page of the site.
 */
export type FeedFormat = "rss" | "atom";

export const FEED_PATHS: Record<FeedFormat, string> = { rss: "/blog/feed.xml", atom: "/blog/atom.xml" };

export const FEED_TYPES: Record<FeedFormat, string> = {
  rss: "application/rss+xml",
  atom: "application/atom+xml",
};

/** A feed's address in a language: English without `?lang`, as the pages' canonical addresses are. */
export function feedUrl(baseUrl: string, format: FeedFormat, lang: Language): string {
  const url = new URL(FEED_PATHS[format], `${baseUrl}/`);
  if (lang === "de") url.searchParams.set("lang", "de");
  return url.href;
}

/** The `<link rel="alternate">`s that let browsers and feed readers find the feeds from any page. */
export function feedAutodiscovery(baseUrl: string, siteTitle: string, lang: Language) {
  return (["rss", "atom"] as const).map((format) => ({
    tagName: "link" as const,
    rel: "alternate",
    type: FEED_TYPES[format],
    title: `${siteTitle} · Blog (${format === "rss" ? "RSS" : "Atom"})`,
    href: feedUrl(baseUrl, format, lang),
  }));
}
