import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import { listGroupChoices } from "#app/domains/access/access.server.ts";
import type { AuditActor } from "#app/domains/audit/audit.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import {
  createPost,
  deletePost,
  getPostForAdmin,
  listPostsForAdmin,
  setPostStatus,
  updatePost,
} from "#app/domains/posts/post-admin.server.ts";
import {
  EDITOR_INTENTS,
  type EditorIntent,
  type EditorResult,
  NEW_POST,
  POST_FORM_FIELDS,
  type PostConflict,
  type PostFormValues,
} from "#app/domains/posts/post-editor-form.ts";
import { imageIdsOfPost, placePostImages } from "#app/domains/posts/post-image-places.server.ts";
import type { AdminPost, PostWriteResult } from "#app/domains/posts/post-rows.server.ts";
import { signPreviewLink } from "#app/domains/posts/preview-link.server.ts";
import { fromZonedLocal, isTimeZone } from "#app/domains/posts/schedule-time.ts";
import { announceNewItem } from "#app/domains/subscriptions/announcements.server.ts";
import type { AdminMessageKey, AdminTranslate } from "#app/i18n/admin-dictionary.ts";
import { translateFieldErrors } from "#app/lib/field-errors.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { ROW_ID_PATTERN } from "#app/lib/text-schema.ts";

// The editor's form and its answer are shared with the editor's components (client-safe, in the posts domain).
export {
  EDITOR_INTENTS,
  type EditorIntent,
  type EditorResult,
  NEW_POST,
  POST_FORM_FIELDS,
  type PostConflict,
  type PostFormField,
  type PostFormValues,
} from "#app/domains/posts/post-editor-form.ts";

const DONE_MESSAGES: Partial<Record<EditorIntent, AdminMessageKey>> = {
  save: "admin.posts.saved",
  publish: "admin.posts.published",
  schedule: "admin.posts.scheduled",
  unpublish: "admin.posts.unpublished",
  delete: "admin.posts.deleted",
};

/** The message of a `?done=<intent>` a redirect after a button press carries (anything else: none). */
export function doneMessageKey(done: string | null): AdminMessageKey | null {
  return (done && Object.hasOwn(DONE_MESSAGES, done) ? DONE_MESSAGES[done as EditorIntent] : null) ?? null;
}

/** The HTTP status of the editor's answer: 404 for a post that is gone, 409 for one saved elsewhere meanwhile. */
export function editorStatus(result: EditorResult): number {
  if (result.ok) return 200;
  return result.notFound ? 404 : result.conflict ? 409 : 400;
}

export function formValuesOf(post: AdminPost | null): PostFormValues {
  return {
    title: post?.title ?? "",
    title_de: post?.titleDe ?? "",
    slug: post?.slug ?? "",
    slug_de: post?.slugDe ?? "",
    excerpt: post?.excerpt ?? "",
    excerpt_de: post?.excerptDe ?? "",
    body: post?.body ?? "",
    body_de: post?.bodyDe ?? "",
    cover_image_id: post?.coverImageId ?? "",
    cover_alt: post?.coverAlt ?? "",
    cover_alt_de: post?.coverAltDe ?? "",
    tags: post?.tags.join(", ") ?? "",
    visibility: post?.visibility ?? "everyone",
    group_ids: post?.groupIds.join(",") ?? "",
  };
}

function valuesFrom(form: Record<string, string>): PostFormValues {
  const values = {} as PostFormValues;
  for (const field of POST_FORM_FIELDS) values[field] = form[field] ?? "";
  return values;
}

/** The editor's data: the post (null for a new one), the tags in use for suggestions, the preview links. */
export async function loadPostEditor(
  db: Kysely<Database>,
  id: string,
  options: { previewSecret: string; now?: Date },
): Promise<{
  post: AdminPost | null;
  values: PostFormValues;
  knownTags: string[];
  previewLinks: { en: string; de: string } | null;
  groups: { id: string; name: string }[];
} | null> {
  const post = id === NEW_POST ? null : ROW_ID_PATTERN.test(id) ? await getPostForAdmin(db, id, options) : undefined;
  if (post === undefined) return null;
  if (id !== NEW_POST && post === null) return null;
  const knownTags = [...new Set((await listPostsForAdmin(db, options)).flatMap((summary) => summary.tags))].sort();
  const groups = await listGroupChoices(db);
  const link = post ? signPreviewLink(post.id, { secret: options.previewSecret, now: options.now }) : null;
  return {
    post,
    values: formValuesOf(post),
    knownTags,
    previewLinks: link ? { en: link, de: `${link}&lang=de` } : null,
    groups,
  };
}

