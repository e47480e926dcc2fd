import { localized } from "#app/domains/content/content.server.ts";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";
import type { Language } from "#app/i18n/i18n.ts";
import {
  type Db,
  type JoinedRow,
  POSTS_PER_PAGE,
  type PublicPost,
  type PublicPostSummary,
  postsQuery,
  tagsOf,
  toPublicPost,
  toSummary,
  visibleAt,
} from "./post-rows.server.ts";
import { normalizeTag, SLUG_MAX, SLUG_PATTERN } from "./post-schema.ts";

/**
 * The visitors' reads of the blog (issue 12): only visible posts, ever (see post-rows.server.ts): drafts and posts
 * not yet due are never returned by any of them.
 */

async function toPublicPosts(db: Db, rows: JoinedRow[], lang: Language): Promise<PublicPost[]> {
  const tags = await tagsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toPublicPost(row, tags.get(row.id) ?? [], lang));
}

export type PublishedPostsPage = {
  posts: PublicPostSummary[];
  /** 1-based; a page past the last answers the last page's number with no posts. */
  page: number;
  pageCount: number;
  total: number;
};

/** One page (POSTS_PER_PAGE) of the visible posts, newest first, optionally of one tag. */
export async function listPublishedPosts(
  db: Db,
  options: { lang: Language; page?: number; tag?: string | null; now?: Date },
): Promise<PublishedPostsPage> {
  const now = options.now ?? new Date();
  const tag = options.tag ? normalizeTag(options.tag) : null;
  let base = db.selectFrom("posts as p").where(visibleAt(now));
  if (tag) {
    base = base.where((eb) =>
      eb.exists(
        eb.selectFrom("post_tags as t").select("t.tag").whereRef("t.post_id", "=", "p.id").where("t.tag", "=", tag),
      ),
    );
  }
  const count = await base.select((eb) => eb.fn.countAll<number | string>().as("total")).executeTakeFirst();
  const total = Number(count?.total ?? 0);
  const pageCount = Math.max(1, Math.ceil(total / POSTS_PER_PAGE));
  const page = Math.max(1, Math.floor(options.page ?? 1));
  if (page > pageCount) return { posts: [], page, pageCount, total };
  const ids = await base
    .select("p.id")
    .orderBy("p.publish_at", "desc")
    .orderBy("p.id", "desc")
    .limit(POSTS_PER_PAGE)
    .offset((page - 1) * POSTS_PER_PAGE)
    .execute();
  const rows = await newestFirst(
    db,
    ids.map((row) => row.id),
  );
  return { posts: (await toPublicPosts(db, rows, options.lang)).map(toSummary), page, pageCount, total };
}

/** The rows of these posts, newest first (publish time, then id, as every public list orders). */
async function newestFirst(db: Db, ids: string[]): Promise<JoinedRow[]> {
  if (ids.length === 0) return [];
  return postsQuery(db).where("p.id", "in", ids).orderBy("p.publish_at", "desc").orderBy("p.id", "desc").execute();
}

/**
 * The visible post at `slug` in `lang`: the post itself when it is its current slug there; `{ redirectTo }`
 * (the current slug in `lang`) for a slug it had before or the other language's slug; null for anything
 * else (unknown, draft, not yet due). `permanent` is true for an old slug of this language (a 301); a slug of the
 * other language leads to this language's version only for this visitor's language (a 302: a browser keeping
 * it would send a visitor who switches language back and forth in a circle).
 */
export async function findPublishedPostBySlug(
  db: Db,
  lang: Language,
  slug: string,
  options: { now?: Date } = {},
): Promise<PublicPost | { redirectTo: string; permanent: boolean } | null> {
  if (slug.length > SLUG_MAX || !SLUG_PATTERN.test(slug)) return null;
  const now = options.now ?? new Date();
  const other: Language = lang === "de" ? "en" : "de";
  const known = await db
    .selectFrom("post_slugs")
    .select(["post_id", "lang"])
    .where("slug", "=", slug)
    .where("lang", "in", [lang, other])
    .execute();
  const owner = known.find((row) => row.lang === lang) ?? known.find((row) => row.lang === other);
  if (!owner) return null;
  const row = await postsQuery(db).where("p.id", "=", owner.post_id).where(visibleAt(now)).executeTakeFirst();
  if (!row) return null;
  const current = lang === "de" ? row.slug_de : row.slug;
  if (current !== slug) return { redirectTo: current, permanent: owner.lang === lang };
  const [post] = await toPublicPosts(db, [row], lang);
  return post ?? null;
}

/** Any post by id in `lang`, whatever its status: only for a valid signed preview link (preview-link.server.ts). */
export async function getPostForPreview(db: Db, id: string, lang: Language): Promise<PublicPost | null> {
  const row = await postsQuery(db).where("p.id", "=", id).executeTakeFirst();
  if (!row) return null;
  const [post] = await toPublicPosts(db, [row], lang);
  return post ?? null;
}

