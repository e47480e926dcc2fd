import { processWorkerId, releaseProcessJobs } from "#app/domains/jobs/job-local-run.server.ts";
import { createJobWorker } from "#app/domains/jobs/job-worker.server.ts";
import { startMailHousekeeping } from "#app/domains/mail/mail.server.ts";
import { outboxDirIn } from "#app/domains/mail/outbox.server.ts";
import { finishPendingImages } from "#app/domains/media/image-finishing.server.ts";
import { whenImageQueueIdle } from "#app/domains/media/image-queue.server.ts";
import { queueWatermarkRedraw } from "#app/domains/media/image-watermarks.server.ts";
import { warmPostRenderer } from "#app/domains/posts/post-body.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { logBackgroundFailure } from "./background-failure.server.ts";
import { createJobHandlers } from "./job-handlers.server.ts";
import type { RuntimeServices } from "./runtime.server.ts";
import { startQuietSettling } from "./settle-memory.server.ts";

/** How often the memory's settling looks whether the site fell quiet (settle-memory.server.ts). */
const SETTLE_EVERY_MS = 5000;
/**
 * How long a stop waits for the image work under way (an upload's remaining sizes: about 2 s for 12 megapixels on
 * this project's 2-core machine). Beyond it the stop goes on: the job goes back to the queue and another process
 * makes the sizes again.
 */
const IMAGE_WORK_STOP_MS = 10_000;

/** Every piece of work the server does besides answering requests: started together, stopped together. */
export type BackgroundTasks = { start(): void; stop(): Promise<void> };

/**
 * A task: started once, and either stopped (a timer: `start` returns its stop) or run to its end in the background
 * (a sweep: `start` returns its promise, which the stop waits for, so that nothing writes once the database closes).
 */
type Task = { name: string; start(): (() => void | Promise<void>) | Promise<unknown> | undefined };

/**
 * The one list of background work, in the order it starts; `stop` stops it in the reverse order. A task that throws
 * while starting is logged and the others still start: the site answers without its housekeeping.
 */
export function createBackgroundTasks(services: RuntimeServices, logger: Logger): BackgroundTasks {
  const { database, env } = services;
  const db = database.db;
  const worker = createJobWorker({
    id: processWorkerId(),
    db,
    kind: database.kind,
    handlers: createJobHandlers(services, logger),
    logger,
    leaseMs: env.jobs.leaseMs,
    onError: (message, error) => logBackgroundFailure(logger, message, error),
  });
  const tasks: Task[] = [
    {
      // The one reader of change events in this process; every live stream is fed from it (issue 19).
      name: "change feed",
      start: () => {
        services.changeFeed
          .start()
          .catch((error: unknown) => logger.error({ err: error }, "The change feed could not read its first events"));
        return () => services.changeFeed.stop();
      },
    },
    {
      // Outbox files and failure records older than 30 days go: now and once a day.
      name: "mail housekeeping",
      start: () => startMailHousekeeping({ outboxDir: outboxDirIn(env.dataDir), db, logger }),
    },
    {
      // Visitors' views, noted by the edge, written as sums every few seconds and once more at the stop (issue 46),
      // before the database closes: a rolling restart loses nothing, a crash at most those seconds.
      name: "statistics",
      start: () => services.statistics.start(),
    },
    {
      name: "code highlighter warm-up",
      start: () =>
        warmPostRenderer(db).catch((error: unknown) =>
          logger.warn({ err: error }, "the code highlighter could not be loaded ahead of the first post"),
        ),
    },
    {
      // The start's garbage collected once, when the site first falls quiet (settle-memory.server.ts): the first
      // turns of the tasks here, the warm-up and the first requests' lazily loaded modules make it in its first
      // seconds. Not after later bursts: a settled process serves the next burst far worse.
      name: "memory settling",
      start: () => startQuietSettling({ everyMs: SETTLE_EVERY_MS }),
    },
    {
      // The jobs every process on the database shares (job-handlers.server.ts): an upload's sizes, watermark
      // redraws, scheduled posts and backups, sweeps. At the stop, what this process still holds (its own
      // uploads' sizes too) goes back to the queue for the next process instead of waiting out its lease.
      name: "job worker",
      start: () => {
        worker
          .start()
          .catch((error: unknown) => logger.error({ err: error }, "The background job worker could not start"));
        return async () => {
          await worker.stop();
          await releaseProcessJobs(db).catch((error: unknown) =>
            logger.warn({ err: error }, "Could not hand this process's jobs back to the queue"),
          );
        };
      },
    },
    {
      // Pictures uploaded before jobs existed whose sizes were not all made get a job.
      name: "pending pictures",
      start: () => finishPendingImages(db),
    },
    {
      // Pictures whose drawn watermark is not the one the settings ask for (a text that follows the site name after
      // an upgrade emptied it): a redraw is queued, which leaves the rest alone.
      name: "watermark check",
      start: () =>
        queueWatermarkRedraw(db).catch((error: unknown) =>
          logger.error({ err: error }, "Could not check the gallery's watermarks"),
        ),
    },
    {
      // Last, so that its stop comes first: the image work under way in this process (an upload's remaining sizes,
      // a redraw) ends before the job worker hands this process's jobs back and the database closes. Cut off, it
      // failed on a closed database and logged an error for work that another process then redid.
      name: "image work",
      start: () => async () => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const limit = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, IMAGE_WORK_STOP_MS);
        });
        await Promise.race([whenImageQueueIdle(), limit]);
        clearTimeout(timer);
      },
    },
  ];
  let started = false;
  let stops: (() => void | Promise<void>)[] = [];
  let running: Promise<unknown>[] = [];
  return {
    start() {
      if (started) return;
      started = true;
      for (const task of tasks) {
        try {
          const result = task.start();
          if (typeof result === "function") stops.push(result);
          // A one-off's own failures are logged by it; this only keeps the stop from waiting on a rejection.
          else if (result) running.push(result.catch(() => {}));
        } catch (error) {
          logger.error({ err: error }, `The ${task.name} could not be started`);
        }
      }
    },
    async stop() {
      for (const stop of stops.reverse()) await stop();
      stops = [];
      await Promise.all(running);
      running = [];
      started = false;
    },
  };
}
