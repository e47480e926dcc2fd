import type { Kysely } from "kysely";
import type { Database, DbDate } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { cachedUntilChanged } from "#app/db/version-cache.server.ts";
import { readableBy } from "#app/domains/access/access.server.ts";
import { VISITOR } from "#app/domains/access/reader.ts";
import { hasPublicAlbum, listPublicAlbumPaths } from "#app/domains/albums/albums-public.server.ts";
import { readMenuSections } from "#app/domains/content/menu-sections.server.ts";
import { publishedOrderQuery } from "#app/domains/gallery/gallery-public.server.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import { largeImage } from "#app/domains/media/image-display.ts";
import { hasPublishedPost } from "#app/domains/posts/post-public.server.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { languageUrls } from "./seo-urls.ts";

/**
 * `/sitemap.xml`: every public page in both languages, each language's address with the same hreflang
 * alternates as the page's own head (`pageMeta`: `en` and `de` by `?lang=`, `x-default` without), its last
 * change, and the published gallery pictures' own pages (`/?image=<id>`) with the image sitemap extension.
 * The two addresses listed per page are the plain one (English for a visitor without a choice: the x-default)
 * and `?lang=de`, the pages' canonical addresses.
 *
 * Kept until the database changes, like everything derived from the content. A site is far below the
 * protocol's 50,000 addresses (two per page and picture); beyond that a sitemap index would be needed.
 */
export type SitemapEntry = {
  /**
   * The page's path (or each language's, where they differ: a blog post's slugs) and the query that names what
   * it shows (`{ image: id }`), without the language.
   */
  path: string | Record<Language, string>;
  query?: Record<string, string>;
  lastmod?: string;
  /** Absolute addresses of pictures on the page (the image sitemap extension). */
  images?: string[];
};

/** Extra entries (the blog's posts) are added through this, so the sitemap needs no knowledge of them here. */
export type SitemapSource = (db: Kysely<Database>, options: { now: Date }) => Promise<SitemapEntry[]>;

function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function latest(...dates: (DbDate | null | undefined)[]): string | undefined {
  const times = dates.filter((date): date is DbDate => date != null).map((date) => toIsoString(date));
  return times.sort().at(-1);
}

/**
 * When what a page shows a visitor last changed, per area (issue 42): the newest change visitors could notice (the
 * area's newest change event for everyone, kept by migration 0029: edits, and also deletions, hiding and
 * restricting of what they saw), or the newest visible row's own time for content that came without an event's
 * record (a site older than 0029). Never a hidden or restricted row's time, nor an admin's audit entry about one:
 * editing a Family-only picture must not move the gallery's `<lastmod>`, or the sitemap would tell that it exists.
 */
async function lastChanges(db: Kysely<Database>, pictureTimes: DbDate[]) {
  const newest = async (query: Promise<{ at: DbDate | null } | undefined>) => (await query)?.at ?? null;
  const [stamps, setUp, links, faq, videos] = await Promise.all([
    db.selectFrom("public_changes").select(["area", "changed_at"]).execute(),
    // Settings never changed by an admin are the defaults the site was set up with, when its first account came.
    db
      .selectFrom("user")
      .select((eb) => eb.fn.min("createdAt").as("at"))
      .executeTakeFirst()
      .then((row) => row?.at ?? null),
    newest(
      db
        .selectFrom("links")
        .select((eb) => eb.fn.max("updated_at").as("at"))
        .where("active", "=", true)
        .executeTakeFirst(),
    ),
    newest(
      db
        .selectFrom("faq_entries")
        .select((eb) => eb.fn.max("updated_at").as("at"))
        .where("active", "=", true)
        .executeTakeFirst(),
    ),
    // Videos have readers of their own (migration 0025); links and questions are everyone's once active.
    newest(
      db
        .selectFrom("videos as v")
        .select((eb) => eb.fn.max("v.updated_at").as("at"))
        .where("v.active", "=", true)
        .where(readableBy(VISITOR, "video", "v"))
        .executeTakeFirst(),
    ),
  ]);
  const noticed = (area: string) => stamps.find((stamp) => stamp.area === area)?.changed_at ?? null;
  return {
    settings: latest(noticed("settings"), setUp),
    // A picture's sizes made in the background (media) are when it appears.
    gallery: latest(noticed("gallery"), noticed("media"), ...pictureTimes),
    links: latest(noticed("links"), links),
    faq: latest(noticed("faq"), faq),
    videos: latest(noticed("videos"), videos),
    // The start page's latest posts (the posts' own entries are the blog's: blog-sitemap.server.ts).
    posts: noticed("posts"),
  };
}

