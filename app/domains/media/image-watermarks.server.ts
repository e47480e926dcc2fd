import { type Kysely, sql } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { enqueueJob } from "#app/domains/jobs/job-queue.server.ts";
import { signalJobsQueued } from "#app/domains/jobs/job-signal.server.ts";
import { brandDefault } from "#app/domains/settings/brand.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { readAll, renderVariants, writeFiles } from "./image-encode.server.ts";
import { runInImageQueue } from "./image-queue.server.ts";
import { parseVariants } from "./image-rows.server.ts";
import { placeRendered } from "./member-files.server.ts";
import type { FileStorage } from "./storage.server.ts";

/** Which settings decide the watermark: an empty text draws "© " and the site name (brand.ts). */
export type WatermarkSettings = Pick<SiteSettings, "watermark_enabled" | "watermark_text"> &
  Partial<Pick<SiteSettings, "site_name">>;

/** The text the settings ask to be drawn, or '' when the watermark is off. */
export function watermarkText(settings: WatermarkSettings): string {
  if (settings.watermark_enabled !== "true") return "";
  return settings.watermark_text.trim() || brandDefault("watermark_text", settings.site_name ?? "");
}

/** The job that redraws the watermarks after a change: one waits at a time, and none runs beside another. */
export const WATERMARK_REDRAW_JOB = "watermark.redraw";

/**
 * Queues a redraw (after a save of the watermark settings, or at start-up): whichever process's worker takes it
 * redraws each image once, with the settings as they are when it runs. A redraw already waiting serves this change
 * too; one running while this is asked is followed by another.
 */
export async function queueWatermarkRedraw(db: Kysely<Database>): Promise<void> {
  await recordWatermarkRedraw(db);
  signalJobsQueued();
}

/** `queueWatermarkRedraw` in the caller's transaction (the settings' save); the caller signals after its commit. */
export async function recordWatermarkRedraw(db: Kysely<Database>): Promise<void> {
  await enqueueJob(db, { kind: WATERMARK_REDRAW_JOB, lane: "media", dedupeKey: WATERMARK_REDRAW_JOB });
}

/**
 * Redraws the variants of every gallery image whose recorded watermark differs from what the settings ask
 * for, from its private original. Call it after the watermark settings change (it may take a while: run it
 * without awaiting when answering a request). Refreshes run one after another in the order they were asked
 * for, so quick successive changes end with the last one's watermark. They share the image queue with the
 * finishing of uploads and skip images that are not ready yet: finishing one draws the watermark the
 * settings ask for when it runs. Returns how many images were redrawn and how many failed.
 */
export function refreshWatermarks(
  db: Kysely<Database>,
  settings: WatermarkSettings,
  options: { storage: FileStorage },
): Promise<{ updated: number; failed: number }> {
  return runInImageQueue(() => redrawWatermarks(db, settings, options));
}

async function redrawWatermarks(
  db: Kysely<Database>,
  settings: WatermarkSettings,
  options: { storage: FileStorage },
): Promise<{ updated: number; failed: number }> {
  const storage = options.storage;
  const wanted = watermarkText(settings);
  const rows = await db
    .selectFrom("images")
    .select(["id", "original_key", "variants", "watermark", "private_folder"])
    .where("watermark", "!=", wanted)
    .where("ready", "=", true)
    // Gallery pictures and blog posts' pictures (covers, and pictures in a post's text as `image:<id>`) carry the
    // watermark; video posters keep theirs clean.
    .where((eb) =>
      eb.or([
        eb("id", "in", eb.selectFrom("gallery_images").select("image_id")),
        eb("id", "in", eb.selectFrom("posts").select("cover_image_id").where("cover_image_id", "is not", null)),
        eb.exists(
          eb
            .selectFrom("posts")
            .select("posts.id")
            .where((inner) =>
              inner.or([
                inner("posts.body", "like", sql<string>`'%(image:' || images.id || ')%'`),
                inner("posts.body_de", "like", sql<string>`'%(image:' || images.id || ')%'`),
              ]),
            ),
        ),
      ]),
    )
    .execute();
  let updated = 0;
  let failed = 0;
  for (const row of rows) {
    let written: string[] = [];
    try {
      // A restricted picture's new sizes go where its files are (member-files.server.ts).
      const rendered = placeRendered(
        await renderVariants(row.id, await readAll(storage, row.original_key), wanted),
        row.id,
        row.private_folder,
      );
      written = await writeFiles(storage, rendered.files);
      // Only if nobody changed the row meanwhile (a second refresh, or a delete).
      const result = await db
        .updateTable("images")
        .set({ variants: JSON.stringify(rendered.variants), watermark: wanted })
        .where("id", "=", row.id)
        .where("watermark", "=", row.watermark)
        // Nor moved its files (made restricted or public meanwhile).
        .where("private_folder", row.private_folder === null ? "is" : "=", row.private_folder)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) {
        await storage.remove(written);
        continue;
      }
      const kept = new Set(rendered.variants.map((variant) => variant.key));
      const stale = parseVariants(row.variants)
        .map((variant) => variant.key)
        .filter((key) => !kept.has(key));
      await storage.remove(stale);
      updated++;
    } catch (error) {
      await storage.remove(written).catch(() => {});
      getLogger().error({ err: error, imageId: row.id }, "Could not redraw the watermark of an image");
      failed++;
    }
  }
  return { updated, failed };
}
