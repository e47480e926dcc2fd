import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";

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

/**
 * Flips scheduled posts to published at their time, in the running server, without a restart or a visitor's
 * request. Visibility does not depend on it (a due scheduled post is visible anyway), but the page cache is
 * dropped only by a database write: this write makes every kept page (the blog list, the home page, the menu)
 * show the post at its time. It sleeps until the next due post, but never longer than `pollMs`, so a post
 * scheduled meanwhile (here or by another process sharing the database) is found in time. Answers a stop function.
 */
export function startPostScheduler(deps: {
  db: Kysely<Database>;
  logger: SchedulerLogger;
  now?: () => Date;
  pollMs?: number;
}): () => void {
  const now = deps.now ?? (() => new Date());
  const pollMs = deps.pollMs ?? SCHEDULER_POLL_MS;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const tick = async () => {
    let delay = pollMs;
    try {
      const published = await publishDuePosts(deps.db, now());
      if (published > 0) deps.logger.info({ published }, "Scheduled posts published");
      const next = await nextScheduledAt(deps.db);
      if (next) delay = Math.min(pollMs, Math.max(0, next.getTime() - now().getTime()) + LATE_MARGIN_MS);
    } catch (error) {
      // The database may be away for a moment (a restart): try again at the next poll.
      deps.logger.error({ err: error }, "Publishing scheduled posts failed");
    }
    if (stopped) return;
    timer = setTimeout(tick, delay);
    timer.unref?.();
  };

  void tick();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
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
