import { randomUUID } from "node:crypto";
import { type ExpressionBuilder, type Kysely, type Selectable, sql, type Transaction } from "kysely";
import type { Database, PostsTable } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { type AuditActor, recordAudit, recordOrExtendAudit } from "#app/domains/audit/audit.server.ts";
import { localized } from "#app/domains/content/content.server.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { fieldErrorsOf } from "#app/lib/field-errors.ts";
import {
  normalizeTag,
  type PostFields,
  type PostStatus,
  postFieldsSchema,
  postStatusSchema,
  SLUG_MAX,
  SLUG_PATTERN,
  slugify,
} from "./post-schema.ts";
import { isMadeFrom } from "./slug-follow.ts";

/**
 * The blog's posts (issue 12): the admin's writes (each one transaction with its audit entry) and the
 * visitors' reads. The rule every public function keeps: a post is visible when it is published, or scheduled
 * and its time has come (`now`, injected so tests can move the clock); drafts and posts not yet due are never
 * returned by any of them. The scheduler (post-scheduler.server.ts) also flips due posts to `published`, so that
 * the write drops the page cache at their time.
 */

type Db = Kysely<Database> | Transaction<Database>;
type PostRow = Selectable<PostsTable>;

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
  | { ok: false; reason: "not-found" };

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

