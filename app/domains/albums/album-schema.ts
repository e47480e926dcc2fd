import { z } from "zod";
import { groupIdsField, visibilityField } from "#app/domains/access/access-schema.ts";
import { optionalText, requiredText } from "#app/domains/content/content-schema.ts";
import { SLUG_MAX, slugField } from "#app/domains/posts/post-schema.ts";
import { rowIdSchema } from "#app/lib/text-schema.ts";

/*
 * The album editor's input (issue 21). Messages are admin dictionary keys (`admin.albums.error.*`, or the shared
 * text rule's), turned into the admin's language by the route.
 */

export const ALBUM_TITLE_MAX = 200;
export const ALBUM_DESCRIPTION_MAX = 5000;
export { SLUG_MAX as ALBUM_SLUG_MAX };

/** How many pictures one request may add to an album or put in order (a gallery of 10,000 fits in one order). */
export const ALBUM_PICTURES_MAX = 20_000;

/** An album's texts and who may see it. Empty slugs are made from the titles. */
export const albumFieldsSchema = z.object({
  title: requiredText(ALBUM_TITLE_MAX),
  title_de: optionalText(ALBUM_TITLE_MAX),
  slug: slugField,
  slug_de: slugField,
  description: optionalText(ALBUM_DESCRIPTION_MAX, { multiline: true }),
  description_de: optionalText(ALBUM_DESCRIPTION_MAX, { multiline: true }),
  visibility: visibilityField("admin.albums.error.visibility"),
  group_ids: groupIdsField("admin.albums.error.groups"),
});
export type AlbumFields = z.output<typeof albumFieldsSchema>;

/** Ids, comma-separated (a form) or a list: the pictures to add, or an order. */
export const idListField = z.preprocess(
  (value) => (typeof value === "string" ? (value === "" ? [] : value.split(",")) : value),
  z.array(rowIdSchema, { error: "admin.albums.error.pictures" }).max(ALBUM_PICTURES_MAX, {
    error: "admin.albums.error.pictures",
  }),
);

/** The editor's messages for the refusals of the access rule's `resolveAccess`. */
export const ALBUM_ACCESS_ERRORS = { needed: "admin.albums.error.groupsNeeded", unknown: "admin.albums.error.groups" };
