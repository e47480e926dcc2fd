import type { Kysely } from "kysely";
import type { ContentVisibility, Database } from "#app/db/schema.ts";
import type { Reader } from "#app/domains/access/reader.ts";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";
import { renderPostBody } from "./post-body.server.ts";
import {
  type AdjacentPost,
  findPublishedPostBySlug,
  getAdjacentPosts,
  getPostForPreview,
  getSharedPost,
  listPublishedPosts,
} from "./post-public.server.ts";
import type { PublicPost, PublicPostSummary } from "./post-rows.server.ts";
import { normalizeTag, TAG_MAX } from "./post-schema.ts";

/**
 * What the blog's pages load (routes blog._index, blog.tag.$tag, blog.$slug, blog.preview and the home page's
 * latest posts): posts in the visitor's language with their dates already written in it, so that the server's
 * and the browser's rendering agree whatever the browser's locale or time zone.
 */

/** A post as a list shows it. */
export type PostCard = {
  id: string;
  title: string;
  /** The address of this language version. */
  href: string;
  excerpt: string;
  /** ISO, for `<time dateTime>`. */
  publishedAt: string;
  /** The date in the visitor's language ("24 November 2026", "24. November 2026"). */
  date: string;
  readingMinutes: number;
  tags: string[];
  cover: ImageDisplay | null;
  coverAlt: string;
  /** Who may see it ("everyone" shows no badge), and its groups' names when it is for groups. */
  visibility: ContentVisibility;
  groups: string[];
};

export type PostPage = PostCard & {
  html: string;
  /** Shown only for a long post (MIN_TOC_ENTRIES headings or more). */
  toc: { id: string; text: string; level: 2 | 3 }[];
  authorName: string;
  updatedAt: string;
  /** Set when the post was changed on a later day than it appeared. */
  updatedDate: string | null;
  /** Each language version's path, for hreflang alternates. */
  paths: Record<Language, string>;
  previous: AdjacentPost | null;
  next: AdjacentPost | null;
};

/** A post shows its table of contents from this many headings on. */
export const MIN_TOC_ENTRIES = 3;

export function postHref(slug: string): string {
  return `/blog/${slug}`;
}

export function formatPostDate(iso: string, lang: Language): string {
  return dateTimeFormat(lang === "de" ? "de-DE" : "en-GB", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(iso),
  );
}

export function toPostCard(post: PublicPostSummary): PostCard {
  return {
    id: post.id,
    title: post.title,
    href: postHref(post.slug),
    excerpt: post.excerpt,
    publishedAt: post.publishedAt,
    date: formatPostDate(post.publishedAt, post.lang),
    readingMinutes: post.readingMinutes,
    tags: post.tags,
    cover: post.cover,
    coverAlt: post.coverAlt,
    visibility: post.visibility,
    groups: post.groups,
  };
}

/** `?page=`: a positive whole number; anything else is the first page (as the gallery reads it). */
export function pageParameter(page: string | null): number {
  return page !== null && /^\d{1,7}$/.test(page) ? Math.max(1, Number(page)) : 1;
}

/** A tag from an address: normalised as stored, or null when it could not be one (the page is then a 404). */
export function tagParameter(raw: string | undefined): string | null {
  if (raw === undefined || !raw.isWellFormed()) return null;
  const tag = normalizeTag(raw);
  return tag !== "" && tag.length <= TAG_MAX && /^[\p{L}\p{N} ._+#-]+$/u.test(tag) ? tag : null;
}

export type BlogListPage = {
  posts: PostCard[];
  page: number;
  pageCount: number;
  total: number;
  tag: string | null;
};

/** One page of /blog or /blog/tag/<tag>; null for a page past the last (a 404, except the empty blog's first). */
export async function loadBlogList(
  db: Kysely<Database>,
  options: { lang: Language; page: number; tag: string | null; now?: Date; reader?: Reader },
): Promise<BlogListPage | null> {
  const result = await listPublishedPosts(db, options);
  if (result.posts.length === 0 && (result.page > 1 || options.tag !== null)) return null;
  return {
    posts: result.posts.map(toPostCard),
    page: result.page,
    pageCount: result.pageCount,
    total: result.total,
    tag: options.tag,
  };
}

async function toPostPage(
  db: Kysely<Database>,
  post: PublicPost,
  lang: Language,
  options: { now?: Date; reader?: Reader },
): Promise<PostPage> {
  const [body, adjacent] = await Promise.all([
    renderPostBody(post.body, lang, { db }),
    getAdjacentPosts(db, post.id, lang, options),
  ]);
  const updatedDate = formatPostDate(post.updatedAt, lang);
  return {
    ...toPostCard(post),
    html: body.html,
    toc: body.toc.length >= MIN_TOC_ENTRIES ? body.toc : [],
    authorName: post.authorName,
    updatedAt: post.updatedAt,
    updatedDate: post.updatedAt.slice(0, 10) > post.publishedAt.slice(0, 10) ? updatedDate : null,
    paths: { en: postHref(post.slugs.en), de: postHref(post.slugs.de) },
    previous: adjacent.previous,
    next: adjacent.next,
  };
}

/** The visible post at `slug`: its page, `{ redirectTo, permanent }` (a path) for an old or other-language slug, or null. */
export async function loadPostPage(
  db: Kysely<Database>,
  options: { lang: Language; slug: string; now?: Date; reader?: Reader },
): Promise<PostPage | { redirectTo: string; permanent: boolean } | null> {
  const read = { now: options.now, reader: options.reader };
  const found = await findPublishedPostBySlug(db, options.lang, options.slug, read);
  if (found === null) return null;
  if ("redirectTo" in found) return { redirectTo: postHref(found.redirectTo), permanent: found.permanent };
  return toPostPage(db, found, options.lang, read);
}

/**
 * A published post for an open share link: shown as its readers see it, without the neighbours' links (a link
 * grants its one post, nothing beside it).
 */
export async function loadSharedPage(
  db: Kysely<Database>,
  options: { lang: Language; postId: string; now?: Date },
): Promise<PostPage | null> {
  const post = await getSharedPost(db, options.postId, options.lang, options.now);
  if (!post) return null;
  const body = await renderPostBody(post.body, options.lang, { db });
  return {
    ...toPostCard(post),
    // Whom the post is for is not the link holder's business: no badge.
    visibility: "everyone",
    groups: [],
    html: body.html,
    toc: body.toc.length >= MIN_TOC_ENTRIES ? body.toc : [],
    authorName: post.authorName,
    updatedAt: post.updatedAt,
    updatedDate: null,
    paths: { en: "", de: "" },
    previous: null,
    next: null,
  };
}

/** Any post, for a verified preview link: shown as visitors would see it, without the neighbours' links. */
export async function loadPreviewPage(
  db: Kysely<Database>,
  options: { lang: Language; postId: string },
): Promise<PostPage | null> {
  const post = await getPostForPreview(db, options.postId, options.lang);
  if (!post) return null;
  const page = await toPostPage(db, post, options.lang, {});
  return { ...page, previous: null, next: null };
}