const controlSchema = z.object({
  intent: z.enum(EDITOR_INTENTS),
  /** A new post's id once an autosave wrote it (the editor's address still says "new"). */
  post_id: z.string().regex(ROW_ID_PATTERN).optional().or(z.literal("")),
  /** The schedule picker: a wall-clock time and the browser's time zone (UTC when the browser sent none). */
  publish_local: z.string().max(40).optional(),
  time_zone: z.string().max(64).optional(),
  /** The `updatedAt` of the post the editor's text started from; a save over a newer one is refused. */
  base_updated_at: z.string().max(40).optional(),
});

/**
 * The moment the schedule picker names, or the field error: empty or malformed, a time the clocks skip in
 * that zone, or not ahead of `now`.
 */
export function scheduledMoment(
  local: string | undefined,
  timeZone: string | undefined,
  now: Date,
): { ok: true; moment: Date } | { ok: false; error: AdminMessageKey } {
  const zone = timeZone && isTimeZone(timeZone) ? timeZone : "UTC";
  const result = fromZonedLocal(local ?? "", zone);
  if (!result.ok) {
    return {
      ok: false,
      error: result.reason === "skipped" ? "admin.posts.error.publishAtSkipped" : "admin.posts.error.publishAt",
    };
  }
  if (result.moment <= now) return { ok: false, error: "admin.posts.error.publishAtPast" };
  return result;
}

/**
 * Runs one press of the editor's buttons for post `routeId` (or a new post): saves the fields, then changes the
 * status as asked. Each write is one of the posts service's audited transactions. Refusals change nothing and
 * say why per field in the admin's language.
 */
