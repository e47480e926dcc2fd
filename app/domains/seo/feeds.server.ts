import { Feed } from "feed";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { cachedUntilChanged } from "#app/db/version-cache.server.ts";
import { type ImageDisplay, largeImage } from "#app/domains/media/image-display.ts";
import { contentTypeOf, publicMediaKey } from "#app/domains/media/media-keys.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { postHref } from "#app/domains/posts/blog-pages.server.ts";
import { renderPostBody } from "#app/domains/posts/post-body.server.ts";
import { listPostsForFeed } from "#app/domains/posts/post-public.server.ts";
import type { PublicPost } from "#app/domains/posts/post-rows.server.ts";
import { brandDefault } from "#app/domains/settings/brand.ts";
import { localizedSetting, siteDescription, siteTitle } from "#app/domains/settings/settings.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { type FeedFormat, feedUrl } from "./feed-links.ts";
import { absolute, DEFAULT_SHARE_IMAGE, languageUrls } from "./seo-urls.ts";

export type { FeedFormat };

/**
 * The blog's feeds, RSS 2.0 and Atom 1.0, one per language, made by the `feed` library:
 * `/blog/feed.xml` and `/blog/atom.xml`, German with `?lang=de` as every page of the site. Each carries the
 * newest FEED_SIZE visible posts (drafts and posts not yet due never), in full or as their excerpt by the
 * setting `feed_full_content`. Addresses inside a post are made absolute: a feed reader shows the HTML
 * away from the site.
 */
export const FEED_SIZE = 20;

/** A post's page in a language, as the sitemap and the page's own canonical link name it. */
export function postUrl(baseUrl: string, post: Pick<PublicPost, "slugs">, lang: Language): string {
  const urls = languageUrls(baseUrl, { en: postHref(post.slugs.en), de: postHref(post.slugs.de) });
  return lang === "de" ? urls.de : urls.default;
}

/**
 * The post's HTML with every same-site address absolute (`src`, `href`, each `srcset` candidate) and the
 * heading links (`#id`) pointing into the post's page.
 */
export function absoluteAddresses(html: string, baseUrl: string, pageUrl: string): string {
  const origin = new URL(`${baseUrl}/`).origin;
  return html
    .replace(/\s(src|href)="(\/(?!\/)[^"]*)"/g, (_all, name: string, path: string) => ` ${name}="${origin}${path}"`)
    .replace(/\shref="(#[^"]*)"/g, (_all, hash: string) => ` href="${pageUrl.replace(/&/g, "&amp;")}${hash}"`)
    .replace(
      /\ssrcset="([^"]*)"/g,
      (_all, list: string) =>
        ` srcset="${list
          .split(",")
          .map((candidate) => candidate.trim().replace(/^\/(?!\/)/, `${origin}/`))
          .join(", ")}"`,
    );
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const FEED_TITLE: Record<Language, string> = { en: "Blog", de: "Blog" };

type FeedOptions = { baseUrl: string; format: FeedFormat; lang: Language; now?: Date; storage: FileStorage };

/**
 * A cover as the item's enclosure: the file a reader downloads, with the type the site serves it as and its
 * real size in bytes (RSS asks for both; a guess from the name said "image/jpg", and 0). None when the file
 * cannot be found.
 */
async function coverEnclosure(cover: ImageDisplay, baseUrl: string, storage: FileStorage) {
  const src = largeImage(cover).src;
  const key = src ? publicMediaKey(src) : null;
  const file = key ? await storage.stat(key).catch(() => null) : null;
  if (!key || !file) return undefined;
  return { url: absolute(src, baseUrl), type: contentTypeOf(key), length: file.size };
}

async function buildFeed(db: Kysely<Database>, settings: SiteSettings, options: FeedOptions): Promise<string> {
  const { baseUrl, format, lang } = options;
  const posts = await listPostsForFeed(db, lang, FEED_SIZE, { now: options.now });
  const full = settings.feed_full_content !== "false";
  const blog = languageUrls(baseUrl, "/blog");
  const blogUrl = lang === "de" ? blog.de : blog.default;
  const name = siteTitle(settings);
  const copyright =
    localizedSetting(settings, "footer_copyright", lang).trim() || brandDefault("footer_copyright", settings.site_name);
  const newest = posts
    .map((post) => post.updatedAt)
    .sort()
    .at(-1);
  const feed = new Feed({
    title: `${name} · ${FEED_TITLE[lang]}`,
    description: siteDescription(settings, lang),
    id: blogUrl,
    link: blogUrl,
    language: lang,
    // Without posts, the time is fixed (not "now"), so the same feed is the same text.
    updated: new Date(newest ?? 0),
    generator: "Vitrine",
    image: absolute(settings.meta_og_image.trim() || DEFAULT_SHARE_IMAGE, baseUrl),
    favicon: absolute(settings.site_favicon_url.trim() || "/favicon.svg", baseUrl),
    copyright,
    feedLinks: { rss: feedUrl(baseUrl, "rss", lang), atom: feedUrl(baseUrl, "atom", lang) },
    author: { name: settings.site_name, link: languageUrls(baseUrl, "/home")[lang === "de" ? "de" : "default"] },
  });
  for (const post of posts) {
    const link = postUrl(baseUrl, post, lang);
    const cover = post.cover ? await coverEnclosure(post.cover, baseUrl, options.storage) : undefined;
    const content = full
      ? absoluteAddresses((await renderPostBody(post.body, lang, { db })).html, baseUrl, link)
      : undefined;
    feed.addItem({
      // Titles and summaries are HTML in both formats (Atom says type="html"): the plain texts are escaped.
      title: escapeHtml(post.title),
      id: link,
      link,
      description: post.excerpt ? escapeHtml(post.excerpt) : undefined,
      content,
      // RSS readers order by pubDate, which an edit should not move; Atom has both times.
      date: new Date(format === "rss" ? post.publishedAt : post.updatedAt),
      published: new Date(post.publishedAt),
      author: post.authorName ? [{ name: post.authorName }] : undefined,
      category: post.tags.map((tag) => ({ name: tag, term: tag })),
      image: cover,
    });
  }
  return format === "rss" ? feed.rss2() : enclosureTypes(feed.atom1());
}

/**
 * The `feed` library's Atom output names an enclosure's type after its file's extension ("image/jpg", which is no
 * type) whatever the item says; its RSS output takes the item's. The served type goes in instead.
 */
function enclosureTypes(atom: string): string {
  return atom.replace(
    /(<link rel="enclosure" href="([^"]*)"(?: title="[^"]*")?) type="[^"]*"/g,
    (_all, start: string, href: string) =>
      `${start} type="${contentTypeOf(new URL(href.replace(/&amp;/g, "&")).pathname)}"`,
  );
}

/**
 * One feed as XML, kept until what it shows changes (publishing, an edit, a cover, an author's name or a setting is
 * a write).
 */
export function renderFeed(db: Kysely<Database>, settings: SiteSettings, options: FeedOptions): Promise<string> {
  if (options.now) return buildFeed(db, settings, options);
  return cachedUntilChanged(
    db,
    `feed:${options.format}:${options.lang}:${options.baseUrl}`,
    () => buildFeed(db, settings, options),
    ["posts", "media", "users", "settings"],
  );
}
