import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { storedAccess } from "#app/domains/access/access.server.ts";
import type { AuditActor } from "#app/domains/audit/audit.server.ts";
import { setPictureAccess } from "#app/domains/gallery/gallery-access.server.ts";
import { setGalleryPublished } from "#app/domains/gallery/gallery-admin.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { addAlbumPictures } from "./albums.server.ts";

/*
 * A picture uploaded straight into an album (issue 21). Pictures for a family album must not pass through the public
 * gallery on their way: an upload into an album that is not for everyone is made hidden, given the album's readers
 * (its files move to a member folder once all its sizes exist), and published only then, if the owner asked for it.
 */

type Db = Kysely<Database>;

/** How an album restricts its uploads: null for an album for everyone, or gone (undefined). */
export async function uploadAccessOf(
  db: Db,
  albumId: string,
): Promise<{ visibility: "members" | "groups"; group_ids: string } | null | undefined> {
  const album = await db.selectFrom("albums").select(["id", "visibility"]).where("id", "=", albumId).executeTakeFirst();
  if (!album) return undefined;
  if (album.visibility === "everyone") return null;
  const access = await storedAccess(db, "album", album.id, album.visibility);
  return { visibility: album.visibility, group_ids: access.groupIds.join(",") };
}

/** How long an upload waits for its picture's sizes before giving it its album's readers (a 12 MP photo: ~2 s). */
const READY_WAIT_MS = 60_000;

/**
 * Puts a just-uploaded picture at the album's end, with the album's readers when it is restricted, then publishes it
 * if asked. Answers false when the album is gone (the picture then stays in the gallery, hidden if it was to be
 * restricted).
 */
export async function placeUploadInAlbum(
  db: Db,
  storage: FileStorage,
  actor: AuditActor,
  input: { albumId: string; pictureId: string; publish: boolean },
): Promise<boolean> {
  const access = await uploadAccessOf(db, input.albumId);
  const added = await addAlbumPictures(db, actor, input.albumId, [input.pictureId]);
  if (!added.ok || access === undefined) return false;
  if (access === null) return true;
  const until = Date.now() + READY_WAIT_MS;
  for (;;) {
    const result = await setPictureAccess(db, storage, actor, input.pictureId, access);
    if (result.ok) break;
    // "busy": its remaining sizes are still being made; anything else leaves it hidden, for the owner to see to.
    if (result.reason !== "busy" || Date.now() > until) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (input.publish) await setGalleryPublished(db, actor, input.pictureId, true);
  return true;
}
