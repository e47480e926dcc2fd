import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";

/*
 * What an album's share link opens (issue 21): that album alone, to whoever holds the link. The share page reads the
 * album by its id, whoever it is for; a restricted picture's files are answered to the link's holder through the
 * link's files cookie (share-links.server.ts), while the link is open, for pictures of that album only.
 */

/** Whether one of the open album links `shareIds` shows a published picture whose files are in `folder`. */
export async function maySharedLinksReadFolder(
  db: Kysely<Database>,
  shareIds: readonly string[],
  folder: string,
  now = new Date(),
): Promise<boolean> {
  if (shareIds.length === 0) return false;
  const found = await db
    .selectFrom("share_links as s")
    .innerJoin("album_pictures as ap", "ap.album_id", "s.item_id")
    .innerJoin("gallery_images as g", "g.id", "ap.picture_id")
    .innerJoin("images as i", "i.id", "g.image_id")
    .select("s.id")
    .where("s.id", "in", [...shareIds])
    .where("s.kind", "=", "album")
    .where("s.revoked_at", "is", null)
    .where((eb) => eb.or([eb("s.expires_at", "is", null), eb("s.expires_at", ">", now)]))
    .where("g.published", "=", true)
    .where("i.private_folder", "=", folder)
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}
