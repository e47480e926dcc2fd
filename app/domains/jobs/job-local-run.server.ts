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
import { jobsRunningHere } from "./job-signal.server.ts";
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
 * Runs a job written by `insertClaimedJob` when `queue` gives it its turn (the image queue: the upload's sizes wait
 * behind other pictures), renewing its lease from now on, so that a long wait does not hand it to another process.
 * At its turn the claim is checked first: a job given back at a stop, or taken over meanwhile, is left to its new
 * holder. Done when `work` ends, back in the queue with a backoff (for any worker) when it throws. Never throws.
 */
export async function runClaimedJob(
  db: Kysely<Database>,
  id: string,
  work: () => Promise<void>,
  onFailure: (error: unknown) => void,
  queue: (task: () => Promise<void>) => Promise<void> = (task) => task(),
): Promise<void> {
  const worker = processWorker.id;
  const leaseMs = processWorker.leaseMs;
  const renew = setInterval(() => void renewLease(db, id, worker, leaseMs).catch(() => {}), leaseMs / 3);
  renew.unref?.();
  try {
    await queue(async () => {
      if (!(await renewLease(db, id, worker, leaseMs))) return;
      jobsRunningHere.add(id);
      try {
        await work();
        clearInterval(renew);
        await completeJob(db, { id }, worker);
      } catch (error) {
        clearInterval(renew);
        onFailure(error);
        await failJob(db, { id, attempts: 1, max_attempts: DEFAULT_MAX_ATTEMPTS }, worker, error);
      } finally {
        jobsRunningHere.delete(id);
      }
    });
  } catch (error) {
    // The claim could not be checked or the outcome not written (the database away): the lease will run out.
    onFailure(error);
  } finally {
    clearInterval(renew);
  }
}

/**
 * At a stop: this process's jobs that have not started (waiting for their turn) go back to the queue for the next
 * process, untried; those whose work still runs here keep their claim until it runs out (see `jobsRunningHere`).
 */
export async function releaseProcessJobs(db: Kysely<Database>, now: Date = new Date()): Promise<number> {
  const running = [...jobsRunningHere];
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
    .$if(running.length > 0, (query) => query.where("id", "not in", running))
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}
