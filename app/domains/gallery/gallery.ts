import { z } from "zod";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";

/** Pictures per page: the grid never gets every image at once. */
export const GALLERY_PAGE_SIZE = 24;

/** A published picture as a visitor sees it, texts already in their language. */
export type GalleryItem = {
  id: string;
  title: string;
  description: string;
  /** The category's label in the visitor's language ('' when none). */
  category: string;
  image: ImageDisplay;
};

export type GalleryCategory = {
  /** The English category: the stable value of the `?category=` filter, whatever the language. */
  key: string;
  label: string;
};

/** A picture as the admin list shows it: every language, published or not. */
export type AdminGalleryItem = {
  id: string;
  title: string;
  titleDe: string;
  description: string;
  descriptionDe: string;
  category: string;
  categoryDe: string;
  published: boolean;
  width: number;
  height: number;
  image: ImageDisplay;
};

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
