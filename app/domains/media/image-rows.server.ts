import type { Insertable, Kysely, Transaction } from "kysely";
import type { Database, ImagesTable } from "#app/db/schema.ts";
import type { ImageVariant } from "./image-encode.server.ts";
import type { FileStorage } from "./storage.server.ts";

/* The `images` rows: written after their files, deleted before them (files are removed once the row is gone). */

export type Db = Kysely<Database> | Transaction<Database>;

/** Writes the row of a prepared image (inside the caller's transaction, if it has one). */
export async function insertImageRow(db: Db, prepared: { id: string; row: Insertable<ImagesTable> }): Promise<string> {
  await db.insertInto("images").values(prepared.row).execute();
  return prepared.id;
}

export function parseVariants(json: string): ImageVariant[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as ImageVariant[]) : [];
  } catch {
    return [];
  }
}

export function keysOf(row: Pick<ImagesTable, "original_key" | "variants">): string[] {
  return [row.original_key, ...parseVariants(row.variants).map((variant) => variant.key)];
}

/**
 * Deletes the row and returns the keys of its files, for `removeImageFiles` once the transaction has
 * committed (row first, then files: a crash in between leaves only unreferenced files, which the sweep removes).
 * Whatever references the image (a gallery entry) must be deleted first, in the same transaction.
 */
export async function deleteImageRow(db: Db, id: string): Promise<string[] | null> {
  // The keys as of the delete itself, not a read before it: sizes that finishImage records meanwhile are
  // removed too (PostgreSQL re-reads the row the delete waited for).
  const row = await db
    .deleteFrom("images")
    .where("id", "=", id)
    .returning(["original_key", "variants"])
    .executeTakeFirst();
  return row ? keysOf(row) : null;
}

export async function removeImageFiles(keys: string[] | null, storage: FileStorage): Promise<void> {
  if (keys && keys.length > 0) await storage.remove(keys);
}

/** Deletes the image's row, then its files. Returns false when there was no such image. */
export async function deleteImage(db: Kysely<Database>, id: string, storage: FileStorage): Promise<boolean> {
  const keys = await deleteImageRow(db, id);
  await removeImageFiles(keys, storage);
  return keys !== null;
}
