import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { IMAGE_PREFIX } from "./image-encode.server.ts";
import type { FileStorage } from "./storage.server.ts";

/*
 * Where a restricted picture's files live (issue 21): `private/members/<folder>/<width>-<hash>.<ext>`, the folder
 * a random name of its own, so that no public name leads to it, answered only at `/media/members/…` to a reader
 * who may see the picture (app/web/member-media.server.ts). A picture made restricted moves its files there; made
 * public again, back to `public/images/<imageId>/` (docs/decisions/016-who-may-see-what.md). A restricted video's
 * file (`<uuid>.mp4|webm`) and its poster's sizes share a folder the same way (videos/video-access.server.ts).
 */

export const MEMBER_PREFIX = "private/members/";
/**
 * A member folder's name: 24 random bytes in hex. Not base64url: a storage key's segment may not begin with "-"
 * (assertValidKey), which one folder in 64 of base64url would.
 */
export const MEMBER_FOLDER = /^[0-9a-f]{48}$/;

export function newMemberFolder(): string {
  return randomBytes(24).toString("hex");
}

/**
 * A file's key moved to where its item's files are now: the member folder, or (`null`) the public folder
 * `publicDir` (a picture's `public/images/<imageId>/`, a video's `public/videos/`). The file's own name is kept.
 */
export function placedFileKey(key: string, publicDir: string, folder: string | null): string {
  const file = key.slice(key.lastIndexOf("/") + 1);
  return folder === null ? `${publicDir}${file}` : `${MEMBER_PREFIX}${folder}/${file}`;
}

/** A variant's key moved to where its image's files are now: the member folder, or the public one (`null`). */
export function placedKey(key: string, imageId: string, folder: string | null): string {
  return placedFileKey(key, `${IMAGE_PREFIX}${imageId}/`, folder);
}

/** Rendered files and variants, placed for an image whose files are in `folder` (null: public names, as made). */
export function placeRendered<T extends { files: { key: string }[]; variants: { key: string }[] }>(
  rendered: T,
  imageId: string,
  folder: string | null,
): T {
  if (folder === null) return rendered;
  return {
    ...rendered,
    files: rendered.files.map((file) => ({ ...file, key: placedKey(file.key, imageId, folder) })),
    variants: rendered.variants.map((variant) => ({ ...variant, key: placedKey(variant.key, imageId, folder) })),
  };
}

/**
 * Copies files to the keys `place` gives them; the caller records the new keys, then removes the old files
 * (`old`), or on failure the new ones (`copied`). Copies, not moves: until the row says where the files are, the
 * old names keep answering for the pages already sent. A file whose key stays is neither copied nor removed.
 */
export async function copyFilesTo(
  storage: FileStorage,
  keys: readonly string[],
  place: (key: string) => string,
): Promise<{ keys: string[]; old: string[]; copied: string[] }> {
  const copied: string[] = [];
  const placed: string[] = [];
  try {
    for (const key of keys) {
      const target = place(key);
      if (target !== key) {
        await storage.copy(key, target, { overwrite: true });
        copied.push(target);
      }
      placed.push(target);
    }
  } catch (error) {
    await storage.remove(copied).catch(() => {});
    throw error;
  }
  return { keys: placed, old: keys.filter((key, index) => placed[index] !== key), copied };
}

/** An image's variants copied to their place for `folder` (copyFilesTo), answered with their new keys. */
export async function copyVariants<V extends { key: string }>(
  storage: FileStorage,
  variants: V[],
  imageId: string,
  folder: string | null,
): Promise<{ variants: V[]; old: string[]; copied: string[] }> {
  const placed = await copyFilesTo(
    storage,
    variants.map((variant) => variant.key),
    (key) => placedKey(key, imageId, folder),
  );
  const moved = variants.map((variant, index) => ({ ...variant, key: placed.keys[index] ?? variant.key }));
  return { variants: moved, old: placed.old, copied: placed.copied };
}

/**
 * Holds image `imageId`'s row for the rest of transaction `trx` (a row lock on PostgreSQL, the write lock on SQLite)
 * if its files are still as `read` says (its variants, and its folder unless left out): false when a change since
 * (a second tab, a bulk action, a watermark redraw, another save) moved or redrew them, and the caller tries again.
 * Without the hold, a change that moves no files could commit after one that moved them, and leave a restricted
 * item's files at public names.
 */
export async function holdImageAsRead(
  trx: Transaction<Database>,
  imageId: string,
  read: { variants: string; private_folder?: string | null },
): Promise<boolean> {
  let hold = trx
    .updateTable("images")
    .set((eb) => ({ private_folder: eb.ref("private_folder") }))
    .where("id", "=", imageId)
    .where("variants", "=", read.variants);
  if (read.private_folder !== undefined) {
    hold = hold.where("private_folder", read.private_folder === null ? "is" : "=", read.private_folder);
  }
  return Number((await hold.executeTakeFirst()).numUpdatedRows) > 0;
}
