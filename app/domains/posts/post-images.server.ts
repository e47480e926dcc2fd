import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { AuditActor } from "#app/domains/audit/audit.server.ts";
import { recordAudit } from "#app/domains/audit/audit.server.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";
import { prepareImage } from "#app/domains/media/image-pipeline.server.ts";
import { insertImageRow } from "#app/domains/media/image-rows.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import type { ImageType } from "#app/domains/media/upload.server.ts";

/** The audit kind of a picture uploaded for a post (cover or inline); the file's name is the target. */
export const POST_IMAGE_AUDIT_ACTION = "posts.image-upload";

/** What the editor needs of an uploaded picture: its id (for `image:<id>` and the cover) and how to show it. */
export type StoredPostImage = { id: string; image: ImageDisplay };

/**
 * Stores one picture for a post through the site's pipeline (recognised by content, every size made before the
 * answer, metadata stripped, the gallery's watermark when the settings ask for it) and records the upload in the
 * audit log in the same transaction as the image's row. Every size is made now, not in the background as for the
 * gallery: the editor shows the picture in its preview at once, and a post is published only with pictures that
 * are ready. Refuses what is not an image (ImageError) and then keeps nothing.
 */
export async function storePostImage(
  db: Kysely<Database>,
  actor: AuditActor,
  tempFilePath: string,
  options: { originalName: string; watermark: string; storage: FileStorage; type?: ImageType },
): Promise<StoredPostImage> {
  const prepared = await prepareImage(tempFilePath, options);
  try {
    await db.transaction().execute(async (trx) => {
      await insertImageRow(trx, prepared);
      await recordAudit(trx, actor, { action: POST_IMAGE_AUDIT_ACTION, target: options.originalName });
    });
  } catch (error) {
    await prepared.discard();
    throw error;
  }
  const row = prepared.row;
  return {
    id: prepared.id,
    image: imageForDisplay({
      variants: row.variants,
      width: row.width,
      height: row.height,
      placeholder: row.placeholder ?? "",
    }),
  };
}
