import type { ExpressionBuilder, Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toBoolean } from "#app/db/values.ts";
import { cachedUntilChanged } from "#app/db/version-cache.server.ts";
import type { Reader } from "#app/domains/access/reader.ts";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import {
  copyVariants,
  holdImageAsRead,
  MEMBER_FOLDER,
  newMemberFolder,
} from "#app/domains/media/member-files.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { publishedBy, visibleTo } from "./post-rows.server.ts";

/*
 * Where a post's own pictures' files are (issue 21): its cover and the pictures placed in its text (`image:<id>`)
 * have public names while some post that shows them is for everyone, and a member folder of their own otherwise
 * (member-files.server.ts), answered at `/media/members/…` only to a reader who may read a post that shows them, or
 * to the holder of an open share link of one (`mayReadPostFolder`, `maySharedPostLinksReadFolder`). A picture that
 * is also a gallery picture or a video's poster follows that item's own rule and is left alone here.
 *
 * Placed after every save of a post that changes which pictures it shows or whether it is for everyone, for the
 * pictures it shows and those it showed before the save, and by a job every hour for every post's pictures: that
 * one places what an interrupted save or an older version left.
 */

/** An `images` id: what the pipeline makes (a UUID). Only such ids are looked for in a post's text. */
const IMAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const REFERENCE = /image:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g;

type PostImages = { cover_image_id: string | null; body: string; body_de: string };

/**
 * The pictures a post shows: its cover and every `image:<id>` of its text in either language. Read from the
 * source, so one named inside a code block counts too: it is the admin's own mention, and counting it only keeps
 * the picture readable to that post's readers.
 */
export function imageIdsOfPost(post: PostImages): string[] {
  const ids = new Set<string>();
  if (post.cover_image_id && IMAGE_ID.test(post.cover_image_id)) ids.add(post.cover_image_id);
  for (const text of [post.body, post.body_de]) {
    for (const match of text.matchAll(REFERENCE)) if (match[1]) ids.add(match[1]);
  }
  return [...ids];
}

/** The posts that show picture `imageId` (its id is a UUID: no LIKE wildcard in the pattern). */
function showing(imageId: string) {
  return (eb: ExpressionBuilder<Database & { p: Database["posts"] }, "p">) =>
    eb.or([
      eb("p.cover_image_id", "=", imageId),
      eb("p.body", "like", `%image:${imageId}%`),
      eb("p.body_de", "like", `%image:${imageId}%`),
    ]);
}

/**
 * Where picture `imageId`'s files belong: public names while a post for everyone shows it, a member folder while
 * only restricted posts do; `null` when posts do not decide (no post shows it, or it is a gallery picture or a
 * video's poster, whose own rule places it).
 */
async function wantedPlace(db: Kysely<Database>, imageId: string): Promise<"public" | "restricted" | null> {
  const owner = await db
    .selectFrom("images as i")
    .select((eb) => [
      eb.exists(eb.selectFrom("gallery_images as g").select("g.id").whereRef("g.image_id", "=", "i.id")).as("gallery"),
      eb.exists(eb.selectFrom("videos as v").select("v.id").whereRef("v.poster_image_id", "=", "i.id")).as("poster"),
    ])
    .where("i.id", "=", imageId)
    .executeTakeFirst();
  if (!owner || toBoolean(owner.gallery) || toBoolean(owner.poster)) return null;
  const posts = await db.selectFrom("posts as p").select("p.visibility").where(showing(imageId)).execute();
  if (posts.length === 0) return null;
  return posts.some((post) => post.visibility === "everyone") ? "public" : "restricted";
}

/**
 * Moves each of `imageIds` to where its posts say (wantedPlace): the files are copied to their new names, the row
 * is pointed at them in a transaction that first checks the image and its place are still as read (else it tries
 * again), and the old names are removed, so their addresses stop answering (a CDN may still hold a copy).
 */
export async function placePostImages(
  db: Kysely<Database>,
  storage: FileStorage,
  imageIds: Iterable<string>,
): Promise<number> {
  let moved = 0;
  for (const imageId of new Set(imageIds)) {
    if (!IMAGE_ID.test(imageId)) continue;
    for (let attempt = 0; attempt < 3; attempt++) {
      const outcome = await placeOnce(db, storage, imageId);
      if (outcome === "moved") moved++;
      if (outcome !== "again") break;
    }
  }
  return moved;
}

