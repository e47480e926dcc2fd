import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { largeImage } from "#app/domains/media/image-display.ts";
import { postHref } from "#app/domains/posts/blog-pages.server.ts";
import { listPostsForSitemap, listPublishedTags } from "#app/domains/posts/post-public.server.ts";
import type { SitemapEntry } from "./sitemap.server.ts";

/**
 * The blog's part of the sitemap: each visible post in both languages at its own slug (hreflang between them,
 * lastmod its last update, its cover with the image extension), the blog's list and its tags' pages. Drafts and
 * posts not yet due are not visible, so never listed (`listPostsForSitemap` returns only visible posts).
 */
export async function listBlogPages(db: Kysely<Database>, options: { now: Date }): Promise<SitemapEntry[]> {
  const [posts, tags] = await Promise.all([listPostsForSitemap(db, options), listPublishedTags(db, options)]);
  if (posts.length === 0) return [];
  const latest = posts
    .map((post) => post.updatedAt)
    .sort()
    .at(-1);
  const entries: SitemapEntry[] = [{ path: "/blog", lastmod: latest }];
  for (const post of posts) {
    const cover = post.cover ? largeImage(post.cover).src : "";
    entries.push({
      path: { en: postHref(post.slugs.en), de: postHref(post.slugs.de) },
      lastmod: post.updatedAt,
      images: cover ? [cover] : [],
    });
  }
  for (const tag of tags) entries.push({ path: `/blog/tag/${encodeURIComponent(tag)}`, lastmod: latest });
  return entries;
}
