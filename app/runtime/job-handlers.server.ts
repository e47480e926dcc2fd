import { sweepAttemptCounts } from "#app/auth/rate-limit.server.ts";
import { listBackups, runScheduledBackup } from "#app/domains/backup/schedule.server.ts";
import { pruneFinishedJobs } from "#app/domains/jobs/job-queue.server.ts";
import type { JobHandler } from "#app/domains/jobs/job-worker.server.ts";
import { trimChangeEvents } from "#app/domains/live/change-events.server.ts";
import { mailJobHandlers } from "#app/domains/mail/mail-jobs.server.ts";
import {
  IMAGE_FINISH_JOB,
  imageFinishHandler,
  watermarkRedrawHandler,
} from "#app/domains/media/image-finishing.server.ts";
import { WATERMARK_REDRAW_JOB } from "#app/domains/media/image-watermarks.server.ts";
import { STORAGE_SWEEP_JOB } from "#app/domains/media/storage-sweep-report.server.ts";
import { placeAllPostImages } from "#app/domains/posts/post-image-places.server.ts";
import { POST_PUBLISH_JOB, postPublishHandler } from "#app/domains/posts/post-scheduler.server.ts";
import { announcementJobHandlers } from "#app/domains/subscriptions/announcements.server.ts";
import { sweepExpiredTokens } from "#app/domains/users/account-tokens.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import type { RuntimeServices } from "./runtime.server.ts";
import { sweepStorage } from "./storage-sweeps.server.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * A recurring job's turns: the first at once, then every `intervalMs` after the end of the last (and, `atStart`, a
 * turn whenever a process starts).
 */
const every = (intervalMs: number, options: { atStart?: boolean } = {}): NonNullable<JobHandler["every"]> => ({
  firstRunAt: (now) => now,
  nextRunAt: (now) => new Date(now.getTime() + intervalMs),
  ...options,
});

/**
 * The one list of job kinds this process runs (issue 20): what any process on the database may take and run once
 * for all. Per-process work (the change feed, the highlighter's warm-up) stays in background-tasks.server.ts. A
 * kind missing here is never claimed by this process: without BACKUP_DIR, another process takes the backups.
 */
export function createJobHandlers(services: RuntimeServices, logger: Logger): Record<string, JobHandler> {
  const { database, env, storage } = services;
  const db = database.db;
  const handlers: Record<string, JobHandler> = {
    // Mail: sent at once by the process that wrote it, retried or taken over by any process (mail-jobs.server.ts).
    ...mailJobHandlers(services.mail),
    // New posts mailed to the members who subscribed: after the answer that published one, and a sweep each minute.
    ...announcementJobHandlers({
      db,
      mail: services.mail,
      baseUrl: env.baseUrl,
      unsubscribeSecret: services.unsubscribeSecret,
    }),
    [IMAGE_FINISH_JOB]: imageFinishHandler(db, storage),
    [WATERMARK_REDRAW_JOB]: watermarkRedrawHandler(db, storage),
    // Scheduled posts become published at their time, which drops every process's page cache.
    [POST_PUBLISH_JOB]: postPublishHandler({ db, logger }),
    // Posts' pictures at public names or in member folders as their posts' visibility says: at the start (what an
    // older version or an interrupted save left), then every hour. Each save of a post places its own at once.
    "posts.place-images": {
      lane: "maintenance",
      run: async () => {
        const moved = await placeAllPostImages(db, storage);
        if (moved > 0) logger.info({ moved }, "Moved posts' pictures to where their visibility puts them");
      },
      every: every(HOUR),
    },
    // Files no row names (an upload cut short, a crash), and this process's stale temp files: every 6 hours, and
    // at each start, so a crash's leftovers go with the restart (the grace period spares uploads in flight; the
    // one row means instances starting together sweep once). Its counts are the dashboard's health line.
    [STORAGE_SWEEP_JOB]: {
      lane: "maintenance",
      run: async () => ({ result: await sweepStorage(db, env, storage) }),
      every: every(6 * HOUR, { atStart: true }),
    },
    // Counted limits whose window has ended, so that many addresses' single tries do not pile up.
    "sweep.attempts": {
      lane: "default",
      run: async () => void (await sweepAttemptCounts(db)),
      every: every(10 * MINUTE),
    },
    // Change events older than a day, and all but the newest 10,000.
    "sweep.events": { lane: "default", run: async () => void (await trimChangeEvents(db)), every: every(10 * MINUTE) },
    // Account tokens and better-auth's pending verifications expired a day ago or more.
    "sweep.tokens": { lane: "default", run: async () => void (await sweepExpiredTokens(db)), every: every(HOUR) },
    // Done jobs after a day, failed ones after 30 days.
    "sweep.jobs": { lane: "default", run: async () => void (await pruneFinishedJobs(db)), every: every(HOUR) },
  };
  const backup = env.backup;
  if (backup.dir) {
    const dir = backup.dir;
    handlers["backup.scheduled"] = {
      lane: "maintenance",
      run: async () => {
        const result = await runScheduledBackup(
          { database, dataDir: env.dataDir, storage },
          { dir, keep: backup.keep },
        );
        logger.info({ file: result.file, bytes: result.size }, "Backup written");
      },
      every: {
        // The first as soon as the newest archive there is that old (at once for a folder without any).
        firstRunAt: async (now) => {
          const newest = (await listBackups(dir)).find((file) => file.kind === "backup");
          return newest ? new Date(newest.createdAt.getTime() + backup.intervalMs) : now;
        },
        nextRunAt: (now) => new Date(now.getTime() + backup.intervalMs),
      },
    };
  }
  return handlers;
}
