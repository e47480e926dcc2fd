import type { ExpressionBuilder, Kysely, Selectable, Transaction } from "kysely";
import type { ContentVisibility, Database, PostsTable } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { readableBy } from "#app/domains/access/access.server.ts";
import type { Reader } from "#app/domains/access/reader.ts";
import { localized } from "#app/domains/content/content.server.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";
import type { Language } from "#app/i18n/i18n.ts";
import type { PostStatus } from "./post-schema.ts";
import { countWords } from "./word-count.server.ts";

/**
 * The blog's posts as rows and as the objects pages get (issue 12): the types, the one query with author and
 * cover joined, and the visibility rule every public read keeps: a post is visible when it is published, or
 * scheduled and its time has come (`now`, injected so tests can move the clock), and its reader may see it
 * (`readableBy`, the one rule of app/domains/access/). The admin's writes are in
 * post-admin.server.ts, the visitors' reads in post-public.server.ts.
 */

export type Db = Kysely<Database> | Transaction<Database>;
export type PostRow = Selectable<PostsTable>;

export type { PostStatus } from "./post-schema.ts";

/** Posts per page on /blog and /blog/tag/<tag>. */
export const POSTS_PER_PAGE = 12;
/** Words a visitor reads in a minute, for the reading time. */
export const WORDS_PER_MINUTE = 200;

/** A post as the editor needs it: every field in both languages. */
export type AdminPost = {
  id: string;
  authorId: string;
  /** The author's display name (see `displayNameOf`); '' when the account is gone. */
  authorName: string;
  status: PostStatus;
  /** ISO; null for a draft never published. */
  publishAt: string | null;
  /** Whether visitors see it now (published, or scheduled and due). */
  visible: boolean;
  title: string;
  titleDe: string;
  slug: string;
  slugDe: string;
  excerpt: string;
  excerptDe: string;
  /** Markdown. */
  body: string;
  bodyDe: string;
  coverImageId: string | null;
  /** The cover as pages render it (null when none, or not ready yet). */
  cover: ImageDisplay | null;
  coverAlt: string;
  coverAltDe: string;
  /** Sorted. */
  tags: string[];
  visibility: ContentVisibility;
  /** The ids of the groups that may see it when `visibility` is "groups". */
  groupIds: string[];
  createdAt: string;
  updatedAt: string;
};

/** A row of the admin list. */
export type AdminPostSummary = Pick<
  AdminPost,
  | "id"
  | "status"
  | "publishAt"
  | "visible"
  | "title"
  | "titleDe"
  | "slug"
  | "slugDe"
  | "tags"
  | "visibility"
  | "createdAt"
  | "updatedAt"
>;

/** A post in the visitor's language, as lists show it. */
export type PublicPostSummary = {
  id: string;
  lang: Language;
  title: string;
  /** The slug of this language version: its address is /blog/<slug>. */
  slug: string;
  excerpt: string;
  /** ISO. */
  publishedAt: string;
  updatedAt: string;
  tags: string[];
  cover: ImageDisplay | null;
  /** The cover's text alternative in this language (German falling back to English, then to the title). */
  coverAlt: string;
  /** Words in this language's body (Markdown counted roughly: what a reader reads). */
  words: number;
  /** At least 1. */
  readingMinutes: number;
  /** Who may see it: a signed-in reader sees a badge on anything not for everyone. */
  visibility: ContentVisibility;
  /** The names of its groups when `visibility` is "groups" (only a reader in one of them, or an admin, sees it). */
  groups: string[];
};

/** A whole post in the visitor's language. */
export type PublicPost = PublicPostSummary & {
  /** Markdown of this language (German falling back to English); render with renderPostBody. */
  body: string;
  /** Both language versions' slugs, for the hreflang alternates and the language switch. */
  slugs: Record<Language, string>;
  authorName: string;
  createdAt: string;
  status: PostStatus;
};

/** What a write answers; the admin route turns field errors (admin dictionary keys) into the admin's language. */
export type PostWriteResult =
  | { ok: true; id: string; post: AdminPost }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string> }
  | { ok: false; reason: "not-found" }
  /** Saved elsewhere since the editor opened it (its `updated_at` is not the one the editor's text is based on). */
  | { ok: false; reason: "conflict" };

export type PostDeleteResult = { ok: true; id: string } | { ok: false; reason: "not-found" };

/** The name a reader sees for an author: their account's name, else the part of the e-mail before @. */
export function displayNameOf(name: string | null | undefined, email: string | null | undefined): string {
  const own = name?.trim();
  if (own) return own;
  return email?.split("@")[0]?.trim() ?? "";
}

/** A reader's minutes for so many words: at least one. */
export function readingMinutesOf(words: number): number {
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}

function isVisible(row: Pick<PostRow, "status" | "publish_at">, now: Date): boolean {
  return row.status !== "draft" && row.publish_at !== null && new Date(toIsoString(row.publish_at)) <= now;
}

