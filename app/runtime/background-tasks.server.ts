import { startAttemptCountSweep } from "#app/auth/rate-limit.server.ts";
import { startBackupSchedule } from "#app/domains/backup/schedule.server.ts";
import { startEventTrim } from "#app/domains/live/change-events.server.ts";
import { startMailHousekeeping } from "#app/domains/mail/mail.server.ts";
import { outboxDirIn } from "#app/domains/mail/outbox.server.ts";
import { finishPendingImages } from "#app/domains/media/image-finishing.server.ts";
import { warmPostRenderer } from "#app/domains/posts/post-body.server.ts";
import { startPostScheduler } from "#app/domains/posts/post-scheduler.server.ts";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import { startWatermarkRefresh } from "#app/domains/settings/settings-admin.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { logBackgroundFailure } from "./background-failure.server.ts";
import type { RuntimeServices } from "./runtime.server.ts";
import { sweepStorage } from "./storage-sweeps.server.ts";

/** Every piece of work the server does besides answering requests: started together, stopped together. */
export type BackgroundTasks = { start(): void; stop(): Promise<void> };

/**
 * A task: started once, and either stopped (a timer: `start` returns its stop) or run to its end in the background
 * (a sweep: `start` returns its promise, which the stop waits for, so that nothing writes once the database closes).
 */
type Task = { name: string; start(): (() => void) | Promise<unknown> | undefined };

/**
 * The one list of background work, in the order it starts; `stop` stops it in the reverse order. A task that throws
 * while starting is logged and the others still start: the site answers without its housekeeping.
 */
export function createBackgroundTasks(services: RuntimeServices, logger: Logger): BackgroundTasks {
  const { database, env } = services;
  const db = database.db;
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
      // Events older than a day, and all but the newest 10,000, go: now and every ten minutes.
      name: "change event trim",
      start: () =>
        startEventTrim({
          db,
          onError: (error) => logBackgroundFailure(logger, "Could not trim the change events", error),
        }),
    },
    {
      // Counted limits whose window has ended (failed sign-ins per address, reset requests, the contact form's)
      // go: now and every ten minutes, so that many addresses' single tries do not pile up.
      name: "attempt count sweep",
      start: () =>
        startAttemptCountSweep({
          db,
          onError: (error) => logBackgroundFailure(logger, "Could not sweep the ended attempt counts", error),
        }),
    },
    {
      // Outbox files and failure records older than 30 days go: now and once a day.
      name: "mail housekeeping",
      start: () => startMailHousekeeping({ outboxDir: outboxDirIn(env.dataDir), db, logger }),
    },
    {
      // Scheduled posts become published at their time, which drops the page cache.
      name: "post scheduler",
      start: () => startPostScheduler({ db, logger }),
    },
    {
      name: "code highlighter warm-up",
      start: () =>
        warmPostRenderer(db).catch((error: unknown) =>
          logger.warn({ err: error }, "the code highlighter could not be loaded ahead of the first post"),
        ),
    },
    {
      // Leftovers of interrupted uploads go while the site already answers.
      name: "storage sweep",
      start: () => sweepStorage(db, env, services.storage),
    },
    {
      // Pictures whose sizes were not all made when the server stopped are finished now (visitors see them then).
      name: "pending pictures",
      start: () => finishPendingImages(db, { storage: services.storage }),
    },
    {
      // Pictures whose drawn watermark is not the one the settings ask for (a refresh cut short by a stop, or a
      // text that follows the site name after an upgrade emptied it) are redrawn; the rest are left alone.
      name: "watermark check",
      start: () =>
        readSettings(db)
          .then((settings) => startWatermarkRefresh(db, settings, services.storage))
          .catch((error: unknown) => logger.error({ err: error }, "Could not check the gallery's watermarks")),
    },
    {
      name: "backup schedule",
      start: () =>
        env.backup.dir
          ? startBackupSchedule(
              { database, dataDir: env.dataDir, storage: services.storage },
              { ...env.backup, dir: env.backup.dir },
              logger,
            )
          : undefined,
    },
  ];
  let started = false;
  let stops: (() => void)[] = [];
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
      for (const stop of stops.reverse()) stop();
      stops = [];
      await Promise.all(running);
      running = [];
      started = false;
    },
  };
}
