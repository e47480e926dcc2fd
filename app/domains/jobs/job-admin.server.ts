import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { dismissFailedJob, type FailedJob, findFailedJob, retryFailedJob } from "./job-failures.server.ts";
import { signalJobsQueued } from "./job-signal.server.ts";

/*
 * The admin's two answers to a failed job on the dashboard, each written with its audit entry in one transaction.
 * Both answer the job as it was shown, or null when no job of that id is failing any more (tried again, dismissed
 * or pruned meanwhile, from another tab or by another admin): then nothing is changed and nothing recorded.
 */

/** Puts the failed job back in the queue with fresh tries (a recurring one: its turn now) and wakes the worker. */
export async function retryFailedJobAsAdmin(
  db: Kysely<Database>,
  actor: AuditActor,
  id: string,
  now: Date = new Date(),
): Promise<FailedJob | null> {
  const retried = await db.transaction().execute(async (trx) => {
    const job = await findFailedJob(trx, id);
    if (!job) return null;
    // The queue holds one waiting job per key (a unique index): when one of the key was queued since this one
    // failed (a newer watermark redraw, say), it does the same work, so this one is removed rather than queued.
    const waiting = job.dedupeKey
      ? await trx
          .selectFrom("jobs")
          .select("id")
          .where("dedupe_key", "=", job.dedupeKey)
          .where("state", "=", "queued")
          .where("id", "!=", id)
          .executeTakeFirst()
      : undefined;
    const changed = waiting ? await dismissFailedJob(trx, id) : await retryFailedJob(trx, id, now);
    if (!changed) return null;
    await recordAudit(trx, actor, { action: "jobs.retry", target: job.kind, oldValue: job.error });
    return job;
  });
  // After the commit, so that this process's worker finds the job when it looks.
  if (retried) signalJobsQueued();
  return retried ? withoutKey(retried) : null;
}

/** Forgets the failed job (a recurring one keeps its turns and forgets its failures). */
export async function dismissFailedJobAsAdmin(
  db: Kysely<Database>,
  actor: AuditActor,
  id: string,
): Promise<FailedJob | null> {
  return db.transaction().execute(async (trx) => {
    const job = await findFailedJob(trx, id);
    if (!job || !(await dismissFailedJob(trx, id))) return null;
    await recordAudit(trx, actor, { action: "jobs.dismiss", target: job.kind, oldValue: job.error });
    return withoutKey(job);
  });
}

function withoutKey({ dedupeKey: _key, ...job }: FailedJob & { dedupeKey: string | null }): FailedJob {
  return job;
}
