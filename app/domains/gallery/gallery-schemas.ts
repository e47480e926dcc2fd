import { z } from "zod";
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
  })
  .refine((value) => value.category !== "" || value.category_de === "", {
    path: ["category"],
    message: "admin.gallery.error.categoryEnglish",
  });

export type GalleryTexts = z.infer<typeof galleryTextsSchema>;

export const galleryIdSchema = rowIdSchema;
export const galleryReorderSchema = z.array(rowIdSchema).min(1).max(10_000);
