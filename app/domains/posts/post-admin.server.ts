import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { describeAccess, resolveAccess, storedAccess, writeItemGroups } from "#app/domains/access/access.server.ts";
import { type AuditActor, recordAudit, recordOrExtendAudit } from "#app/domains/audit/audit.server.ts";
import { indexItems } from "#app/domains/search-index/search-index.server.ts";
import { fieldErrorsOf } from "#app/lib/field-errors.ts";
import { type Db, type PostDeleteResult, type PostRow, type PostWriteResult, tagsOf } from "./post-rows.server.ts";
import {
  normalizeTag,
  POST_ACCESS_ERRORS,
  type PostFields,
  type PostStatus,
  postFieldsSchema,
  postStatusSchema,
} from "./post-schema.ts";
import { chooseSlugs, keepSlugs } from "./post-slugs.server.ts";

/**
 * The admin's side of the blog (issue 12): the writes, each one transaction with its audit entry. The editor's
 * reads are in post-admin-reads.server.ts, the visitors' in post-public.server.ts.
 */

import { getPostForAdmin } from "./post-admin-reads.server.ts";

export { getPostForAdmin, listPostsForAdmin } from "./post-admin-reads.server.ts";

// ---------------------------------------------------------------------------------------------------------------
// Admin: writes

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
    const access = await resolveAccess(trx, input, null, POST_ACCESS_ERRORS);
    if (!access.ok) return { ok: false, reason: "invalid", fieldErrors: access.fieldErrors } as const;
    await trx
      .insertInto("posts")
      .values({
        id,
        author_id: actor.id,
        status: "draft",
        publish_at: null,
        ...postTexts(input, slugs),
        visibility: access.access.visibility,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await keepSlugs(trx, id, { en: slugs.slug, de: slugs.slugDe }, false);
    await writeTags(trx, id, input.tags);
    if (access.access.groupIds.length > 0) await writeItemGroups(trx, "post", id, access.access.groupIds);
    await indexItems(trx, "post", [id]);
    await recordAudit(trx, actor, {
      action: "posts.create",
      target: input.title,
      newValue: JSON.stringify({
        ...describeFields({ ...input, slug: slugs.slug, slug_de: slugs.slugDe }, input.tags.toSorted()),
        visibility: await describeAccess(trx, access.access),
      }),
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
 * `basedOn` is the `updatedAt` the editor's text started from: when the post was saved elsewhere since, nothing
 * is written (checked under the row's lock, so of two editors saving at once the second is always refused).
 */
export async function updatePost(
  db: Kysely<Database>,
  actor: AuditActor,
  id: string,
  fields: Record<string, unknown>,
  options: { now?: Date; autosave?: boolean; basedOn?: string } = {},
): Promise<PostWriteResult> {
  const parsed = parseFields(fields);
  if (!parsed.ok) return parsed;
  const input = parsed.fields;
  const now = options.now ?? new Date();
  const outcome = await db.transaction().execute(async (trx) => {
    const row = await lockPost(trx, id);
    if (!row) return { ok: false, reason: "not-found" } as const;
    if (options.basedOn !== undefined && toIsoString(row.updated_at) !== options.basedOn) {
      return { ok: false, reason: "conflict" } as const;
    }
    if (!(await coverExists(trx, input.cover_image_id))) {
      return { ok: false, reason: "invalid", fieldErrors: { cover_image_id: "admin.posts.error.cover" } } as const;
    }
    const slugs = await chooseSlugs(trx, input, id, row);
    if (!slugs.ok) return { ok: false, reason: "invalid", fieldErrors: slugs.fieldErrors } as const;
    const stored = await storedAccess(trx, "post", id, row.visibility);
    const access = await resolveAccess(trx, input, stored, POST_ACCESS_ERRORS);
    if (!access.ok) return { ok: false, reason: "invalid", fieldErrors: access.fieldErrors } as const;
    const oldTags = (await tagsOf(trx, [id])).get(id) ?? [];
    await trx
      .updateTable("posts")
      .set({
        ...postTexts(input, slugs),
        visibility: access.access.visibility,
        updated_at: now,
      })
      .where("id", "=", id)
      .execute();
    await keepSlugs(trx, id, { en: slugs.slug, de: slugs.slugDe }, row.publish_at !== null);
    await writeTags(trx, id, input.tags);
    if (access.changed) await writeItemGroups(trx, "post", id, access.access.groupIds);
    await indexItems(trx, "post", [id]);
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
    saved.visibility = await describeAccess(trx, stored);
    after.visibility = await describeAccess(trx, access.access);
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

/** Deletes the post with its slugs, tags and groups. Its cover and body pictures stay in `images` (they may be shared). */
export async function deletePost(db: Kysely<Database>, actor: AuditActor, id: string): Promise<PostDeleteResult> {
  return db.transaction().execute(async (trx) => {
    const row = await lockPost(trx, id);
    if (!row) return { ok: false, reason: "not-found" } as const;
    const tags = (await tagsOf(trx, [id])).get(id) ?? [];
    await trx.deleteFrom("post_tags").where("post_id", "=", id).execute();
    await trx.deleteFrom("post_slugs").where("post_id", "=", id).execute();
    // content_groups and share_links name their content by kind and id, without a foreign key: they go with it.
    await writeItemGroups(trx, "post", id, []);
    await trx.deleteFrom("share_links").where("kind", "=", "post").where("item_id", "=", id).execute();
    await trx.deleteFrom("posts").where("id", "=", id).execute();
    await indexItems(trx, "post", [id]);
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
    // The index orders a post by its publication date (search-index/document-ids.server.ts).
    await indexItems(trx, "post", [id]);
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
