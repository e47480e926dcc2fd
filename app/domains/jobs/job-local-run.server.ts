import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import {
  completeJob,
  DEFAULT_MAX_ATTEMPTS,
  enqueueClaimedJob,
  failJob,
  type NewJob,
  renewLease,
} from "./job-queue.server.ts";
import { DEFAULT_LEASE_MS, newWorkerId } from "./job-worker.server.ts";

/**
 * Work this process starts itself and records as a job it already holds (an upload's remaining sizes): the row is
 * written with the work's cause, in the same transaction, claimed by this process, so the work starts at once here
 * without waiting for a worker's turn, and if this process dies the lease runs out and any process's worker
 * finishes it (the kind's handler). Process-wide, like the process itself: the runtime's worker has the same name.
 */
const processWorker = { id: newWorkerId(), leaseMs: DEFAULT_LEASE_MS };

export function processWorkerId(): string {
  return processWorker.id;
}

export function localLeaseMs(): number {
  return processWorker.leaseMs;
}

/** The lease of this process's jobs (JOB_LEASE_SECONDS): the runtime sets it once at start. */
export function configureLocalJobs(options: { leaseMs: number }): void {
  processWorker.leaseMs = options.leaseMs;
}

/** Writes a job already claimed by this process (state running, first try); answers its id. */
export async function insertClaimedJob(db: Kysely<Database>, job: NewJob, now: Date = new Date()): Promise<string> {
  const row = await enqueueClaimedJob(db, job, { worker: processWorker.id, leaseMs: processWorker.leaseMs }, now);
  return row.id;
}

/**
 * Runs a job written by `insertClaimedJob`, renewing its lease while it works; done when `work` ends, back in the
 * queue with a backoff (for any worker) when it throws. Never throws itself: the outcome is in the row.
 */
export async function runClaimedJob(
  db: Kysely<Database>,
  id: string,
  work: () => Promise<void>,
  onFailure: (error: unknown) => void,
): Promise<void> {
  const worker = processWorker.id;
  const leaseMs = processWorker.leaseMs;
  const renew = setInterval(() => void renewLease(db, id, worker, leaseMs).catch(() => {}), leaseMs / 3);
  renew.unref?.();
  try {
    await work();
    clearInterval(renew);
    await completeJob(db, { id }, worker);
  } catch (error) {
    clearInterval(renew);
    onFailure(error);
    await failJob(db, { id, attempts: 1, max_attempts: DEFAULT_MAX_ATTEMPTS }, worker, error).catch(() => {});
  }
}

/** At a stop: this process's jobs still running go back to the queue for the next process, untried. */
export async function releaseProcessJobs(db: Kysely<Database>, now: Date = new Date()): Promise<number> {
  const result = await db
    .updateTable("jobs")
    .set((eb) => ({
      state: "queued",
      run_at: now,
      attempts: eb("attempts", "-", 1),
      locked_by: null,
      locked_until: null,
      updated_at: now,
    }))
    .where("state", "=", "running")
    .where("locked_by", "=", processWorker.id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}