/** Words of a Markdown text as read: link targets, image addresses, HTML tags and markup left out. */
export function countWords(markdown: string): number {
  const text = markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, " $1 ")
    .replace(/\]\([^)]*\)/g, "] ")
    .replace(/<[^>]+>/g, " ")
    .replace(/[#*_`>|[\]~-]+/g, " ");
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

function isVisible(row: Pick<PostRow, "status" | "publish_at">, now: Date): boolean {
  return row.status !== "draft" && row.publish_at !== null && new Date(toIsoString(row.publish_at)) <= now;
}

/** The rule in SQL: published or scheduled, with its time come (a published post always has its time). */
function visibleAt(now: Date) {
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
  "p.created_at",
  "p.updated_at",
] as const;

/** Posts with their author and cover joined (both may be missing). */
function postsQuery(db: Db) {
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
type JoinedRow = Awaited<ReturnType<ReturnType<typeof postsQuery>["executeTakeFirstOrThrow"]>>;

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

async function tagsOf(db: Db, ids: string[]): Promise<Map<string, string[]>> {
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

function toAdminPost(row: JoinedRow, tags: string[], now: Date): AdminPost {
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
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
  };
}

function toPublicPost(row: JoinedRow, tags: string[], lang: Language): PublicPost {
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
  };
}

/** A list item: the whole post without its body (the words are counted, the text not sent). */
function toSummary(post: PublicPost): PublicPostSummary {
  const { body: _body, slugs: _slugs, authorName: _author, createdAt: _created, status: _status, ...summary } = post;
  return summary;
}

// ---------------------------------------------------------------------------------------------------------------
// Admin: reads

export async function getPostForAdmin(db: Db, id: string, options: { now?: Date } = {}): Promise<AdminPost | null> {
  const row = await postsQuery(db).where("p.id", "=", id).executeTakeFirst();
  if (!row) return null;
  const tags = await tagsOf(db, [row.id]);
  return toAdminPost(row, tags.get(row.id) ?? [], options.now ?? new Date());
}

/** Every post for the admin list, newest change first; `search` looks in both titles, slugs and tags. */
export async function listPostsForAdmin(
  db: Db,
  options: { status?: PostStatus | null; search?: string | null; now?: Date } = {},
): Promise<AdminPostSummary[]> {
  let query = postsQuery(db);
  if (options.status) query = query.where("p.status", "=", options.status);
  const search = options.search?.trim().toLowerCase();
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(p.title)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(p.title_de)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`p.slug`, "like", sql`${pattern} escape '\\'`),
        eb(sql`p.slug_de`, "like", sql`${pattern} escape '\\'`),
        eb.exists(
          eb
            .selectFrom("post_tags as t")
            .select("t.tag")
            .whereRef("t.post_id", "=", "p.id")
            .where(sql`t.tag`, "like", sql`${pattern} escape '\\'`),
        ),
      ]),
    );
  }
  const rows = await query.orderBy("p.updated_at", "desc").orderBy("p.id", "desc").execute();
  const tags = await tagsOf(
    db,
    rows.map((row) => row.id),
  );
  const now = options.now ?? new Date();
  return rows.map((row) => {
    const post = toAdminPost(row, tags.get(row.id) ?? [], now);
    return {
      id: post.id,
      status: post.status,
      publishAt: post.publishAt,
      visible: post.visible,
      title: post.title,
      titleDe: post.titleDe,
      slug: post.slug,
      slugDe: post.slugDe,
      tags: post.tags,
      createdAt: post.createdAt,
      updatedAt: post.updatedAt,
    };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Admin: writes

/** The slug `base`, or `base-2`, `base-3`, … : the first no other post has (or ever had) in this language. */
async function freeSlug(db: Db, lang: Language, base: string, postId: string): Promise<string> {
  const stem = base || "post";
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "" : `-${n}`;
    const candidate = `${stem.slice(0, SLUG_MAX - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!(await slugOwner(db, lang, candidate, postId))) return candidate;
  }
}

/** True when another post has (or had) this slug in this language. */
async function slugOwner(db: Db, lang: Language, slug: string, postId: string): Promise<boolean> {
  const row = await db
    .selectFrom("post_slugs")
    .select("post_id")
    .where("lang", "=", lang)
    .where("slug", "=", slug)
    .executeTakeFirst();
  return row !== undefined && row.post_id !== postId;
}

/** True when `slug` is `base` or `base-<n>`: a slug made from this title, kept while the title makes the same. */

/**
 * The slugs a post gets: the one typed (refused when another post has or had it), else the current one while
 * it still fits the title, else one made from the title (the English title when there is no German one).
 */
/** The editor's fields as the row stores them, with the slugs chosen for them (a new post's and a save's alike). */
function postTexts(input: PostFields, slugs: { slug: string; slugDe: string }) {
  return {
    title: input.title,
    title_de: input.title_de,
    slug: slugs.slug,
    slug_de: slugs.slugDe,
    excerpt: input.excerpt,
    excerpt_de: input.excerpt_de,
    body: input.body,
    body_de: input.body_de,
    cover_image_id: input.cover_image_id,
    cover_alt: input.cover_alt,
    cover_alt_de: input.cover_alt_de,
  };
}

async function chooseSlugs(
  db: Db,
  fields: PostFields,
  postId: string,
  current: { slug: string; slug_de: string } | null,
): Promise<{ ok: true; slug: string; slugDe: string } | { ok: false; fieldErrors: Record<string, string> }> {
  const choose = async (lang: Language, typed: string, title: string, now: string | undefined) => {
    if (typed !== "") {
      return (await slugOwner(db, lang, typed, postId)) ? null : typed;
    }
    const base = slugify(title) || "post";
    if (now && isMadeFrom(now, base)) return now;
    return freeSlug(db, lang, base, postId);
  };
  const slug = await choose("en", fields.slug, fields.title, current?.slug);
  const slugDe = await choose("de", fields.slug_de, fields.title_de || fields.title, current?.slug_de);
  const fieldErrors: Record<string, string> = {};
  if (slug === null) fieldErrors.slug = "admin.posts.error.slugTaken";
  if (slugDe === null) fieldErrors.slug_de = "admin.posts.error.slugTaken";
  if (slug === null || slugDe === null) return { ok: false, fieldErrors };
  return { ok: true, slug, slugDe };
}

/** Records the post's current slugs as slugs it had; a post never published forgets the ones nobody could link to. */
async function keepSlugs(
  trx: Transaction<Database>,
  postId: string,
  slugs: Record<Language, string>,
  published: boolean,
) {
  for (const lang of ["en", "de"] as const) {
    if (!published) {
      await trx
        .deleteFrom("post_slugs")
        .where("post_id", "=", postId)
        .where("lang", "=", lang)
        .where("slug", "!=", slugs[lang])
        .execute();
    }
    await trx
      .insertInto("post_slugs")
      .values({ slug: slugs[lang], lang, post_id: postId })
      .onConflict((oc) => oc.columns(["lang", "slug"]).doNothing())
      .execute();
  }
}

async function writeTags(trx: Transaction<Database>, postId: string, tags: string[]) {
  await trx.deleteFrom("post_tags").where("post_id", "=", postId).execute();
  if (tags.length > 0) {
    await trx
      .insertInto("post_tags")
      .values(tags.map((tag) => ({ post_id: postId, tag: normalizeTag(tag) })))
      .onConflict((oc) => oc.columns(["post_id", "tag"]).doNothing())
      .execute();
  }
}

async function coverExists(db: Db, id: string | null): Promise<boolean> {
  if (id === null) return true;
  return (await db.selectFrom("images").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

/** The fields an audit entry records: short, so the entry's JSON stays whole within the log's limit. */
type Described = Record<string, string>;
function describeFields(row: Pick<PostRow, "title" | "title_de" | "slug" | "slug_de">, tags: string[]): Described {
  return { title: row.title, title_de: row.title_de, slug: row.slug, slug_de: row.slug_de, tags: tags.join(", ") };
}
const AUDITED_TEXTS = ["excerpt", "excerpt_de", "body", "body_de", "cover_alt", "cover_alt_de"] as const;
function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function parseFields(fields: Record<string, unknown>) {
  const parsed = postFieldsSchema.safeParse(fields);
  return parsed.success
    ? ({ ok: true, fields: parsed.data } as const)
    : ({ ok: false, reason: "invalid", fieldErrors: fieldErrorsOf(parsed.error) } as const);
}

/**
 * A new draft by `actor`. `fields` is the editor's form (see postFieldsSchema): an empty slug is made from the
 * title; `tags` a comma-separated text or a list; `cover_image_id` an `images` row made by the pipeline.
 */
export async function createPost(
  db: Kysely<Database>,
  actor: AuditActor,
  fields: Record<string, unknown>,
  options: { now?: Date } = {},
): Promise<PostWriteResult> {
  const parsed = parseFields(fields);
  if (!parsed.ok) return parsed;
  const input = parsed.fields;
  const id = randomUUID();
  const now = options.now ?? new Date();
  const outcome = await db.transaction().execute(async (trx) => {
    if (!(await coverExists(trx, input.cover_image_id))) {
      return { ok: false, reason: "invalid", fieldErrors: { cover_image_id: "admin.posts.error.cover" } } as const;
    }
    const slugs = await chooseSlugs(trx, input, id, null);
    if (!slugs.ok) return { ok: false, reason: "invalid", fieldErrors: slugs.fieldErrors } as const;
    await trx
      .insertInto("posts")
      .values({
        id,
        author_id: actor.id,
        status: "draft",
        publish_at: null,
        ...postTexts(input, slugs),
        created_at: now,
        updated_at: now,
      })
      .execute();
    await keepSlugs(trx, id, { en: slugs.slug, de: slugs.slugDe }, false);
    await writeTags(trx, id, input.tags);
    await recordAudit(trx, actor, {
      action: "posts.create",
      target: input.title,
      newValue: JSON.stringify(
        describeFields({ ...input, slug: slugs.slug, slug_de: slugs.slugDe }, input.tags.toSorted()),
      ),
    });
    return { ok: true } as const;
  });
  if (!outcome.ok) return outcome;
  const post = await getPostForAdmin(db, id, { now });
  if (!post) return { ok: false, reason: "not-found" };
  return { ok: true, id, post };
}

/**
 * The editor's automatic saves of one post by one admin, while they follow each other within this time, make
 * one audit entry (from the text before the first to the text after the last), not one per pause in typing.
 * In memory: after a restart the next automatic save starts a new entry.
 */
const AUTOSAVE_AUDIT_WINDOW_MS = 10 * 60_000;
const autosaveRuns = new Map<string, { actorId: string; auditId: number; before: Described; at: number }>();

/**
 * Saves the editor's form over post `id` (every field; its status stays). A changed slug keeps the old one in
 * post_slugs, so its address answers 301 to the new one. `autosave` marks the editor's own saves (see above).
 */
export async function updatePost(
  db: Kysely<Database>,
  actor: AuditActor,
  id: string,
  fields: Record<string, unknown>,
  options: { now?: Date; autosave?: boolean } = {},
): Promise<PostWriteResult> {
  const parsed = parseFields(fields);
  if (!parsed.ok) return parsed;
  const input = parsed.fields;
  const now = options.now ?? new Date();
  const outcome = await db.transaction().execute(async (trx) => {
    const row = await lockPost(trx, id);
    if (!row) return { ok: false, reason: "not-found" } as const;
    if (!(await coverExists(trx, input.cover_image_id))) {
      return { ok: false, reason: "invalid", fieldErrors: { cover_image_id: "admin.posts.error.cover" } } as const;
    }
    const slugs = await chooseSlugs(trx, input, id, row);
    if (!slugs.ok) return { ok: false, reason: "invalid", fieldErrors: slugs.fieldErrors } as const;
    const oldTags = (await tagsOf(trx, [id])).get(id) ?? [];
    await trx
      .updateTable("posts")
      .set({
        ...postTexts(input, slugs),
        updated_at: now,
      })
      .where("id", "=", id)
      .execute();
    await keepSlugs(trx, id, { en: slugs.slug, de: slugs.slugDe }, row.publish_at !== null);
    await writeTags(trx, id, input.tags);
    // Only what changed, each text clipped: the entry says what was edited without copying the post.
    const saved: Described = describeFields(row, oldTags);
    const after: Described = describeFields(
      { ...input, slug: slugs.slug, slug_de: slugs.slugDe },
      input.tags.toSorted(),
    );
    for (const key of AUDITED_TEXTS) {
      saved[key] = clip(row[key]);
      after[key] = clip(input[key]);
    }
    saved.cover = row.cover_image_id ? "✓" : "";
    after.cover = input.cover_image_id ? "✓" : "";
    const run = autosaveRuns.get(id);
    const going =
      options.autosave && run && run.actorId === actor.id && now.getTime() - run.at < AUTOSAVE_AUDIT_WINDOW_MS
        ? run
        : undefined;
    const start = going?.before ?? saved;
    const before: Described = { ...start };
    for (const key of Object.keys(after)) {
      if (before[key] === after[key]) {
        delete before[key];
        delete after[key];
      }
    }
    const auditId = await recordOrExtendAudit(
      trx,
      actor,
      {
        action: "posts.update",
        target: input.title,
        oldValue: JSON.stringify(before),
        newValue: JSON.stringify(after),
      },
      going?.auditId ?? null,
    );
    return { ok: true, auditId, start } as const;
  });
  if (!outcome.ok) return outcome;
  for (const [postId, kept] of autosaveRuns) {
    if (now.getTime() - kept.at >= AUTOSAVE_AUDIT_WINDOW_MS) autosaveRuns.delete(postId);
  }
  // A save by hand closes the run: its entry stands on its own, and the next automatic save starts a new one.
  if (options.autosave)
    autosaveRuns.set(id, { actorId: actor.id, auditId: outcome.auditId, before: outcome.start, at: now.getTime() });
  else autosaveRuns.delete(id);
  const post = await getPostForAdmin(db, id, { now });
  if (!post) return { ok: false, reason: "not-found" };
  return { ok: true, id, post };
}

/**
 * The post's row, locked for the rest of the transaction (a row lock on PostgreSQL, the write lock on SQLite):
 * two saves of one post run one after the other, and the second sees the first's slugs.
 */
async function lockPost(trx: Transaction<Database>, id: string): Promise<PostRow | undefined> {
  await trx
    .updateTable("posts")
    .set((eb) => ({ id: eb.ref("id") }))
    .where("id", "=", id)
    .execute();
  return trx.selectFrom("posts").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Deletes the post with its slugs and tags. Its cover and body pictures stay in `images` (they may be shared). */
export async function deletePost(db: Kysely<Database>, actor: AuditActor, id: string): Promise<PostDeleteResult> {
  return db.transaction().execute(async (trx) => {
    const row = await lockPost(trx, id);
    if (!row) return { ok: false, reason: "not-found" } as const;
    const tags = (await tagsOf(trx, [id])).get(id) ?? [];
    await trx.deleteFrom("post_tags").where("post_id", "=", id).execute();
    await trx.deleteFrom("post_slugs").where("post_id", "=", id).execute();
    await trx.deleteFrom("posts").where("id", "=", id).execute();
    await recordAudit(trx, actor, {
      action: "posts.delete",
      target: row.title,
      oldValue: JSON.stringify(describeFields(row, tags)),
    });
    return { ok: true, id } as const;
  });
}

/**
 * Publishes (now, or at `publishAt`: a past date back-dates, a future one schedules), schedules at
 * `publishAt` (must lie ahead of `now`), or takes the post back to draft (its publish date is kept, so
 * publishing it again keeps its place). `change` is `{ status, publishAt? }`, publishAt an ISO text with offset
 * or a Date.
 */
export async function setPostStatus(
  db: Kysely<Database>,
  actor: AuditActor,
  id: string,
  change: unknown,
  options: { now?: Date } = {},
): Promise<PostWriteResult> {
  const parsed = postStatusSchema.safeParse(change);
  if (!parsed.success) return { ok: false, reason: "invalid", fieldErrors: fieldErrorsOf(parsed.error) };
  const now = options.now ?? new Date();
  const wanted = parsed.data;
  if (wanted.status === "scheduled" && wanted.publishAt <= now) {
    return { ok: false, reason: "invalid", fieldErrors: { publishAt: "admin.posts.error.publishAtPast" } };
  }
  const outcome = await db.transaction().execute(async (trx) => {
    const row = await lockPost(trx, id);
    if (!row) return { ok: false, reason: "not-found" } as const;
    let status: PostStatus = wanted.status;
    let publishAt: Date | null = row.publish_at === null ? null : new Date(toIsoString(row.publish_at));
    if (wanted.status === "scheduled") publishAt = wanted.publishAt;
    if (wanted.status === "published") {
      publishAt = wanted.publishAt ?? (row.status === "published" && publishAt ? publishAt : now);
      if (publishAt > now) status = "scheduled";
    }
    await trx
      .updateTable("posts")
      .set({ status, publish_at: publishAt, updated_at: now })
      .where("id", "=", id)
      .execute();
    // Its slugs now may have been linked to: from here on a rename keeps them.
    if (status !== "draft") await keepSlugs(trx, id, { en: row.slug, de: row.slug_de }, true);
    await recordAudit(trx, actor, {
      action: status === "published" ? "posts.publish" : status === "scheduled" ? "posts.schedule" : "posts.unpublish",
      target: row.title,
      oldValue: row.status,
      newValue: status === "draft" ? "draft" : (publishAt?.toISOString() ?? null),
    });
    return { ok: true } as const;
  });
  if (!outcome.ok) return outcome;
  const post = await getPostForAdmin(db, id, { now });
  if (!post) return { ok: false, reason: "not-found" };
  return { ok: true, id, post };
}

// ---------------------------------------------------------------------------------------------------------------
// Visitors: only visible posts, ever

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
  const rows = await postsQuery(db)
    .where(visibleAt(options.now ?? new Date()))
    .orderBy("p.publish_at", "desc")
    .orderBy("p.id", "desc")
    .limit(limit)
    .execute();
  return (await toPublicPosts(db, rows, lang)).map(toSummary);
}

/** The newest visible posts with their Markdown bodies, for a language's feed. */
export async function listPostsForFeed(
  db: Db,
  lang: Language,
  limit: number,
  options: { now?: Date } = {},
): Promise<PublicPost[]> {
  const rows = await postsQuery(db)
    .where(visibleAt(options.now ?? new Date()))
    .orderBy("p.publish_at", "desc")
    .orderBy("p.id", "desc")
    .limit(limit)
    .execute();
  return toPublicPosts(db, rows, lang);
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

// ---------------------------------------------------------------------------------------------------------------
// The scheduler's part

/**
 * Flips every scheduled post whose time has come to published; answers how many. Its updated time stays. Looks
 * first and writes only when a post is due: any UPDATE counts as a change and would drop the page cache.
 */
export async function publishDuePosts(db: Kysely<Database>, now: Date = new Date()): Promise<number> {
  const due = await db
    .selectFrom("posts")
    .select("id")
    .where("status", "=", "scheduled")
    .where("publish_at", "<=", now)
    .execute();
  if (due.length === 0) return 0;
  const result = await db
    .updateTable("posts")
    .set({ status: "published" })
    .where("status", "=", "scheduled")
    .where("publish_at", "<=", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}

/** The time of the next scheduled post, or null when none waits. */
export async function nextScheduledAt(db: Kysely<Database>): Promise<Date | null> {
  const row = await db
    .selectFrom("posts")
    .select("publish_at")
    .where("status", "=", "scheduled")
    .where("publish_at", "is not", null)
    .orderBy("publish_at")
    .limit(1)
    .executeTakeFirst();
  return row?.publish_at ? new Date(toIsoString(row.publish_at)) : null;
}
