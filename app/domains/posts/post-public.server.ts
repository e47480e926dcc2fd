import { groupsOfItems } from "#app/domains/access/access.server.ts";
import { type Reader, VISITOR } from "#app/domains/access/reader.ts";
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
  publishedBy,
  tagsOf,
  toPublicPost,
  toSummary,
  visibleTo,
} from "./post-rows.server.ts";
import { normalizeTag, SLUG_MAX, SLUG_PATTERN } from "./post-schema.ts";

/**
 * The visitors' reads of the blog (issue 12): only visible posts, ever (see post-rows.server.ts): drafts and posts
 * not yet due are never returned by any of them, nor a post its reader may not see (issue 21). Every read takes
 * its `reader`, a visitor when not given: the feeds, the sitemap and every anonymous page read as one.
 */

type ReadOptions = { now?: Date; reader?: Reader };

/**
 * The rows as pages get them, with the names of their groups as far as the reader is in them (an admin: all; a
 * member does not learn of the other groups a post is for; anyone else: none).
 */
async function toPublicPosts(
  db: Db,
  rows: JoinedRow[],
  lang: Language,
  reader: Reader = VISITOR,
): Promise<PublicPost[]> {
  const ids = rows.map((row) => row.id);
  const grouped =
    reader.kind === "visitor" ? [] : rows.filter((row) => row.visibility === "groups").map((row) => row.id);
  const [tags, groups] = await Promise.all([tagsOf(db, ids), groupsOfItems(db, "post", grouped)]);
  const named = (group: { id: string }) =>
    reader.kind === "admin" || (reader.kind === "member" && reader.groupIds.includes(group.id));
  return rows.map((row) =>
    toPublicPost(
      row,
      tags.get(row.id) ?? [],
      lang,
      (groups.get(row.id) ?? []).filter(named).map((group) => group.name),
    ),
  );
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
  options: ReadOptions & { lang: Language; page?: number; tag?: string | null },
): Promise<PublishedPostsPage> {
  const now = options.now ?? new Date();
  const tag = options.tag ? normalizeTag(options.tag) : null;
  let base = db.selectFrom("posts as p").where(visibleTo(options.reader ?? VISITOR, now));
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
  return {
    posts: (await toPublicPosts(db, rows, options.lang, options.reader)).map(toSummary),
    page,
    pageCount,
    total,
  };
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
  options: ReadOptions = {},
): Promise<PublicPost | { redirectTo: string; permanent: boolean } | null> {
  if (slug.length > SLUG_MAX || !SLUG_PATTERN.test(slug)) return null;
  const now = options.now ?? new Date();
  const other: Language = lang === "de" ? "en" : "de";
  // The slug and the rule in one query: a post the reader may not see costs exactly what a missing one does (a
  // second query for a known slug would tell them apart by time: scripts/measure-not-found-timing.ts).
  const found = await postsQuery(db)
    .innerJoin("post_slugs as s", "s.post_id", "p.id")
    .select("s.lang as slug_lang")
    .where("s.slug", "=", slug)
    .where("s.lang", "in", [lang, other])
    .where(visibleTo(options.reader ?? VISITOR, now))
    .execute();
  const row =
    found.find((candidate) => candidate.slug_lang === lang) ?? found.find((candidate) => candidate.slug_lang === other);
  if (!row) return null;
  const current = lang === "de" ? row.slug_de : row.slug;
  if (current !== slug) return { redirectTo: current, permanent: row.slug_lang === lang };
  const [post] = await toPublicPosts(db, [row], lang, options.reader);
  return post ?? null;
}

/** Post `id` in `lang` once it is published, whoever it is for: only for an open share link (app/domains/shares/). */
export async function getSharedPost(db: Db, id: string, lang: Language, now = new Date()): Promise<PublicPost | null> {
  const row = await postsQuery(db).where("p.id", "=", id).where(publishedBy(now)).executeTakeFirst();
  if (!row) return null;
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
  options: ReadOptions = {},
): Promise<{ previous: AdjacentPost | null; next: AdjacentPost | null }> {
  const now = options.now ?? new Date();
  // The reader's neighbours: a post they may not see is skipped, never named.
  const visible = visibleTo(options.reader ?? VISITOR, now);
  const self = await db
    .selectFrom("posts as p")
    .select(["p.id", "p.publish_at"])
    .where("p.id", "=", id)
    .where(visible)
    .executeTakeFirst();
  if (!self || self.publish_at === null) return { previous: null, next: null };
  const at = self.publish_at;
  const side = (older: boolean) =>
    db
      .selectFrom("posts as p")
      .select(["p.slug", "p.slug_de", "p.title", "p.title_de"])
      .where(visible)
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
  options: ReadOptions = {},
): Promise<PublicPostSummary[]> {
  return (await readNewestPosts(db, lang, limit, options)).map(toSummary);
}

/** The newest posts visible at `now`, newest first (one query for the home page and the feeds). */
async function readNewestPosts(db: Db, lang: Language, limit: number, options: ReadOptions): Promise<PublicPost[]> {
  const rows = await postsQuery(db)
    .where(visibleTo(options.reader ?? VISITOR, options.now ?? new Date()))
    .orderBy("p.publish_at", "desc")
    .orderBy("p.id", "desc")
    .limit(limit)
    .execute();
  return toPublicPosts(db, rows, lang, options.reader);
}

/** The newest posts for everyone with their Markdown bodies, for a language's feed (a feed has no reader). */
export async function listPostsForFeed(
  db: Db,
  lang: Language,
  limit: number,
  options: { now?: Date } = {},
): Promise<PublicPost[]> {
  return readNewestPosts(db, lang, limit, { now: options.now, reader: VISITOR });
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

/** Every post visible to everyone, newest first, with both languages' slugs (search engines read as visitors). */
export async function listPostsForSitemap(db: Db, options: { now?: Date } = {}): Promise<SitemapPost[]> {
  const rows = await postsQuery(db)
    .where(visibleTo(VISITOR, options.now ?? new Date()))
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

/** Whether the reader sees at least one post (the menu shows "Blog" then). */
export async function hasPublishedPost(db: Db, options: ReadOptions = {}): Promise<boolean> {
  const row = await db
    .selectFrom("posts as p")
    .select("p.id")
    .where(visibleTo(options.reader ?? VISITOR, options.now ?? new Date()))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every tag of a post the reader sees, sorted (for a tag list). */
export async function listPublishedTags(db: Db, options: ReadOptions = {}): Promise<string[]> {
  const rows = await db
    .selectFrom("post_tags as t")
    .innerJoin("posts as p", "p.id", "t.post_id")
    .select("t.tag")
    .distinct()
    .where(visibleTo(options.reader ?? VISITOR, options.now ?? new Date()))
    .orderBy("t.tag")
    .execute();
  return rows.map((row) => row.tag);
}