/**
 * The rule in SQL: published or scheduled, with its time come (a published post always has its time), and for
 * this reader (an admin on the public pages sees every visible post, whoever it is for).
 */
export function visibleTo(reader: Reader, now: Date) {
  return (eb: ExpressionBuilder<Database & { p: PostsTable }, "p">) =>
    eb.and([publishedBy(now)(eb), readableBy(reader, "post", "p")]);
}

/**
 * Published or scheduled with its time come, whoever reads: only for a share link, which names its one post and
 * grants that post whatever its visibility (app/domains/shares/).
 */
export function publishedBy(now: Date) {
  return (eb: ExpressionBuilder<Database & { p: PostsTable }, "p">) =>
    eb.and([eb("p.status", "in", ["published", "scheduled"]), eb("p.publish_at", "<=", now)]);
}

const POST_COLUMNS = [
  "p.id",
  "p.author_id",
  "p.status",
  "p.publish_at",
  "p.title",
  "p.title_de",
  "p.slug",
  "p.slug_de",
  "p.excerpt",
  "p.excerpt_de",
  "p.body",
  "p.body_de",
  "p.cover_image_id",
  "p.cover_alt",
  "p.cover_alt_de",
  "p.visibility",
  "p.created_at",
  "p.updated_at",
] as const;

/** Posts with their author and cover joined (both may be missing). */
export function postsQuery(db: Db) {
  return db
    .selectFrom("posts as p")
    .leftJoin("user as u", "u.id", "p.author_id")
    .leftJoin("images as i", "i.id", "p.cover_image_id")
    .select(POST_COLUMNS)
    .select([
      "u.name as author_name",
      "u.email as author_email",
      "i.width as cover_width",
      "i.height as cover_height",
      "i.placeholder as cover_placeholder",
      "i.variants as cover_variants",
      "i.ready as cover_ready",
    ]);
}
export type JoinedRow = Awaited<ReturnType<ReturnType<typeof postsQuery>["executeTakeFirstOrThrow"]>>;

function coverOf(row: JoinedRow): ImageDisplay | null {
  const ready = row.cover_ready === true || row.cover_ready === 1;
  if (!ready || row.cover_variants === null || row.cover_width === null || row.cover_height === null) return null;
  return imageForDisplay({
    width: row.cover_width,
    height: row.cover_height,
    placeholder: row.cover_placeholder ?? "",
    variants: row.cover_variants,
  });
}

export async function tagsOf(db: Db, ids: string[]): Promise<Map<string, string[]>> {
  const tags = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return tags;
  const rows = await db
    .selectFrom("post_tags")
    .select(["post_id", "tag"])
    .where("post_id", "in", ids)
    .orderBy("tag")
    .execute();
  for (const row of rows) tags.get(row.post_id)?.push(row.tag);
  return tags;
}

export function toAdminPost(row: JoinedRow, tags: string[], now: Date, groupIds: string[] = []): AdminPost {
  return {
    id: row.id,
    authorId: row.author_id,
    authorName: displayNameOf(row.author_name, row.author_email),
    status: row.status,
    publishAt: row.publish_at === null ? null : toIsoString(row.publish_at),
    visible: isVisible(row, now),
    title: row.title,
    titleDe: row.title_de,
    slug: row.slug,
    slugDe: row.slug_de,
    excerpt: row.excerpt,
    excerptDe: row.excerpt_de,
    body: row.body,
    bodyDe: row.body_de,
    coverImageId: row.cover_image_id,
    cover: coverOf(row),
    coverAlt: row.cover_alt,
    coverAltDe: row.cover_alt_de,
    tags,
    visibility: row.visibility,
    groupIds,
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
  };
}

export function toPublicPost(row: JoinedRow, tags: string[], lang: Language, groups: string[] = []): PublicPost {
  const title = localized(row.title, row.title_de, lang);
  const body = localized(row.body, row.body_de, lang);
  const words = countWords(body);
  return {
    id: row.id,
    lang,
    title,
    slug: lang === "de" ? row.slug_de : row.slug,
    slugs: { en: row.slug, de: row.slug_de },
    excerpt: localized(row.excerpt, row.excerpt_de, lang),
    body,
    publishedAt: toIsoString(row.publish_at ?? row.created_at),
    updatedAt: toIsoString(row.updated_at),
    createdAt: toIsoString(row.created_at),
    tags,
    cover: coverOf(row),
    coverAlt: localized(row.cover_alt, row.cover_alt_de, lang).trim() || title,
    words,
    readingMinutes: readingMinutesOf(words),
    authorName: displayNameOf(row.author_name, row.author_email),
    status: row.status,
    visibility: row.visibility,
    groups,
  };
}

/** A list item: the whole post without its body (the words are counted, the text not sent). */
export function toSummary(post: PublicPost): PublicPostSummary {
  const { body: _body, slugs: _slugs, authorName: _author, createdAt: _created, status: _status, ...summary } = post;
  return summary;
}
