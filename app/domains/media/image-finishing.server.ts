import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { finishImage } from "./image-pipeline.server.ts";
import { runInImageQueue } from "./image-queue.server.ts";
import { watermarkText } from "./image-watermarks.server.ts";
import type { FileStorage } from "./storage.server.ts";

export { whenImageQueueIdle } from "./image-queue.server.ts";

type FinishOptions = {
  storage: FileStorage;
  /** The watermark to draw, asked when the work starts; by default the one the site's settings ask for then. */
  watermark?: () => Promise<string>;
};

const currentWatermark = (db: Kysely<Database>) => async () => watermarkText(await readSettings(db));

/**
 * Queues the remaining sizes of an image prepared with `remainingSizes: "later"` (see `finishImage`) and
 * returns at once. A failure is logged; the image stays not ready (invisible to visitors) and is tried again
 * at the next start (`finishPendingImages`).
 */
export function finishImageInBackground(db: Kysely<Database>, imageId: string, options: FinishOptions): void {
  const watermark = options.watermark ?? currentWatermark(db);
  void runInImageQueue(async () =>
    finishImage(db, imageId, { storage: options.storage, watermark: await watermark() }),
  ).catch((error: unknown) =>
    getLogger().error({ err: error, imageId }, "Could not make the remaining sizes of an image"),
  );
}

/**
 * At start-up: queues every image whose sizes were not all made before the server stopped, to be made
 * again from its private original. Returns how many were queued.
 */
export async function finishPendingImages(db: Kysely<Database>, options: FinishOptions): Promise<number> {
  try {
    const rows = await db.selectFrom("images").select("id").where("ready", "=", false).orderBy("created_at").execute();
    for (const row of rows) finishImageInBackground(db, row.id, options);
    if (rows.length > 0) getLogger().info(`Finishing ${rows.length} images whose sizes were not all made.`);
    return rows.length;
  } catch (error) {
    getLogger().error({ err: error }, "Could not look for images whose sizes were not all made");
    return 0;
  }
}
