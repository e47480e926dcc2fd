import type { MetaDescriptor } from "react-router";
import { feedAutodiscovery } from "#app/domains/seo/feed-links.ts";
import { absolute, DEFAULT_SHARE_IMAGE, languageUrls, type SeoData } from "#app/domains/seo/seo-urls.ts";
import { faviconUrls } from "#app/domains/settings/site-images.ts";
import type { Language } from "#app/i18n/i18n.ts";

// The addresses every surface shares (pages, feeds, sitemap, structured data) are the SEO domain's.
export { absolute, DEFAULT_SHARE_IMAGE, languageUrls, type SeoData } from "#app/domains/seo/seo-urls.ts";

/**
 * The head of every page: title, description, Open Graph and Twitter cards, icons,
 * canonical and hreflang alternates. A sub-page passes its own name to prefix the title, and the query
 * parameters that make it a page of its own (`image` of a shared picture; not `page` or `lang`).
 */
export function pageMeta(
  seo: SeoData | undefined,
  pathname: string,
  page: {
    title?: string;
    description?: string;
    query?: Record<string, string>;
    /** The path of each language version where they differ (a blog post has a slug per language). */
    paths?: Record<Language, string>;
  } = {},
): MetaDescriptor[] {
  if (!seo) return [{ title: page.title ?? "Tech Blog" }];
  const title = page.title ? `${page.title} · ${seo.siteTitle}` : seo.siteTitle;
  const description = page.description?.trim() || seo.description;
  const query = page.query ?? {};
  // One address per page, on BASE_URL, for search engines (canonical) and link previews (og:url) alike: two
  // different ones split what a shared link and a search result count for.
  const urls = languageUrls(seo.baseUrl, page.paths ?? pathname, query);
  const canonical = seo.lang === "de" ? urls.de : urls.default;
  const icon = seo.faviconUrl || "/favicon.svg";
  const touchIcon = seo.faviconUrl || "/apple-touch-icon.png";
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:url", content: canonical },
    { property: "og:locale", content: seo.lang === "de" ? "de_DE" : "en_US" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { tagName: "link", rel: "canonical", href: canonical },
    { tagName: "link", rel: "alternate", hrefLang: "en", href: urls.en },
    { tagName: "link", rel: "alternate", hrefLang: "de", href: urls.de },
    { tagName: "link", rel: "alternate", hrefLang: "x-default", href: urls.default },
    // The blog's feeds in the page's language, for feed readers' autodiscovery.
    ...feedAutodiscovery(seo.baseUrl, seo.siteTitle, seo.lang),
  ];
  // An uploaded favicon comes in the sizes browsers and phones ask for; a typed address serves for all.
  const uploadedIcons = seo.faviconUrl ? faviconUrls(seo.faviconUrl) : null;
  if (uploadedIcons) {
    for (const link of uploadedIcons) tags.push({ tagName: "link", ...link });
  } else {
    tags.push(
      { tagName: "link", rel: "icon", href: icon },
      { tagName: "link", rel: "apple-touch-icon", href: touchIcon },
    );
  }
  // Without a configured share image, the card shipped with the site (public/og-image.png, 1200×630).
  const image = absolute(seo.ogImage.trim() || DEFAULT_SHARE_IMAGE, seo.baseUrl);
  tags.push({ property: "og:image", content: image }, { name: "twitter:image", content: image });
  return tags;
}

/** The root loader's SEO data, as seen from any route's `meta`. */
/**
 * The head of a page search engines should leave out (sign-in, account, admin, not found): the usual tags
 * plus `noindex`. `title` may name the page in both languages; the root's language picks one.
 */
export function noindexPageMeta(
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>,
  pathname: string,
  title: string | { en: string; de: string } | undefined,
): MetaDescriptor[] {
  const seo = rootSeo(matches);
  const text = typeof title === "object" ? title[seo?.lang === "de" ? "de" : "en"] : title;
  return [...pageMeta(seo, pathname, { title: text }), { name: "robots", content: "noindex" }];
}

export function rootSeo(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>): SeoData | undefined {
  const root = matches.find((match) => match?.id === "root")?.loaderData as { seo?: SeoData } | undefined;
  return root?.seo;
}
