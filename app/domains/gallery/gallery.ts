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
