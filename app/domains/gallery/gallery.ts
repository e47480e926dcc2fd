import type { ContentVisibility } from "#app/domains/access/reader.ts";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";
import { fileNameWords } from "#app/lib/file-name-words.ts";

/** Pictures per page: the grid never gets every image at once. */
export const GALLERY_PAGE_SIZE = 24;

/** A published picture as a visitor sees it, texts already in their language. */
export type GalleryItem = {
  id: string;
  title: string;
  /** The description as plain text (its Markdown marks removed): for the page's head and structured data. */
  description: string;
  /** The description rendered by the site's safe Markdown ('' when none): what the lightbox shows. */
  descriptionHtml: string;
  /** The category's label in the visitor's language ('' when none). */
  category: string;
  /** The image's text alternative in the visitor's language: its alt text, or its title when it has none. */
  alt: string;
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
  alt: string;
  altDe: string;
  published: boolean;
  /** Who may see it (issue 21), and its groups' ids when that is "groups". */
  visibility: ContentVisibility;
  groupIds: string[];
  width: number;
  height: number;
  image: ImageDisplay;
};

/** The longest title a picture takes (the edit form's and the schema's limit). */
export const GALLERY_TITLE_MAX = 200;

/**
 * The English title an upload starts with, made from its file name (`fileNameWords`: no extension, no numbering
 * prefix, separators read as spaces), the first letter capitalised ("01-alpine-lake_02.jpg" → "Alpine lake 02").
 * The German title starts empty: the site shows the English one until the owner writes it.
 */
export function titleFromFileName(fileName: string): string {
  const words = fileNameWords(fileName);
  const title = words.charAt(0).toLocaleUpperCase("en") + words.slice(1);
  return title.slice(0, GALLERY_TITLE_MAX).trim();
}

/**
 * The file name a downloaded picture is saved under: its title in plain letters, digits and dashes (German
 * letters spelled out, accents dropped), as a JPEG ("Grüner Wald" → "gruener-wald.jpg"); "picture.jpg" when
 * nothing of it is left.
 */
export function downloadFileName(title: string): string {
  const base = title
    .toLowerCase()
    .replace(/ä/g, "ae")
    .replace(/ö/g, "oe")
    .replace(/ü/g, "ue")
    .replace(/ß/g, "ss")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 80)
    .replace(/^-+|-+$/g, "");
  return `${base || "picture"}.jpg`;
}
