// What the post editor sends and what it is answered: read by the editor route (admin.posts.$id.server.ts) and by
// the editor's components in the browser, so nothing here may import server code.

import type { ImageDisplay } from "#app/domains/media/image-display.ts";

/** The editor's form fields that make up a post (the names postFieldsSchema reads). */
export const POST_FORM_FIELDS = [
  "title",
  "title_de",
  "slug",
  "slug_de",
  "excerpt",
  "excerpt_de",
  "body",
  "body_de",
  "cover_image_id",
  "cover_alt",
  "cover_alt_de",
  "tags",
  "visibility",
  "group_ids",
] as const;
export type PostFormField = (typeof POST_FORM_FIELDS)[number];
export type PostFormValues = Record<PostFormField, string>;

/** The address segment of the editor for a post not written yet. */
export const NEW_POST = "new";

/**
 * What the editor's buttons ask for. `save` keeps the status (Save draft / Save changes), `autosave` is the
 * editor saving a draft by itself (refused for a post visitors may see: those change only when the admin says so),
 * `publish` now, `schedule` at the picker's time, `unpublish` back to draft, `delete`.
 */
export const EDITOR_INTENTS = ["save", "autosave", "publish", "schedule", "unpublish", "delete"] as const;
export type EditorIntent = (typeof EDITOR_INTENTS)[number];

/**
 * The post as it was saved elsewhere while this editor had it open: its fields and the `updatedAt` a save must
 * name to replace it (the editor offers: keep mine, take theirs, see both).
 */
export type PostConflict = {
  values: PostFormValues;
  updatedAt: string;
  /** The stored cover as the picker shows it, so that taking theirs shows their picture, not the old one. */
  cover: ImageDisplay | null;
};

export type EditorResult =
  | {
      ok: true;
      intent: EditorIntent;
      message: string;
      /** The post's id (a new post's, once the first save wrote it); null after delete. */
      id: string | null;
      updatedAt: string | null;
      /** Where a full form post goes next (a new post's own address, the list after delete). */
      redirectTo: string | null;
    }
  | {
      ok: false;
      intent: EditorIntent | null;
      message: string;
      fieldErrors: Record<string, string>;
      /** What was sent, so a page rendered without JavaScript shows it again instead of the stored post. */
      values: PostFormValues | null;
      /** A new post's id when its fields were written but the status change was refused. */
      id?: string;
      /** The post does not exist (any more): answered 404. */
      notFound?: true;
      /** Saved elsewhere since this editor's text was loaded: nothing was written (answered 409). */
      conflict?: PostConflict;
    };

/** How often an open editor says it is still there, and after how long without a word it counts as gone. */
export const PRESENCE_HEARTBEAT_MS = 20_000;
export const PRESENCE_TIMEOUT_MS = 45_000;

/** Another open editor of the same post: whose, and whether it is the viewer's own other tab. */
export type EditorPresence = { name: string; you: boolean };
