import type { Kysely } from "kysely";
import type { DatabaseKind } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { createJobWorker, type JobHandler } from "#app/domains/jobs/job-worker.server.ts";

type SchedulerLogger = {
  info: (details: object, message: string) => void;
  error: (details: object, message: string) => void;
};

/**
 * How often the scheduler looks for newly scheduled posts (one scheduled by another process, or just now): a post
 * due sooner than this after being scheduled appears at most this late. A look is one indexed SELECT, no write.
 */
export const SCHEDULER_POLL_MS = 5_000;
/** Timers may fire a moment early by the database's clock: wait this much past the due time. */
const LATE_MARGIN_MS = 5;

/** The recurring job that publishes scheduled posts; one row for every process on the database. */
export const POST_PUBLISH_JOB = "posts.publish";

/**
 * Flips scheduled posts to published at their time, in the running server, without a restart or a visitor's
 * request. Visibility does not depend on it (a due scheduled post is visible anyway), but the page cache is
 * dropped only by a database write: this write makes every kept page (the blog list, the home page, the menu) on
 * every process show the post at its time. A recurring job (issue 20): one process takes each turn, so a post is
 * published once however many run; the next turn is the next post's time, but never later than `pollMs`, so a
 * post scheduled meanwhile (here or by another process) is found in time.
 */
export function postPublishHandler(deps: {
  db: Kysely<Database>;
  logger: SchedulerLogger;
  pollMs?: number;
}): JobHandler {
  const pollMs = deps.pollMs ?? SCHEDULER_POLL_MS;
  return {
    lane: "default",
    run: async (_payload, { now }) => {
      const published = await publishDuePosts(deps.db, now());
      if (published > 0) deps.logger.info({ published }, "Scheduled posts published");
    },
    every: {
      firstRunAt: (now) => now,
      nextRunAt: async (now) => {
        const next = await nextScheduledAt(deps.db);
        const wait = next ? Math.max(0, next.getTime() - now.getTime()) + LATE_MARGIN_MS : pollMs;
        return new Date(now.getTime() + Math.min(pollMs, wait));
      },
    },
  };
}

/** A job worker that runs only the scheduler (what the tests drive); the server's worker runs it with the rest. */
export function startPostScheduler(deps: {
  db: Kysely<Database>;
  kind: DatabaseKind;
  logger: SchedulerLogger;
  now?: () => Date;
  pollMs?: number;
}): () => Promise<void> {
  const worker = createJobWorker({
    db: deps.db,
    kind: deps.kind,
    handlers: { [POST_PUBLISH_JOB]: postPublishHandler(deps) },
    logger: { ...deps.logger, warn: deps.logger.error },
    now: deps.now,
    pollMs: deps.pollMs ?? SCHEDULER_POLL_MS,
  });
  const started = worker
    .start()
    .catch((error: unknown) => deps.logger.error({ err: error }, "The post scheduler could not start"));
  return async () => {
    await started;
    await worker.stop();
  };
}

/**
 * Flips every scheduled post whose time has come to published; answers how many. Its updated time stays. Looks
 * first and writes only when a post is due: any UPDATE counts as a change and would drop the page cache.
 */
export async function publishDuePosts(db: Kysely<Database>, now: Date = new Date()): Promise<number> {
  const due = await db
    .selectFrom("posts")
    .select("id")
    .where("status", "=", "scheduled")
    .where("publish_at", "<=", now)
    .execute();
  if (due.length === 0) return 0;
  const result = await db
    .updateTable("posts")
    .set({ status: "published" })
    .where("status", "=", "scheduled")
    .where("publish_at", "<=", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}

/** The time of the next scheduled post, or null when none waits. */
export async function nextScheduledAt(db: Kysely<Database>): Promise<Date | null> {
  const row = await db
    .selectFrom("posts")
    .select("publish_at")
    .where("status", "=", "scheduled")
    .where("publish_at", "is not", null)
    .orderBy("publish_at")
    .limit(1)
    .executeTakeFirst();
  return row?.publish_at ? new Date(toIsoString(row.publish_at)) : null;
}
