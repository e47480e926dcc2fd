import type { ContentVisibility } from "#app/domains/access/reader.ts";
import type { GalleryItem } from "#app/domains/gallery/gallery.ts";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";

/* Albums as pages and the admin show them (issue 21): client-safe types and addresses. */

/** An album on /albums: texts in the reader's language, its address in that language, its cover. */
export type AlbumCard = {
  id: string;
  slug: string;
  title: string;
  description: string;
  count: number;
  cover: { image: ImageDisplay; alt: string } | null;
  /** Set only for a restricted album: the badge's word (members) or the reader's own groups' names. */
  visibility: ContentVisibility;
  groupNames: string[];
};

/** One album's page: the album and one page of its pictures. */
export type AlbumPage = AlbumCard & {
  descriptionHtml: string;
  /** The album's other language's slug, for the language switch's address. */
  slugs: { en: string; de: string };
  items: GalleryItem[];
  /** 1-based. */
  page: number;
  pageCount: number;
  total: number;
  /** The picture a shared `?image=` link opens, when it is in the album (it is on this page). */
  openId: string | null;
  updatedAt: string;
};

/* The admin's screens (album-admin-reads.server.ts). */

export type AdminAlbumSummary = {
  id: string;
  title: string;
  slug: string;
  visibility: ContentVisibility;
  groupNames: string[];
  pictureCount: number;
};

export type AdminAlbumPicture = { id: string; title: string; published: boolean; image: ImageDisplay };

export type AdminAlbum = {
  id: string;
  title: string;
  titleDe: string;
  slug: string;
  slugDe: string;
  description: string;
  descriptionDe: string;
  visibility: ContentVisibility;
  groupIds: string[];
  coverPictureId: string | null;
  pictures: AdminAlbumPicture[];
  /** Gallery pictures not in the album yet, in the gallery's order. */
  candidates: AdminAlbumPicture[];
};

/** An album's address, with a page or a picture open. */
export function albumHref(slug: string, options: { page?: number; image?: string | null } = {}): string {
  const params = new URLSearchParams();
  if (options.image) params.set("image", options.image);
  else if (options.page && options.page > 1) params.set("page", String(options.page));
  const query = params.toString();
  return `/albums/${slug}${query ? `?${query}` : ""}`;
}
