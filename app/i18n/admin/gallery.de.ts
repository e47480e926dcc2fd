import type { adminGalleryEn } from "./gallery.en.ts";

export const adminGalleryDe = {} satisfies Record<keyof typeof adminGalleryEn, string>;
