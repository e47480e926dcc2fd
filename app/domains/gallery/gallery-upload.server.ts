import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { nextSortOrder } from "#app/db/ordering.server.ts";
import type { Database } from "#app/db/schema.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { recordImageFinishing, runImageFinishing } from "#app/domains/media/image-finishing.server.ts";
import { prepareImage } from "#app/domains/media/image-pipeline.server.ts";
import { insertImageRow } from "#app/domains/media/image-rows.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import type { ImageType } from "#app/domains/media/upload.server.ts";
import { indexItems } from "#app/domains/search-index/search-index.server.ts";
import { removeControlCharacters } from "#app/lib/text-schema.ts";
import { titleFromFileName } from "./gallery.ts";

/* A new picture in the gallery: the upload's step after receiving the file, before the image pipeline. */

/** Where a new picture goes: first or last in the gallery's order. */
export type GalleryPlacement = "top" | "bottom";

/**
 * The sort order of a new picture. At the top: before the first one, or right after `after` (the picture uploaded
 * just before it in the same batch, when it is still there), so that a batch keeps its order at the top.
 */
async function placeNewPicture(
  trx: Transaction<Database>,
  placement: GalleryPlacement,
  after: string | undefined,
): Promise<number> {
  if (placement === "bottom") return nextSortOrder(trx, "gallery_images");
  const previous = after
    ? await trx.selectFrom("gallery_images").select("sort_order").where("id", "=", after).executeTakeFirst()
    : undefined;
  if (previous) {
    const position = Number(previous.sort_order) + 1;
    await trx
      .updateTable("gallery_images")
      .set((eb) => ({ sort_order: eb("sort_order", "+", 1) }))
      .where("sort_order", ">=", position)
      .execute();
    return position;
  }
  const first = await trx
    .selectFrom("gallery_images")
    .select((eb) => eb.fn.min<number | null>("sort_order").as("first"))
    .executeTakeFirst();
  return first?.first === null || first?.first === undefined ? 0 : Number(first.first) - 1;
}

/**
 * Stores an uploaded image and adds it to the gallery, titled after its file name (English and German), hidden
 * unless `published`, at the end unless `placement` is "top"; records the upload.
 * Returns once the original is stored, the first size exists and the rows are written; the other sizes are
 * made right after in the background (one image at a time), and visitors see the picture once they exist.
 * If the gallery row cannot be added, the image's files are removed again.
 */
export async function createGalleryEntry(
  db: Kysely<Database>,
  actor: AuditActor,
  tempFilePath: string,
  options: {
    originalName: string;
    watermark: string;
    storage: FileStorage;
    /** What the upload was recognised as when it was received (else the pipeline reads the file's first bytes). */
    type?: ImageType;
    /** Visible to visitors at once (default: hidden until the owner publishes it). */
    published?: boolean;
    placement?: GalleryPlacement;
    /** With placement "top": the picture to follow (the one uploaded before it in the same batch). */
    after?: string;
  },
): Promise<string> {
  // Files first (outside any transaction), then the image's and the picture's rows together: a crash in
  // between leaves only files, which the start-up sweep removes, never an image row without its picture.
  const prepared = await prepareImage(tempFilePath, {
    watermark: options.watermark,
    storage: options.storage,
    remainingSizes: "later",
    type: options.type,
  });
  const id = randomUUID();
  let finishing: string | null;
  try {
    finishing = await db.transaction().execute(async (trx) => {
      const now = new Date();
      const imageId = await insertImageRow(trx, prepared);
      const title = titleFromFileName(removeControlCharacters(options.originalName));
      await trx
        .insertInto("gallery_images")
        .values({
          id,
          image_id: imageId,
          title,
          // Empty, as every German text the owner has not written: the English title shows until then.
          title_de: "",
          description: "",
          description_de: "",
          category: "",
          category_de: "",
          alt: "",
          alt_de: "",
          sort_order: await placeNewPicture(trx, options.placement ?? "bottom", options.after),
          published: options.published ?? false,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await indexItems(trx, "picture", [id]);
      await recordAudit(trx, actor, { action: "gallery.create", target: id, newValue: options.originalName });
      // The remaining sizes are a job written with the picture, held by this process: made here at once, and by
      // another process should this one stop first.
      return prepared.ready ? null : await recordImageFinishing(trx, prepared.id);
    });
  } catch (error) {
    await prepared.discard();
    throw error;
  }
  // With the watermark the settings ask for when it runs, not `options.watermark`, which may be stale by then.
  if (finishing) runImageFinishing(db, prepared.id, finishing, { storage: options.storage });
  return id;
}
