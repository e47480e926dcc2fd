import { z } from "zod";
import { accessSchema } from "#app/domains/access/access-schema.ts";
import { optionalText } from "#app/domains/content/content-schema.ts";
import { rowIdSchema } from "#app/lib/text-schema.ts";

/**
 * Input checks of the admin gallery actions (kept apart from gallery.ts so that visitors never load zod), on
 * the shared text rule. Messages are admin dictionary keys (`translateFieldErrors`).
 */
export const galleryTextsSchema = z
  .object({
    title: optionalText(200),
    title_de: optionalText(200),
    description: optionalText(2000, { multiline: true }),
    description_de: optionalText(2000, { multiline: true }),
    category: optionalText(80),
    category_de: optionalText(80),
    alt: optionalText(300),
    alt_de: optionalText(300),
  })
  .refine((value) => value.category !== "" || value.category_de === "", {
    path: ["category"],
    message: "admin.gallery.error.categoryEnglish",
  });

export type GalleryTexts = z.infer<typeof galleryTextsSchema>;

export const galleryIdSchema = rowIdSchema;
export const galleryReorderSchema = z.array(rowIdSchema).min(1).max(10_000);

/** What a bulk action does to every picture it names. */
export const GALLERY_BULK_ACTIONS = ["publish", "hide", "category", "delete"] as const;
export type GalleryBulkAction = (typeof GALLERY_BULK_ACTIONS)[number];

/** The chosen pictures of a bulk action, as one comma-separated field. */
export const galleryBulkIdsSchema = z.preprocess(
  (value) => (typeof value === "string" ? value.split(",").filter(Boolean) : value),
  z.array(rowIdSchema).min(1).max(10_000),
);

/**
 * A bulk action of the admin list: the chosen pictures (sent as one comma-separated field) and what to do.
 * "category" sets the English category (empty: none); its German label comes from the pictures that have it.
 */
export const galleryBulkSchema = z.object({
  bulk: z.enum(GALLERY_BULK_ACTIONS),
  ids: z.preprocess(
    (value) => (typeof value === "string" ? value.split(",").filter(Boolean) : value),
    z.array(rowIdSchema).min(1).max(10_000),
  ),
  category: optionalText(80),
});

export type GalleryBulkInput = z.infer<typeof galleryBulkSchema>;

/** The uploader's choices, sent beside each file: publish at once or keep hidden, and where new pictures go. */
export const galleryUploadSchema = z.object({
  publish: z.enum(["now", "later"]).default("later"),
  placement: z.enum(["top", "bottom"]).default("bottom"),
  /** The picture uploaded just before this one in the same batch (placement "top" keeps the batch's order). */
  after: rowIdSchema.optional(),
});

/**
 * Who may see a picture (issue 21): everyone, members, or groups (ids, one comma-separated field or a list). Messages
 * are admin dictionary keys.
 */
export const galleryAccessSchema = accessSchema({
  visibility: "admin.gallery.error.visibility",
  groups: "admin.gallery.error.groups",
});

export type GalleryAccessInput = z.infer<typeof galleryAccessSchema>;
