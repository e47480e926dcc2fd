import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { insertClaimedJob, runClaimedJob } from "#app/domains/jobs/job-local-run.server.ts";
import { enqueueJob } from "#app/domains/jobs/job-queue.server.ts";
import { signalJobsQueued } from "#app/domains/jobs/job-signal.server.ts";
import type { JobHandler } from "#app/domains/jobs/job-worker.server.ts";
import { readStoredSettings } from "#app/domains/settings/settings.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { finishImage } from "./image-pipeline.server.ts";
import { runInImageQueue } from "./image-queue.server.ts";
import { queueWatermarkRedraw, refreshWatermarks, watermarkText } from "./image-watermarks.server.ts";
import type { FileStorage } from "./storage.server.ts";

export { whenImageQueueIdle } from "./image-queue.server.ts";

/** The job that makes an image's remaining sizes (issue 20): one per image, run by whichever process holds it. */
export const IMAGE_FINISH_JOB = "image.finish";

const jobOf = (imageId: string) => ({
  kind: IMAGE_FINISH_JOB,
  lane: "media" as const,
  payload: { imageId },
  dedupeKey: `${IMAGE_FINISH_JOB}:${imageId}`,
});

type FinishOptions = {
  storage: FileStorage;
  /** The watermark to draw, asked when the work starts; by default the one the site's settings ask for then. */
  watermark?: () => Promise<string>;
};

// Read past the kept settings: the job may run on another instance than the save that queued it, before that
// instance has heard of the change.
const currentWatermark = (db: Kysely<Database>) => async () => watermarkText(await readStoredSettings(db));

/**
 * Makes the sizes with the watermark asked for when the work starts. Should the settings ask for another one by the
 * time it is done (a change while this ran, which the redraw skipped because the image was not ready), a redraw is
 * queued: on several processes the finishing and the redraw may run at once.
 */
async function finishWithWatermark(db: Kysely<Database>, imageId: string, options: FinishOptions): Promise<void> {
  const watermark = options.watermark ?? currentWatermark(db);
  const drawn = await watermark();
  const outcome = await finishImage(db, imageId, { storage: options.storage, watermark: drawn });
  if (outcome === "finished" && !options.watermark && (await currentWatermark(db)()) !== drawn) {
    await queueWatermarkRedraw(db);
  }
}

/**
 * Records, in the caller's transaction (the upload's), that an image's remaining sizes are to be made, as a job
 * this process already holds: `runImageFinishing` starts it once the transaction has committed. Answers its id.
 */
export function recordImageFinishing(db: Kysely<Database>, imageId: string): Promise<string> {
  return insertClaimedJob(db, jobOf(imageId));
}

/**
 * Makes the remaining sizes of an image prepared with `remainingSizes: "later"` in this process's image queue and
 * returns at once. A failure is logged and the job goes back to the queue (any process retries it); should this
 * process die first, another takes the job over when its lease ends. The image stays not ready (invisible to
 * visitors) until then.
 */
export function runImageFinishing(db: Kysely<Database>, imageId: string, jobId: string, options: FinishOptions): void {
  void runClaimedJob(
    db,
    jobId,
    () => finishWithWatermark(db, imageId, options),
    (error) => getLogger().error({ err: error, imageId }, "Could not make the remaining sizes of an image"),
    runInImageQueue,
  );
}

/** `recordImageFinishing` and `runImageFinishing` outside a transaction of the caller's. */
export function finishImageInBackground(db: Kysely<Database>, imageId: string, options: FinishOptions): void {
  void recordImageFinishing(db, imageId)
    .then((jobId) => runImageFinishing(db, imageId, jobId, options))
    .catch((error: unknown) =>
      getLogger().error({ err: error, imageId }, "Could not record the remaining sizes of an image"),
    );
}

/** The worker's side: a job another process started and did not finish, or a retry. */
export function imageFinishHandler(db: Kysely<Database>, storage: FileStorage): JobHandler {
  return {
    lane: "media",
    run: async (payload) => {
      const { imageId } = payload as { imageId: string };
      await runInImageQueue(() => finishWithWatermark(db, imageId, { storage }));
    },
  };
}

/**
 * At start-up: queues a job for every image whose sizes are not all made and that no job is (or will be) making:
 * those of an upload from before jobs existed. Returns how many were queued.
 */
export async function finishPendingImages(db: Kysely<Database>): Promise<number> {
  try {
    const [pending, active] = await Promise.all([
      db.selectFrom("images").select("id").where("ready", "=", false).orderBy("created_at").execute(),
      db
        .selectFrom("jobs")
        .select("dedupe_key")
        .where("kind", "=", IMAGE_FINISH_JOB)
        .where("state", "in", ["queued", "running"])
        .execute(),
    ]);
    const underWay = new Set(active.map((job) => job.dedupe_key));
    let queued = 0;
    for (const { id } of pending) {
      if (underWay.has(jobOf(id).dedupeKey)) continue;
      if (await enqueueJob(db, jobOf(id))) queued++;
    }
    if (queued > 0) {
      getLogger().info(`Finishing ${queued} images whose sizes were not all made.`);
      signalJobsQueued();
    }
    return queued;
  } catch (error) {
    getLogger().error({ err: error }, "Could not look for images whose sizes were not all made");
    return 0;
  }
}

/**
 * The watermark redraw's job: reads the settings when it runs (so a queued redraw serves every change made while
 * it waited) and redraws the images whose drawn text differs. Some images failing fails the try: the retry redraws
 * only those.
 */
export function watermarkRedrawHandler(db: Kysely<Database>, storage: FileStorage): JobHandler {
  return {
    lane: "media",
    run: async () => {
      const { failed } = await refreshWatermarks(db, await readStoredSettings(db), { storage });
      if (failed > 0) throw new Error(`${failed} images could not be redrawn with the new watermark`);
    },
  };
}
