import { randomBytes } from "node:crypto";
import os from "node:os";
import type { Kysely } from "kysely";
import type { DatabaseKind } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import {
  bringRecurringJobForward,
  claimJob,
  completeJob,
  ensureRecurringJob,
  failJob,
  type JobLane,
  type JobRow,
  nextDueAt,
  recurringJobId,
  releaseJob,
  renewLease,
  retryDelayMs,
} from "./job-queue.server.ts";
import { jobsRunningHere, onJobsQueued } from "./job-signal.server.ts";

/** What a handler gets besides its payload: the signal aborts when the process stops (a long job may end early). */
export type JobContext = { signal: AbortSignal; now: () => Date; attempt: number };

/** What a run may answer besides ending: kept with the job as JSON (`jobs.result`), e.g. a sweep's counts. */
export type JobResult = { result: Readonly<Record<string, string | number | boolean | null>> };

export type JobHandler = {
  lane: JobLane;
  // biome-ignore lint/suspicious/noConfusingVoidType: most handlers are `async` functions that answer nothing.
  run(payload: unknown, context: JobContext): Promise<JobResult | void>;
  /**
   * A recurring job: one row for all processes (see `ensureRecurringJob`), due first at `firstRunAt`, then again
   * at `nextRunAt` after each run (after a failure too: a recurring job never fails for good). `atStart`: due
   * again whenever a process starts (`bringRecurringJobForward`), besides its regular turns.
   */
  every?: {
    firstRunAt(now: Date): Date | Promise<Date>;
    nextRunAt(now: Date): Date | Promise<Date>;
    atStart?: boolean;
  };
};

export type WorkerLogger = {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
};

export type JobWorkerOptions = {
  /** Its name in `locked_by` (the runtime's worker takes the process's, see job-local-run); a new one by default. */
  id?: string;
  db: Kysely<Database>;
  kind: DatabaseKind;
  handlers: Readonly<Record<string, JobHandler>>;
  logger: WorkerLogger;
  /** How long a claim holds without renewal; a process that dies frees its job after this. */
  leaseMs?: number;
  /** The longest an idle lane sleeps before it looks again (jobs queued by other processes). */
  pollMs?: number;
  now?: () => Date;
  /** How long `stop` waits for the jobs under way (5 s by default). */
  stopWaitMs?: number;
  /**
   * Where the worker's own failures go (the database away while it claims): the runtime logs them as its other
   * background work does, one line without a stack while the database is unreachable. `logger.error` by default.
   */
  onError?: (message: string, error: unknown) => void;
};

export type JobWorker = {
  /** This process's name in `locked_by`. */
  readonly id: string;
  start(): Promise<void>;
  /**
   * Stops claiming, aborts what runs and waits for it (at most `stopWaitMs`: a redraw of thousands of pictures does
   * not hold up a restart; its process's jobs are given back by `releaseProcessJobs`). A job cut short goes back to
   * the queue at once.
   */
  stop(): Promise<void>;
};

export const DEFAULT_LEASE_MS = 30_000;
export const DEFAULT_POLL_MS = 1_000;
/** The soonest a failed recurring job runs again. */
const MIN_RECURRING_RETRY_MS = 5_000;

/** A worker's name: host, pid and some randomness, so a restarted process on the same pid is another worker. */
export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

/**
 * Runs the jobs of this process's handlers: one loop per lane, each taking one job at a time. A loop that found
 * nothing sleeps until the next due job or `pollMs`, whichever is sooner, and wakes at once when this process
 * queues a job. While a job runs its lease is renewed every third of the lease, so a long redraw is never taken
 * over; a process that dies stops renewing, and the job goes to another after the lease.
 */
