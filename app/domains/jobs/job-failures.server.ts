import type { ExpressionBuilder, Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { type JobRow, RECURRING_ID_PATTERN } from "./job-queue.server.ts";

/* The jobs that failed for good, as the admin's dashboard shows and answers them (job-admin.server.ts). */

export type FailedJob = { id: string; kind: string; attempts: number; error: string; failedAt: string };

/**
 * The jobs that failed for good, newest first, and the recurring ones that failed their last `max_attempts` turns in
 * a row (a scheduled backup that cannot write): the admin's dashboard lists them with "Try again".
 */
export async function listFailedJobs(db: Kysely<Database>, limit = 20): Promise<FailedJob[]> {
  const rows = await db
    .selectFrom("jobs")
    .select(FAILED_COLUMNS)
    .where(isFailing)
    .orderBy("updated_at", "desc")
    .limit(limit)
    .execute();
  return rows.map(failedJobOf);
}

/** One job as `listFailedJobs` shows it, with its key; null when no job of this id is failing (any more). */
export async function findFailedJob(
  db: Kysely<Database>,
  id: string,
): Promise<(FailedJob & { dedupeKey: string | null }) | null> {
  const row = await db
    .selectFrom("jobs")
    .select([...FAILED_COLUMNS, "dedupe_key"])
    .where("id", "=", id)
    .where(isFailing)
    .executeTakeFirst();
  return row ? { ...failedJobOf(row), dedupeKey: row.dedupe_key } : null;
}

const FAILED_COLUMNS = ["id", "kind", "attempts", "last_error", "finished_at", "updated_at"] as const;

/** Failed for good, or a recurring job whose last `max_attempts` turns failed in a row. */
function isFailing(eb: ExpressionBuilder<Database, "jobs">) {
  return eb.or([
    eb("state", "=", "failed"),
    eb.and([
      eb("id", "like", RECURRING_ID_PATTERN),
      eb("last_error", "is not", null),
      eb("attempts", ">=", eb.ref("max_attempts")),
    ]),
  ]);
}

function failedJobOf(row: Pick<JobRow, (typeof FAILED_COLUMNS)[number]>): FailedJob {
  return {
    id: row.id,
    kind: row.kind,
    attempts: row.attempts,
    error: row.last_error ?? "",
    failedAt: toIsoString(row.finished_at ?? row.updated_at),
  };
}

/** Puts a failed job back in the queue with fresh tries (a recurring one: its next turn now); false when none. */
export async function retryFailedJob(db: Kysely<Database>, id: string, now: Date = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({ state: "queued", attempts: 0, run_at: now, finished_at: null, updated_at: now })
    .where("id", "=", id)
    .where((eb) =>
      eb.or([eb("state", "=", "failed"), eb.and([eb("id", "like", RECURRING_ID_PATTERN), eb("state", "=", "queued")])]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0) > 0;
}

/** Forgets a failed job (the admin dismissed it); a recurring one keeps its turns and forgets its failures. */
export async function dismissFailedJob(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = id.startsWith("every:")
    ? await db
        .updateTable("jobs")
        .set({ attempts: 0, last_error: null })
        .where("id", "=", id)
        .where("last_error", "is not", null)
        .executeTakeFirst()
    : await db.deleteFrom("jobs").where("id", "=", id).where("state", "=", "failed").executeTakeFirst();
  const changed = "numUpdatedRows" in result ? result.numUpdatedRows : result.numDeletedRows;
  return Number(changed ?? 0) > 0;
}