export async function runEditorAction(
  db: Kysely<Database>,
  actor: AuditActor,
  routeId: string,
  form: Record<string, string>,
  options: { t: AdminTranslate; storage: FileStorage; now?: Date },
): Promise<EditorResult> {
  const { t } = options;
  const now = options.now ?? new Date();
  const values = valuesFrom(form);
  const refuse = (
    message: string,
    fieldErrors: Record<string, string> = {},
    intent: EditorIntent | null = null,
  ): Extract<EditorResult, { ok: false }> => ({ ok: false, intent, message, fieldErrors, values });

  const control = controlSchema.safeParse(form);
  if (!control.success) return refuse(t("admin.common.error"));
  const { intent } = control.data;
  const isNew = routeId === NEW_POST && !control.data.post_id;
  const id = routeId === NEW_POST ? control.data.post_id || null : routeId;
  const missing = (): EditorResult => ({
    ok: false,
    intent,
    message: t("admin.posts.notFound"),
    fieldErrors: {},
    values,
    notFound: true,
  });
  if (id !== null && !ROW_ID_PATTERN.test(id)) return missing();
  const existing = id ? await getPostForAdmin(db, id, { now }) : null;
  if (!isNew && !existing) return missing();

  if (intent === "delete") {
    if (!id) return missing();
    const deleted = await deletePost(db, actor, id);
    if (!deleted.ok) return missing();
    await placeShownImages(db, options.storage, existing, null);
    return {
      ok: true,
      intent,
      message: t("admin.posts.deleted"),
      id: null,
      updatedAt: null,
      redirectTo: "/admin/posts?done=delete",
    };
  }
  if (intent === "autosave" && existing && existing.status !== "draft") {
    return refuse(t("admin.posts.autosaveDraftsOnly"), {}, intent);
  }

  // The time is checked before anything is written: a refused schedule leaves no new draft behind.
  let moment: Date | null = null;
  if (intent === "schedule") {
    const chosen = scheduledMoment(control.data.publish_local, control.data.time_zone, now);
    if (!chosen.ok) {
      return refuse(t("admin.posts.error.notSaved"), translateFieldErrors(t, { publishAt: chosen.error }), intent);
    }
    moment = chosen.moment;
  }

  // An editor that names no base (a script, an old page) saves as before; the editor always names one.
  const basedOn = control.data.base_updated_at || undefined;
  const saved: PostWriteResult = existing
    ? await updatePost(db, actor, existing.id, values, { now, autosave: intent === "autosave", basedOn })
    : await createPost(db, actor, values, { now });
  if (!saved.ok) {
    if (saved.reason === "not-found") return missing();
    if (saved.reason === "conflict") {
      const current = existing ? await getPostForAdmin(db, existing.id, { now }) : null;
      if (!current) return missing();
      const conflict: PostConflict = {
        values: formValuesOf(current),
        updatedAt: current.updatedAt,
        cover: current.cover,
      };
      return { ...refuse(t("admin.posts.conflict.refused"), {}, intent), conflict };
    }
    return refuse(t("admin.posts.error.notSaved"), translateFieldErrors(t, saved.fieldErrors), intent);
  }
  await placeShownImages(db, options.storage, existing, values);

  let result: PostWriteResult = saved;
  if (intent === "publish") result = await setPostStatus(db, actor, saved.id, { status: "published" }, { now });
  if (intent === "unpublish") result = await setPostStatus(db, actor, saved.id, { status: "draft" }, { now });
  if (intent === "schedule" && moment) {
    result = await setPostStatus(db, actor, saved.id, { status: "scheduled", publishAt: moment }, { now });
  }
  // A press of a button in the editor of a new post (which an autosave may have written already) goes on at the
  // post's own address; the autosave route answers JSON and the editor moves its address itself.
  // `done` names what happened, so the page it lands on can say so.
  const redirectTo = routeId === NEW_POST && intent !== "autosave" ? `/admin/posts/${saved.id}?done=${intent}` : null;
  if (!result.ok) {
    // The fields were saved; only the status change was refused (the post vanished, or the time went by).
    const fieldErrors = result.reason === "invalid" ? translateFieldErrors(t, result.fieldErrors) : {};
    return { ...refuse(t("admin.posts.statusNotChanged"), fieldErrors, intent), id: saved.id } as EditorResult;
  }
  if (intent === "publish" && result.post.visible) {
    // Mailed to the subscribers by a job, after this answer; not awaited. Should this enqueue be lost (the process
    // ends now), the announcements' sweep finds the post within a minute: nothing waits on it here.
    const postId = result.id;
    void announceNewItem({ db }, { kind: "post", id: postId }, now).catch((error: unknown) =>
      getLogger().warn({ err: error, post: postId }, "The new post's announcement is left to the sweep"),
    );
  }
  const message = {
    save: t("admin.posts.saved"),
    autosave: t("admin.posts.autosaved"),
    publish: t("admin.posts.published"),
    schedule: t("admin.posts.scheduled"),
    unpublish: t("admin.posts.unpublished"),
  }[intent];
  return { ok: true, intent, message, id: result.id, updatedAt: result.post.updatedAt, redirectTo };
}

/**
 * The pictures the post showed before this save and shows now, moved to where its visibility puts them
 * (post-image-places.server.ts) before the answer, so the page the admin sees next names their new addresses. The
 * post is saved either way: should the move fail, the hourly placing job tries again.
 */
async function placeShownImages(
  db: Kysely<Database>,
  storage: FileStorage,
  before: AdminPost | null,
  after: PostFormValues | null,
): Promise<void> {
  const beforeValues = before ? formValuesOf(before) : null;
  const shownBefore = beforeValues ? imageIdsOfPost(beforeValues) : [];
  const shownAfter = after ? imageIdsOfPost(after) : [];
  // A save that keeps the post's pictures and whether it is for everyone (most autosaves) moves nothing: a picture's
  // place depends only on which posts show it and whether one of them is for everyone.
  if (
    beforeValues &&
    after &&
    (beforeValues.visibility === "everyone") === (after.visibility === "everyone") &&
    sameMembers(shownBefore, shownAfter)
  )
    return;
  const shown = [...shownBefore, ...shownAfter];
  try {
    await placePostImages(db, storage, shown);
  } catch (error) {
    getLogger().error({ err: error }, "Could not move a post's pictures to where its visibility puts them");
  }
}

function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((item) => set.has(item));
}