/** One try at placing one picture: moved, already where it belongs (or not the posts' to place), or try again. */
async function placeOnce(
  db: Kysely<Database>,
  storage: FileStorage,
  imageId: string,
): Promise<"moved" | "placed" | "again"> {
  const row = await db
    .selectFrom("images")
    .select(["variants", "private_folder", "ready"])
    .where("id", "=", imageId)
    .executeTakeFirst();
  const wanted = await wantedPlace(db, imageId);
  if (!row || wanted === null || (wanted === "restricted") === (row.private_folder !== null)) return "placed";
  // Sizes still being made are placed by the pipeline where the row says; the next save or the hourly job moves them.
  if (!toBoolean(row.ready)) return "placed";
  const folder = wanted === "restricted" ? newMemberFolder() : null;
  const placed = await copyVariants(storage, parseVariants(row.variants), imageId, folder);
  let moved: boolean;
  try {
    moved = await db.transaction().execute(async (trx) => {
      // The image still as read, and held for the rest of the transaction (as setPictureAccess does), and its posts
      // still wanting it there: a save of one of them since places it again after its own commit.
      if (!(await holdImageAsRead(trx, imageId, row)) || (await wantedPlace(trx, imageId)) !== wanted) return false;
      await trx
        .updateTable("images")
        .set({ variants: JSON.stringify(placed.variants), private_folder: folder })
        .where("id", "=", imageId)
        .execute();
      return true;
    });
  } catch (error) {
    await storage.remove(placed.copied).catch(() => {});
    throw error;
  }
  try {
    await storage.remove(moved ? placed.old : placed.copied);
  } catch (error) {
    // The row says where the files are; what is left at the old names goes with the storage sweep.
    getLogger().warn({ err: error, imageId }, "Could not remove a post picture's files from their old names");
  }
  return moved ? "moved" : "again";
}

/** Every post's pictures placed as their posts say (the hourly job): what a save cut short or an upgrade left. */
export async function placeAllPostImages(db: Kysely<Database>, storage: FileStorage): Promise<number> {
  const posts = await db.selectFrom("posts").select(["cover_image_id", "body", "body_de"]).execute();
  return placePostImages(db, storage, posts.flatMap(imageIdsOfPost));
}

/**
 * Which posts show each picture (image id → post ids), by `imageIdsOfPost`, read once per change of the posts
 * (and of their pictures: `images` moves the posts area) and kept: a member's request for a restricted post's
 * picture then asks two indexed questions instead of searching every post's text for the picture's id.
 */
function postsShowingImages(db: Kysely<Database>): Promise<ReadonlyMap<string, readonly string[]>> {
  return cachedUntilChanged(
    db,
    "posts-showing-images",
    async () => {
      const posts = await db.selectFrom("posts").select(["id", "cover_image_id", "body", "body_de"]).execute();
      const showing = new Map<string, string[]>();
      for (const post of posts) {
        for (const imageId of imageIdsOfPost(post)) {
          const ids = showing.get(imageId);
          if (ids) ids.push(post.id);
          else showing.set(imageId, [post.id]);
        }
      }
      return showing;
    },
    ["posts"],
  );
}

/** The posts that show the picture in member folder `folder` (a folder holds one picture), as a query to narrow. */
async function postsShowingFolder(db: Kysely<Database>, folder: string) {
  const image = await db.selectFrom("images").select("id").where("private_folder", "=", folder).executeTakeFirst();
  const postIds = image ? ((await postsShowingImages(db)).get(image.id) ?? []) : [];
  if (postIds.length === 0) return null;
  return db
    .selectFrom("posts as p")
    .select("p.id")
    .where("p.id", "in", [...postIds])
    .limit(1);
}

/** Whether `reader` (not an admin: gallery-access answers for them) may read a post that shows folder `folder`. */
export async function mayReadPostFolder(
  db: Kysely<Database>,
  reader: Reader,
  folder: string,
  now = new Date(),
): Promise<boolean> {
  if (!MEMBER_FOLDER.test(folder)) return false;
  const posts = await postsShowingFolder(db, folder);
  return posts !== null && (await posts.where(visibleTo(reader, now)).executeTakeFirst()) !== undefined;
}

/** Whether one of the open post links `shareIds` names a published post that shows folder `folder`. */
export async function maySharedPostLinksReadFolder(
  db: Kysely<Database>,
  shareIds: readonly string[],
  folder: string,
  now = new Date(),
): Promise<boolean> {
  if (shareIds.length === 0 || !MEMBER_FOLDER.test(folder)) return false;
  const posts = await postsShowingFolder(db, folder);
  if (posts === null) return false;
  const found = await posts
    .innerJoin("share_links as s", "s.item_id", "p.id")
    .where("s.id", "in", [...shareIds])
    .where("s.kind", "=", "post")
    .where("s.revoked_at", "is", null)
    .where((eb) => eb.or([eb("s.expires_at", "is", null), eb("s.expires_at", ">", now)]))
    .where(publishedBy(now))
    .executeTakeFirst();
  return found !== undefined;
}
