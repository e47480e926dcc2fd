import type { Generated } from "kysely";
import type { DbDate } from "./column-types.ts";
import type { ContentVisibility } from "./schema-members.ts";

/* Albums (issue 21, migration 0027): part of `Database` in schema.ts. */

/** A titled, ordered set of gallery pictures, seen by whoever its visibility allows. */
export interface AlbumsTable {
  id: string;
  /** The English address (`/albums/<slug>`); `slug_de` the German one. Each unique among every album's both. */
  slug: string;
  slug_de: string;
  title: string;
  title_de: Generated<string>;
  description: Generated<string>;
  description_de: Generated<string>;
  /** A gallery picture of the album; null: its first picture stands in. */
  cover_picture_id: string | null;
  visibility: Generated<ContentVisibility>;
  sort_order: number;
  created_at: DbDate;
  updated_at: DbDate;
}

/** A picture's place in an album (a picture may be in several). */
export interface AlbumPicturesTable {
  album_id: string;
  picture_id: string;
  sort_order: number;
  added_at: DbDate;
}
