import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { enqueueJob } from "#app/domains/jobs/job-queue.server.ts";
import { createJobWorker } from "#app/domains/jobs/job-worker.server.ts";
import { testPhoto } from "#tests/support/gallery-factories.ts";
import { holdImageQueue } from "#tests/support/image-queue.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import type { ImageVariant } from "./image-encode.server.ts";
import {
  finishImageInBackground,
  finishPendingImages,
  IMAGE_FINISH_JOB,
  imageFinishHandler,
  whenImageQueueIdle,
} from "./image-finishing.server.ts";
import { prepareImage } from "./image-pipeline.server.ts";
import { insertImageRow, parseVariants } from "./image-rows.server.ts";
import { sweepOrphanFiles } from "./image-sweeps.server.ts";
import { refreshWatermarks } from "./image-watermarks.server.ts";
import { createLocalStorage, type FileStorage } from "./storage.server.ts";

describe.each(databaseKinds)("finishing an image's sizes in the background (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  let dir: string;
  let storage: FileStorage;
  let photo: Buffer;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-finishing-"));
    storage = createLocalStorage({ root: path.join(dir, "storage"), secret: "s" });
    photo ??= await testPhoto({ width: 1600, height: 1000 });
  });
  afterEach(async () => {
    await whenImageQueueIdle();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const rowOf = (id: string) =>
    database.db.selectFrom("images").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const widthsOf = (variants: ImageVariant[]) => [...new Set(variants.map((variant) => variant.width))];

  /** What a crash right after the upload was answered leaves: the original, the first size, a row not ready. */
  async function interruptedUpload(options: { inGallery?: boolean } = {}): Promise<string> {
    const file = path.join(dir, "upload.jpg");
    fs.writeFileSync(file, photo);
    const prepared = await prepareImage(file, { storage, remainingSizes: "later" });
    const id = await insertImageRow(database.db, prepared);
    if (options.inGallery) {
      await database.db
        .insertInto("gallery_images")
        .values({
          id: `picture-${id}`,
          image_id: id,
          title: "",
          title_de: "",
          description: "",
          description_de: "",
          category: "",
          category_de: "",
          sort_order: 1,
          published: true,
          created_at: new Date(),
          updated_at: new Date(),
        })
        .execute();
    }
    return id;
  }

  async function runWorkerUntilReady(id: string) {
    const worker = createJobWorker({
      db: database.db,
      kind,
      handlers: { [IMAGE_FINISH_JOB]: imageFinishHandler(database.db, storage) },
      logger: { info() {}, warn() {}, error() {} },
      pollMs: 50,
    });
    await worker.start();
    try {
      await expect.poll(async () => Boolean((await rowOf(id)).ready), { timeout: 20_000 }).toBe(true);
    } finally {
      await worker.stop();
    }
  }

  it("takes over the sizes of an upload whose process died, once its lease has run out", async () => {
    const id = await interruptedUpload({ inGallery: true });
    // What the dead process left: the job it held, its lease over.
    const jobId = await enqueueJob(database.db, {
      kind: IMAGE_FINISH_JOB,
      lane: "media",
      payload: { imageId: id },
      dedupeKey: `${IMAGE_FINISH_JOB}:${id}`,
    });
    await database.db
      .updateTable("jobs")
      .set({ state: "running", locked_by: "dead:1", locked_until: new Date(Date.now() - 1), attempts: 1 })
      .where("id", "=", jobId as string)
      .execute();
    // Under way (by the books): the start-up look queues nothing more.
    expect(await finishPendingImages(database.db)).toBe(0);
    await runWorkerUntilReady(id);
    const job = await database.db
      .selectFrom("jobs")
      .selectAll()
      .where("id", "=", jobId as string)
      .executeTakeFirstOrThrow();
    expect({ state: job.state, attempts: job.attempts }).toEqual({ state: "done", attempts: 2 });
    expect(widthsOf(parseVariants((await rowOf(id)).variants))).toEqual([320, 640, 960, 1280, 1600]);
  });

  it("finishes at start-up what a restart interrupted, from the private original", async () => {
    const id = await interruptedUpload();
    const before = await rowOf(id);
    expect(Boolean(before.ready)).toBe(false);
    expect(widthsOf(parseVariants(before.variants))).toEqual([320]);
    // An earlier, interrupted run had written a file of a size too; an hour later the start-up sweep
    // must not take it (nor anything else of the image) while the image is being finished.
    const partial = `public/images/${id}/1280-0123456789abcdef.webp`;
    await storage.save(partial, Buffer.from("left by an interrupted run"));
    const later = { olderThanMs: 60 * 60 * 1000, storage, now: Date.now() + 2 * 60 * 60 * 1000 };
    expect((await sweepOrphanFiles(database.db, later)).removed).toEqual([]);

    // Queued as a job, made by whichever process's worker takes it (here: one).
    expect(await finishPendingImages(database.db)).toBe(1);
    expect(await finishPendingImages(database.db)).toBe(0);
    await runWorkerUntilReady(id);
    const after = await rowOf(id);
    expect(Boolean(after.ready)).toBe(true);
    const variants = parseVariants(after.variants);
    expect(widthsOf(variants)).toEqual([320, 640, 960, 1280, 1600]);
    expect(variants.map((variant) => variant.format)).toEqual(
      Array.from({ length: 5 }, () => ["avif", "webp", "jpeg"]).flat(),
    );
    // The first size was kept as it was.
    expect(variants.slice(0, 3)).toEqual(parseVariants(before.variants));
    for (const variant of variants) {
      const stored = await sharp(path.join(dir, "storage", variant.key)).metadata();
      expect([stored.width, stored.height], variant.key).toEqual([variant.width, variant.height]);
    }
    // Nothing is left to do at the next start; the interrupted run's file is an orphan now, swept as such.
    expect(await finishPendingImages(database.db)).toBe(0);
    expect((await sweepOrphanFiles(database.db, later)).removed).toEqual([partial]);
  });

  /**
   * The row once the background work has finished the image. The work joins the image queue only after its job is
   * recorded (a database write): the queue may still be idle when the test looks, so the queue's idleness alone is
   * no sign (CI's loaded PostgreSQL once showed the row unfinished).
   */
  async function finishedRowOf(id: string) {
    await expect.poll(async () => Boolean((await rowOf(id)).ready), { timeout: 15_000 }).toBe(true);
    await whenImageQueueIdle();
    return rowOf(id);
  }

  it("draws the watermark the settings ask for when the work runs, and the refresh leaves pending images alone", async () => {
    let settingsWatermark = "At upload";
    const watermark = async () => settingsWatermark;
    // Held back behind other work, as when several pictures are uploaded at once.
    const { release, done: gate } = holdImageQueue();
    const id = await interruptedUpload({ inGallery: true });
    finishImageInBackground(database.db, id, { storage, watermark });
    // The watermark changes before the work runs; the refresh after that change skips the pending image.
    settingsWatermark = "Changed";
    const refresh = refreshWatermarks(
      database.db,
      { watermark_enabled: "true", watermark_text: "Changed" },
      { storage },
    );
    release();
    await gate;
    expect(await refresh).toEqual({ updated: 0, failed: 0 });
    const row = await finishedRowOf(id);
    expect(row).toMatchObject({ watermark: "Changed" });
    expect(Boolean(row.ready)).toBe(true);

    // A refresh queued before the pending work does not touch it either; the work then draws the new text.
    const second = await interruptedUpload({ inGallery: true });
    const { release: open, done: held } = holdImageQueue();
    const skipping = refreshWatermarks(
      database.db,
      { watermark_enabled: "true", watermark_text: "Third" },
      { storage },
    );
    settingsWatermark = "Third";
    finishImageInBackground(database.db, second, { storage, watermark });
    open();
    await held;
    // The first image is redrawn; the second, still pending when the refresh ran, is finished afterwards.
    expect(await skipping).toEqual({ updated: 1, failed: 0 });
    expect(await finishedRowOf(second)).toMatchObject({ watermark: "Third" });
  });
});