export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const id = options.id ?? newWorkerId();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const now = options.now ?? (() => new Date());
  const { db, logger, handlers } = options;
  const lanes: JobLane[] = ["media", "default", "maintenance"];
  const kindsOf = (lane: JobLane) => Object.keys(handlers).filter((kind) => handlers[kind]?.lane === lane);
  let stopping: AbortController | null = null;
  const loops: Promise<void>[] = [];
  const wakers = new Set<() => void>();
  let unsubscribe: (() => void) | null = null;

  const onError = options.onError ?? ((message: string, error: unknown) => logger.error({ err: error }, message));

  const runOne = async (job: JobRow, signal: AbortSignal): Promise<void> => {
    const handler = handlers[job.kind];
    if (!handler) return;
    let ended = false;
    let renewalFailed = false;
    const renew = setInterval(
      () => {
        void renewLease(db, job.id, id, leaseMs, now())
          .then((held) => {
            if (!held && !ended) logger.warn({ job: job.id, kind: job.kind }, "A job's lease was lost while it ran");
          })
          .catch((error: unknown) => {
            // Once per job: the database away for longer than the lease hands the job to another process.
            if (renewalFailed || ended) return;
            renewalFailed = true;
            onError(`Could not renew the lease of a running ${job.kind} job`, error);
          });
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    renew.unref?.();
    jobsRunningHere.add(job.id);
    const done = () => {
      ended = true;
      clearInterval(renew);
      jobsRunningHere.delete(job.id);
    };
    try {
      const answer = await handler.run(JSON.parse(job.payload) as unknown, { signal, now, attempt: job.attempts });
      done();
      await completeJob(db, job, id, {
        now: now(),
        nextRunAt: handler.every ? await handler.every.nextRunAt(now()) : null,
        result: answer ? answer.result : undefined,
      });
    } catch (error) {
      done();
      if (signal.aborted) {
        // Cut short by the stop: back to the queue for any process, this try not counted.
        await releaseJob(db, job, id, now()).catch(() => {});
        return;
      }
      const outcome = await failJob(db, job, id, error, { now: now(), nextRunAt: await retryAt(handler, job) });
      const details = { err: error, job: job.id, kind: job.kind, attempt: job.attempts };
      if (outcome === "failed")
        logger.error(details, "A background job failed for good; the admin's dashboard shows it");
      else if (outcome === "lost") logger.warn(details, "A background job failed after another process took it over");
      else logger.warn(details, "A background job failed; it will be tried again");
    }
  };

  /**
   * A recurring job's next turn after a failure: the queue's backoff (5 s, 20 s, 80 s…), but never later than its
   * regular turn (a scheduled backup that met a passing error is tried again soon, not a day later) and never sooner
   * than 5 s (the post scheduler's regular turn may be "now": a failing publish must not spin).
   */
  const retryAt = async (handler: JobHandler, job: JobRow): Promise<Date | null> => {
    if (!handler.every) return null;
    const at = now().getTime();
    const regular = (await handler.every.nextRunAt(now())).getTime();
    return new Date(Math.max(at + MIN_RECURRING_RETRY_MS, Math.min(at + retryDelayMs(job.attempts), regular)));
  };

  // A "job queued" signal that came while a lane was claiming (not asleep yet) is kept for its next sleep.
  let wokenEarly = false;
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (wokenEarly) {
        wokenEarly = false;
        resolve();
        return;
      }
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      wakers.add(done);
      signal.addEventListener("abort", done);
    });

  /**
   * Inserts this lane's recurring jobs that no process has inserted yet (one row each, whoever comes first), and
   * brings forward the waiting turn of those that also run at each start.
   */
  const ensureRecurring = async (lane: JobLane) => {
    for (const [kind, handler] of Object.entries(handlers)) {
      if (!handler.every || handler.lane !== lane) continue;
      await ensureRecurringJob(db, kind, { kind, lane, firstRunAt: await handler.every.firstRunAt(now()) }, now());
      if (handler.every.atStart) await bringRecurringJobForward(db, kind, now());
    }
  };

  const loop = async (lane: JobLane, signal: AbortSignal) => {
    const kinds = kindsOf(lane);
    if (kinds.length === 0) return;
    let ensured = false;
    while (!signal.aborted) {
      let delay = pollMs;
      try {
        if (!ensured) {
          await ensureRecurring(lane);
          ensured = true;
        }
        const looked = now();
        const job = await claimJob(db, options.kind, { lane, kinds, worker: id, leaseMs, now: looked });
        if (job) {
          await runOne(job, signal);
          continue;
        }
        // Due later, or come due since this turn looked (a loaded machine takes a while between the two questions):
        // sleep until then, or not at all. Due already when it looked yet not claimed (its key has a job running
        // elsewhere, or another process took it a moment ago): the poll, not a spin.
        const due = await nextDueAt(db, lane, kinds);
        if (due && due.getTime() > looked.getTime())
          delay = Math.min(pollMs, Math.max(0, due.getTime() - now().getTime()));
      } catch (error) {
        // The database may be away for a moment (a restart): look again at the next poll.
        if (!signal.aborted) onError(`Could not claim background jobs (${lane})`, error);
      }
      await sleep(delay, signal);
    }
  };

  return {
    id,
    async start() {
      if (stopping) return;
      stopping = new AbortController();
      const signal = stopping.signal;
      unsubscribe = onJobsQueued(() => {
        if (wakers.size < lanes.length) wokenEarly = true;
        for (const wake of [...wakers]) wake();
      });
      for (const lane of lanes) loops.push(loop(lane, signal));
    },
    async stop() {
      if (!stopping) return;
      stopping.abort();
      unsubscribe?.();
      let waited: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(loops.splice(0)),
        new Promise((resolve) => {
          waited = setTimeout(resolve, options.stopWaitMs ?? 5_000);
        }),
      ]);
      clearTimeout(waited);
      stopping = null;
    },
  };
}

export { recurringJobId };
