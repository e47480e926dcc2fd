import { z } from "zod";
import { groupIdsField, visibilityField } from "#app/domains/access/access-schema.ts";
import { ADMIN_TEXT_MESSAGES, optionalText, requiredText } from "#app/domains/content/content-schema.ts";
import { ROW_ID_PATTERN, textSchema } from "#app/lib/text-schema.ts";

/**
 * The post editor's input (issue 12). Error messages are admin dictionary keys (`admin.posts.error.*` in
 * app/i18n/admin/post-rules.*.ts, or the shared text rule's `admin.content.error.*`), which the admin route
 * turns into the admin's language with `translateFieldErrors`.
 */

export const POST_STATUSES = ["draft", "scheduled", "published"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export const TITLE_MAX = 200;
export const SLUG_MAX = 100;
export const EXCERPT_MAX = 1000;
export const BODY_MAX = 200_000;
export const COVER_ALT_MAX = 300;
export const TAG_MAX = 40;
export const TAGS_MAX = 20;

/** A slug: lower-case letters, digits and single hyphens between them; what addresses carry. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const SPELLED_OUT: Record<string, string> = { ä: "ae", ö: "oe", ü: "ue", ß: "ss", æ: "ae", ø: "o", œ: "oe" };

/** Lower case, German letters spelled out as Germans write them without umlauts ("Größe" → "groesse"), accents dropped. */
export function spellOut(text: string): string {
  return text
    .toLowerCase()
    .replace(/[äöüßæøœ]/g, (letter) => SPELLED_OUT[letter] ?? letter)
    .normalize("NFKD")
    .replace(/\p{M}/gu, "");
}

/** The text as a slug: spelled out (above), anything else between words a hyphen, at most SLUG_MAX. */
export function slugify(text: string): string {
  return spellOut(text)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, "");
}

/** A slug field: empty means "make it from the title"; otherwise it must already be a slug (never silently changed). */
export const slugField = textSchema({ max: SLUG_MAX, messages: ADMIN_TEXT_MESSAGES })
  .transform((value) => value.toLowerCase())
  .refine((value) => value === "" || SLUG_PATTERN.test(value), { error: "admin.posts.error.slug" });

/** A tag as stored: trimmed, lower-case, inner white space as one space. */
export function normalizeTag(tag: string): string {
  return tag.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * Tags as a comma-separated text (the form) or a list (services); normalised, duplicates dropped. A tag may hold
 * letters of any language, digits, spaces and `-`, `_`, `.`, `+`, `#` (C#, node.js), at most TAG_MAX characters.
 */
export const tagsField = z.preprocess(
  (value) => {
    if (value === undefined || value === null) return [];
    if (typeof value === "string") return value.split(",");
    return value;
  },
  z
    .array(z.string({ error: "admin.posts.error.tag" }), { error: "admin.posts.error.tag" })
    .transform((tags) => [...new Set(tags.map(normalizeTag).filter((tag) => tag !== ""))])
    .refine((tags) => tags.every((tag) => tag.length <= TAG_MAX && /^[\p{L}\p{N} ._+#-]+$/u.test(tag)), {
      error: "admin.posts.error.tag",
    })
    .refine((tags) => tags.length <= TAGS_MAX, { error: "admin.posts.error.tooManyTags" }),
);

/** Markdown keeps its indentation: only the line endings and the shared rule's checks apply. */
function markdownText(max: number) {
  return textSchema({ max, multiline: true, trim: false, messages: ADMIN_TEXT_MESSAGES }).transform((value) =>
    value.trim() === "" ? "" : value.replace(/\s+$/, "\n"),
  );
}

/** An image id, or empty for none. */
const coverImageField = z.preprocess(
  (value) => value ?? "",
  z
    .string({ error: "admin.posts.error.cover" })
    .refine((value) => value === "" || ROW_ID_PATTERN.test(value), { error: "admin.posts.error.cover" })
    .transform((value) => (value === "" ? null : value)),
);

/** The editor's messages for the refusals of the access rule's `resolveAccess` (app/domains/access/). */
export const POST_ACCESS_ERRORS = { needed: "admin.posts.error.groupsNeeded", unknown: "admin.posts.error.groups" };

/** The editable fields of a post (not its status: see `postStatusSchema`). */
export const postFieldsSchema = z.object({
  title: requiredText(TITLE_MAX),
  title_de: optionalText(TITLE_MAX),
  slug: slugField,
  slug_de: slugField,
  excerpt: optionalText(EXCERPT_MAX, { multiline: true }),
  excerpt_de: optionalText(EXCERPT_MAX, { multiline: true }),
  body: markdownText(BODY_MAX),
  body_de: markdownText(BODY_MAX),
  cover_image_id: coverImageField,
  cover_alt: optionalText(COVER_ALT_MAX),
  cover_alt_de: optionalText(COVER_ALT_MAX),
  tags: tagsField,
  visibility: visibilityField("admin.posts.error.visibility"),
  group_ids: groupIdsField("admin.posts.error.groups"),
});
export type PostFields = z.output<typeof postFieldsSchema>;

/** A moment as an ISO 8601 text with its offset (`2026-11-24T12:00:00Z`, `…+01:00`) or a Date. */
export const publishAtField = z.preprocess(
  (value) => {
    if (value instanceof Date) return value;
    if (typeof value !== "string") return value;
    const text = value.trim();
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
    return new Date(text);
  },
  z.date({ error: "admin.posts.error.publishAt" }).refine((date) => !Number.isNaN(date.getTime()), {
    error: "admin.posts.error.publishAt",
  }),
);

/**
 * A status change: back to draft; publish (now, or at a given date, which may lie in the past to back-date a
 * post); schedule at a time that must lie ahead (checked by the service against its clock).
 */
export const postStatusSchema = z.discriminatedUnion(
  "status",
  [
    z.object({ status: z.literal("draft") }),
    z.object({
      status: z.literal("published"),
      publishAt: z.preprocess((value) => (value === "" ? undefined : value), publishAtField.optional()),
    }),
    z.object({ status: z.literal("scheduled"), publishAt: publishAtField }),
  ],
  { error: "admin.posts.error.status" },
);
export type PostStatusChange = z.input<typeof postStatusSchema>;