export type AdjacentPost = { slug: string; title: string };

/**
 * The visible posts on either side of post `id` in the public order: `previous` is the next older one, `next`
 * the next newer one (null at the ends, and both null for a post visitors cannot see).
 */
export async function getAdjacentPosts(
  db: Db,
  id: string,
  lang: Language,
  options: { now?: Date } = {},
): Promise<{ previous: AdjacentPost | null; next: AdjacentPost | null }> {
  const now = options.now ?? new Date();
  const self = await db
    .selectFrom("posts as p")
    .select(["p.id", "p.publish_at"])
    .where("p.id", "=", id)
    .where(visibleAt(now))
    .executeTakeFirst();
  if (!self || self.publish_at === null) return { previous: null, next: null };
  const at = self.publish_at;
  const side = (older: boolean) =>
    db
      .selectFrom("posts as p")
      .select(["p.slug", "p.slug_de", "p.title", "p.title_de"])
      .where(visibleAt(now))
      .where((eb) =>
        eb.or([
          eb("p.publish_at", older ? "<" : ">", at),
          eb.and([eb("p.publish_at", "=", at), eb("p.id", older ? "<" : ">", id)]),
        ]),
      )
      .orderBy("p.publish_at", older ? "desc" : "asc")
      .orderBy("p.id", older ? "desc" : "asc")
      .limit(1)
      .executeTakeFirst();
  const [older, newer] = await Promise.all([side(true), side(false)]);
  const shown = (row: typeof older): AdjacentPost | null =>
    row ? { slug: lang === "de" ? row.slug_de : row.slug, title: localized(row.title, row.title_de, lang) } : null;
  return { previous: shown(older), next: shown(newer) };
}

/** The newest visible posts (the home page shows three). */
export async function listLatestPosts(
  db: Db,
  lang: Language,
  limit = 3,
  options: { now?: Date } = {},
): Promise<PublicPostSummary[]> {
  return (await readNewestPosts(db, lang, limit, options.now)).map(toSummary);
}

/** The newest posts visible at `now`, newest first (one query for the home page and the feeds). */
async function readNewestPosts(db: Db, lang: Language, limit: number, now = new Date()): Promise<PublicPost[]> {
  const rows = await postsQuery(db)
    .where(visibleAt(now))
    .orderBy("p.publish_at", "desc")
    .orderBy("p.id", "desc")
    .limit(limit)
    .execute();
  return toPublicPosts(db, rows, lang);
}

/** The newest visible posts with their Markdown bodies, for a language's feed. */
export async function listPostsForFeed(
  db: Db,
  lang: Language,
  limit: number,
  options: { now?: Date } = {},
): Promise<PublicPost[]> {
  return readNewestPosts(db, lang, limit, options.now);
}

export type SitemapPost = {
  slugs: Record<Language, string>;
  publishedAt: string;
  updatedAt: string;
  cover: ImageDisplay | null;
  /** The cover's text alternative per language. */
  coverAlt: Record<Language, string>;
  title: Record<Language, string>;
};

/** Every visible post, newest first, with both languages' slugs. */
export async function listPostsForSitemap(db: Db, options: { now?: Date } = {}): Promise<SitemapPost[]> {
  const rows = await postsQuery(db)
    .where(visibleAt(options.now ?? new Date()))
    .orderBy("p.publish_at", "desc")
    .orderBy("p.id", "desc")
    .execute();
  return rows.map((row) => {
    const en = toPublicPost(row, [], "en");
    const de = toPublicPost(row, [], "de");
    return {
      slugs: en.slugs,
      publishedAt: en.publishedAt,
      updatedAt: en.updatedAt,
      cover: en.cover,
      coverAlt: { en: en.coverAlt, de: de.coverAlt },
      title: { en: en.title, de: de.title },
    };
  });
}

/** Whether visitors see at least one post (the menu shows "Blog" then). */
export async function hasPublishedPost(db: Db, options: { now?: Date } = {}): Promise<boolean> {
  const row = await db
    .selectFrom("posts as p")
    .select("p.id")
    .where(visibleAt(options.now ?? new Date()))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every tag of a visible post, sorted (for a tag list). */
export async function listPublishedTags(db: Db, options: { now?: Date } = {}): Promise<string[]> {
  const rows = await db
    .selectFrom("post_tags as t")
    .innerJoin("posts as p", "p.id", "t.post_id")
    .select("t.tag")
    .distinct()
    .where(visibleAt(options.now ?? new Date()))
    .orderBy("t.tag")
    .execute();
  return rows.map((row) => row.tag);
}