/** The site's own pages and the gallery's pictures. */
export async function listSitePages(db: Kysely<Database>, settings: SiteSettings): Promise<SitemapEntry[]> {
  const [menu, pictures, albums] = await Promise.all([
    readMenuSections(db, settings, { post: hasPublishedPost, album: hasPublicAlbum }),
    publishedOrderQuery(db, null)
      .select(["g.updated_at", "i.width", "i.height", "i.placeholder", "i.variants"])
      .execute(),
    listPublicAlbumPaths(db),
  ]);
  const changed = await lastChanges(
    db,
    pictures.map((picture) => picture.updated_at),
  );
  const entries: SitemapEntry[] = [
    { path: "/", lastmod: latest(changed.gallery, changed.settings) },
    // The start page shows the settings' texts and the latest pictures, links, video and posts.
    {
      path: "/home",
      lastmod: latest(changed.settings, changed.gallery, changed.links, changed.videos, changed.posts),
    },
  ];
  // The content pages the menu offers (those with a published entry, unless the setting shows them all).
  if (menu.links) entries.push({ path: "/links", lastmod: latest(changed.links, changed.settings) });
  if (menu.faq) entries.push({ path: "/faq", lastmod: latest(changed.faq, changed.settings) });
  if (menu.videos) entries.push({ path: "/videos", lastmod: latest(changed.videos, changed.settings) });
  if (menu.albums) entries.push({ path: "/albums", lastmod: latest(changed.settings) });
  // Each album for everyone, at its address in each language.
  for (const album of albums) {
    entries.push({ path: { en: album.en, de: album.de }, lastmod: latest(album.updatedAt) });
  }
  if (menu.contact) entries.push({ path: "/contact", lastmod: changed.settings });
  entries.push({ path: "/legal-notice", lastmod: changed.settings }, { path: "/privacy", lastmod: changed.settings });
  return entries.concat(
    pictures.map((picture) => ({
      path: "/",
      query: { image: picture.id },
      lastmod: latest(picture.updated_at),
      // The picture the page shows and shares: its large JPEG (watermarked when the watermark is on).
      images: [largeImage(imageForDisplay(picture)).src].filter((src) => src !== ""),
    })),
  );
}

function urlElement(entry: SitemapEntry, baseUrl: string, lang: "en" | "de"): string {
  const urls = languageUrls(baseUrl, entry.path, entry.query ?? {});
  const loc = lang === "de" ? urls.de : urls.default;
  const lines = [`<url><loc>${escapeXml(loc)}</loc>`];
  if (entry.lastmod) lines.push(`<lastmod>${escapeXml(entry.lastmod)}</lastmod>`);
  for (const [hreflang, href] of [
    ["en", urls.en],
    ["de", urls.de],
    ["x-default", urls.default],
  ] as const) {
    lines.push(`<xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(href)}"/>`);
  }
  for (const image of entry.images ?? []) {
    lines.push(`<image:image><image:loc>${escapeXml(new URL(image, `${baseUrl}/`).href)}</image:loc></image:image>`);
  }
  lines.push("</url>");
  return lines.join("");
}

/** The sitemap's XML for these entries, each in both languages. */
export function renderSitemap(entries: SitemapEntry[], baseUrl: string): string {
  const urls = entries.flatMap((entry) => [urlElement(entry, baseUrl, "en"), urlElement(entry, baseUrl, "de")]);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

/** The whole sitemap, made once per database change version and address of the site. */
export function buildSitemap(
  db: Kysely<Database>,
  settings: SiteSettings,
  baseUrl: string,
  sources: SitemapSource[] = [],
  options: { now?: Date } = {},
): Promise<string> {
  // What is visible changes only by writes (a scheduled post is flipped to published at its time, a write too).
  const compute = async () => {
    const now = options.now ?? new Date();
    const lists = await Promise.all([listSitePages(db, settings), ...sources.map((source) => source(db, { now }))]);
    return renderSitemap(lists.flat(), baseUrl);
  };
  // A test's clock gets its own rendering, never a kept one. It lists every kind of content: no areas named, so
  // any change drops it.
  return options.now ? compute() : cachedUntilChanged(db, `sitemap:${baseUrl}`, compute);
}

/** `/robots.txt`: everything but the admin, sign-in, account and share-link pages, and where the sitemap is. */
export function renderRobots(baseUrl: string): string {
  return [
    "User-agent: *",
    "Disallow: /admin",
    "Disallow: /auth",
    "Disallow: /account",
    "Disallow: /s/",
    "",
    `Sitemap: ${new URL("/sitemap.xml", `${baseUrl}/`).href}`,
    "",
  ].join("\n");
}
