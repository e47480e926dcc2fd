import { z } from "zod";

/** Input checks of the admin gallery actions (kept apart from gallery.ts so that visitors never load zod). */
const text = (max: number) => z.string().trim().max(max, `At most ${max} characters.`);

export const galleryTextsSchema = z
  .object({
    title: text(200),
    title_de: text(200),
    description: text(2000),
    description_de: text(2000),
    category: text(80),
    category_de: text(80),
  })
  .refine((value) => value.category !== "" || value.category_de === "", {
    path: ["category"],
    message: "Enter the English category too: it is the one the filter uses.",
  });

export type GalleryTexts = z.infer<typeof galleryTextsSchema>;

export const galleryIdSchema = z.string().trim().min(1).max(100);
export const galleryReorderSchema = z.array(galleryIdSchema).min(1).max(10_000);
