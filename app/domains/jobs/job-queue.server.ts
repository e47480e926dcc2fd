import { randomUUID } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import type { DatabaseKind } from "#app/db/database.server.ts";
import type { Database, JobsTable } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";

/**
 * The jobs table's rules (migration 0018): enqueue, claim under a lease, finish, retry with backoff, fail for
 * good. Written by hand over Kysely: the kept queue libraries for Node serve PostgreSQL only (pg-boss, graphile
 * worker) or need Redis (BullMQ), and Vitrine's default is SQLite; the whole of it is these few statements.
 */

/**
 * Each lane runs one job at a time in a process: "media" sharp's work (so a 2-core server keeps answering),
 * "maintenance" the long housekeeping (a backup, the bucket-wide file sweep), "default" the rest, so a scheduled
 * post or a mail never waits behind a redraw or a backup.
 */
export type JobLane = "media" | "default" | "maintenance";
export type JobRow = Selectable<JobsTable>;

export type NewJob = {
  kind: string;
  payload?: unknown;
  lane?: JobLane;
  /** At most one queued job per key; a second enqueue while one waits adds nothing. */
  dedupeKey?: string;
  runAt?: Date;
  /** Tries before it fails for good (default 5). */
  maxAttempts?: number;
};

export const DEFAULT_MAX_ATTEMPTS = 5;
/** Done jobs are kept this long (what ran, for an admin's question), failed ones until dismissed or 30 days. */
const DONE_KEEP_MS = 24 * 60 * 60 * 1000;
const FAILED_KEEP_MS = 30 * 24 * 60 * 60 * 1000;
/** The longest error text kept: enough for the message, not a whole stack. */
const ERROR_CHARS = 500;
/** The ids of recurring jobs (`recurringJobId`), as a LIKE pattern. */
export const RECURRING_ID_PATTERN = "every:%";

/** Queues a job; answers its id, or null when a queued job of the same key already waits. */
export async function enqueueJob(db: Kysely<Database>, job: NewJob, now: Date = new Date()): Promise<string | null> {
  if (job.dedupeKey !== undefined) {
    // A job of the key already waits: touch it instead. On PostgreSQL this holds its row lock until the caller's
    // transaction commits, so no worker (SKIP LOCKED) claims it and reads the state this change is still writing.
    const touched = await db
      .updateTable("jobs")
      .set({ updated_at: now })
      .where("dedupe_key", "=", job.dedupeKey)
      .where("state", "=", "queued")
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows ?? 0) > 0) return null;
  }
  const id = randomUUID();
  const result = await db
    .insertInto("jobs")
    .values(newRow(id, job, now))
    // The id is new, so the only conflict is the unique index of queued jobs' keys (a partial index, which
    // SQLite cannot name as a conflict target with a bound value: no target serves both databases).
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? id : null;
}

/**
 * Queues a job already claimed by its creator, who runs it at once (a mail sent right after the answer): the row is
 * the durable record should the creator die before it ends, and no other process takes it while the creator holds
 * the lease (renew it with `renewLease`, end it with `completeJob` or `failJob`, hand it back with `releaseJob`).
 */
export async function enqueueClaimedJob(
  db: Kysely<Database>,
  job: Omit<NewJob, "runAt">,
  claim: { worker: string; leaseMs: number },
  now: Date = new Date(),
): Promise<JobRow> {
  return db
    .insertInto("jobs")
    .values({
      ...newRow(randomUUID(), job, now),
      state: "running",
      attempts: 1,
      locked_by: claim.worker,
      locked_until: new Date(now.getTime() + claim.leaseMs),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Hands a held job back to the queue untried (its holder stops before running it); false when not held. */
export async function releaseJob(
  db: Kysely<Database>,
  job: Pick<JobRow, "id" | "attempts">,
  worker: string,
  now: Date = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({
      state: "queued",
      run_at: now,
      attempts: Math.max(0, job.attempts - 1),
      locked_by: null,
      locked_until: null,
      updated_at: now,
    })
    .where("id", "=", job.id)
    .where("state", "=", "running")
    .where("locked_by", "=", worker)
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0) > 0;
}

/**
 * Makes sure the recurring job `name` exists: one row under a fixed id, whatever number of processes start at once
 * (the primary key decides). Its first turn is at `firstRunAt`; later turns are set by the worker after each run.
 */
export async function ensureRecurringJob(
  db: Kysely<Database>,
  name: string,
  job: Omit<NewJob, "dedupeKey" | "runAt"> & { firstRunAt: Date },
  now: Date = new Date(),
): Promise<void> {
  await db
    .insertInto("jobs")
    .values(newRow(recurringJobId(name), { ...job, runAt: job.firstRunAt }, now))
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}

/**
 * Brings a recurring job's waiting turn forward to now: a job that also runs whenever a process starts (the storage
 * sweep, so a crash's leftovers do not wait for the next regular turn). One row for all processes: instances that
 * start together bring the same turn forward, and while it runs (not queued) a start changes nothing, so one run
 * serves them all. Answers whether the turn moved.
 */
export async function bringRecurringJobForward(
  db: Kysely<Database>,
  name: string,
  now: Date = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({ run_at: now, updated_at: now })
    .where("id", "=", recurringJobId(name))
    .where("state", "=", "queued")
    .where("run_at", ">", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0) > 0;
}

export function recurringJobId(name: string): string {
  return `every:${name}`;
}

function newRow(id: string, job: NewJob & { runAt?: Date }, now: Date) {
  return {
    id,
    kind: job.kind,
    lane: job.lane ?? "default",
    payload: JSON.stringify(job.payload ?? {}),
    dedupe_key: job.dedupeKey ?? null,
    state: "queued",
    run_at: job.runAt ?? now,
    attempts: 0,
    max_attempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    created_at: now,
    updated_at: now,
  };
}

export type ClaimOptions = {
  lane: JobLane;
  /** The kinds this process has handlers for: a process without BACKUP_DIR never takes the scheduled backup. */
  kinds: readonly string[];
  /** Who claims (process id and host): only its holder may finish a job. */
  worker: string;
  leaseMs: number;
  now?: Date;
};

/**
 * Takes the next due job of a lane: a queued one whose time has come, or a running one whose holder's lease ran
 * out (its process died). One statement: on PostgreSQL the candidate row is locked `FOR UPDATE SKIP LOCKED`, so
 * processes claiming at once each get a different job and none waits; on SQLite the statement holds the write
 * lock, so one process claims at a time. A job whose key has another job running is left until that one ends.
 */
export async function claimJob(
  db: Kysely<Database>,
  kind: DatabaseKind,
  options: ClaimOptions,
): Promise<JobRow | null> {
  if (options.kinds.length === 0) return null;
  const now = options.now ?? new Date();
  let candidate = db
    .selectFrom("jobs as j")
    .select("j.id")
    .where("j.lane", "=", options.lane)
    .where("j.kind", "in", options.kinds)
    .where((eb) =>
      eb.or([
        eb.and([eb("j.state", "=", "queued"), eb("j.run_at", "<=", now)]),
        eb.and([eb("j.state", "=", "running"), eb("j.locked_until", "<=", now)]),
      ]),
    )
    .where((eb) =>
      eb.or([
        eb("j.dedupe_key", "is", null),
        eb.not(
          eb.exists(
            eb
              .selectFrom("jobs as r")
              .select("r.id")
              .whereRef("r.dedupe_key", "=", "j.dedupe_key")
              .whereRef("r.id", "!=", "j.id")
              // Even one whose holder died: then that one is taken over first (one row, under SKIP LOCKED), and
              // this one waits for it, rather than two processes each taking one of the key at once.
              .where("r.state", "=", "running"),
          ),
        ),
      ]),
    )
    .orderBy("j.run_at")
    .limit(1);
  if (kind === "postgres") candidate = candidate.forUpdate().skipLocked();
  const row = await db
    .updateTable("jobs")
    .set((eb) => ({
      state: "running",
      locked_by: options.worker,
      locked_until: new Date(now.getTime() + options.leaseMs),
      attempts: eb("attempts", "+", 1),
      updated_at: now,
    }))
    .where("id", "=", candidate)
    .returningAll()
    .executeTakeFirst();
  if (row && row.attempts > row.max_attempts && !row.id.startsWith("every:")) {
    await failAbandonedJob(db, row, options.worker, now);
    return null;
  }
  return row ?? null;
}

/**
 * A one-off job taken over after its last try (its holder's lease ran out every time) is failed for good instead
 * of run again: a job that takes its process down with it (sharp out of memory on one picture) would otherwise
 * kill each process in turn. Decided on the row just claimed, so an idle claim costs no extra statement.
 */
async function failAbandonedJob(db: Kysely<Database>, row: JobRow, worker: string, now: Date): Promise<void> {
  await db
    .updateTable("jobs")
    .set({
      state: "failed",
      last_error: `Its process stopped while running it, ${row.attempts - 1} times`,
      attempts: row.attempts - 1,
      locked_by: null,
      locked_until: null,
      finished_at: now,
      updated_at: now,
    })
    .where("id", "=", row.id)
    .where("locked_by", "=", worker)
    .execute();
}

/** Extends a running job's lease; false when this worker no longer holds it (another took it over). */
export async function renewLease(
  db: Kysely<Database>,
  id: string,
  worker: string,
  leaseMs: number,
  now: Date = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({ locked_until: new Date(now.getTime() + leaseMs), updated_at: now })
    .where("id", "=", id)
    .where("state", "=", "running")
    .where("locked_by", "=", worker)
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0) > 0;
}

/**
 * Ends a run: a one-off job is done; a recurring one (`nextRunAt`) goes back to the queue for its next turn, with
 * its tries counted afresh. False when the lease was lost meanwhile (the other holder's outcome stands).
 */
export async function completeJob(
  db: Kysely<Database>,
  job: Pick<JobRow, "id">,
  worker: string,
  options: { now?: Date; nextRunAt?: Date | null; result?: unknown } = {},
): Promise<boolean> {
  const now = options.now ?? new Date();
  const next = options.nextRunAt ?? null;
  // What the run answered (the storage sweep's counts), kept until the next successful run answers again.
  const answered = options.result === undefined ? {} : { result: JSON.stringify(options.result), result_at: now };
  const result = await db
    .updateTable("jobs")
    .set({
      ...answered,
      ...(next
        ? { state: "queued", run_at: next, attempts: 0, locked_by: null, locked_until: null, last_error: null }
        : { state: "done", locked_by: null, locked_until: null, finished_at: now }),
      updated_at: now,
    })
    .where("id", "=", job.id)
    .where("state", "=", "running")
    .where("locked_by", "=", worker)
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0) > 0;
}

/** The wait before try `attempt + 1`: 5 s, 20 s, 80 s… at most an hour, with some jitter so retries spread. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(60 * 60 * 1000, 5_000 * 4 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.75 + random() * 0.5));
}

/**
 * Records a failed try: back to the queue after a backoff while tries remain, else failed for good (shown to the
 * admin). A recurring job never fails for good: it keeps its next turn (`nextRunAt`) and its error.
 */
export async function failJob(
  db: Kysely<Database>,
  job: Pick<JobRow, "id" | "attempts" | "max_attempts">,
  worker: string,
  error: unknown,
  options: { now?: Date; nextRunAt?: Date | null } = {},
): Promise<"retry" | "failed" | "lost"> {
  const now = options.now ?? new Date();
  const message = errorText(error);
  const forGood = !options.nextRunAt && job.attempts >= job.max_attempts;
  const runAt = options.nextRunAt ?? new Date(now.getTime() + retryDelayMs(job.attempts));
  const result = await db
    .updateTable("jobs")
    .set(
      forGood
        ? {
            state: "failed",
            last_error: message,
            locked_by: null,
            locked_until: null,
            finished_at: now,
            updated_at: now,
          }
        : { state: "queued", run_at: runAt, last_error: message, locked_by: null, locked_until: null, updated_at: now },
    )
    .where("id", "=", job.id)
    .where("state", "=", "running")
    .where("locked_by", "=", worker)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows ?? 0) === 0) return "lost";
  return forGood ? "failed" : "retry";
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, ERROR_CHARS);
}

/** Removes done jobs after a day and failed ones after 30 days; answers how many went. */
export async function pruneFinishedJobs(db: Kysely<Database>, now: Date = new Date()): Promise<number> {
  const result = await db
    .deleteFrom("jobs")
    .where((eb) =>
      eb.or([
        eb.and([eb("state", "=", "done"), eb("finished_at", "<=", new Date(now.getTime() - DONE_KEEP_MS))]),
        eb.and([eb("state", "=", "failed"), eb("finished_at", "<=", new Date(now.getTime() - FAILED_KEEP_MS))]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

/** The earliest time a queued job of these kinds is due, so an idle worker sleeps until then (or its poll). */
export async function nextDueAt(db: Kysely<Database>, lane: JobLane, kinds: readonly string[]): Promise<Date | null> {
  if (kinds.length === 0) return null;
  const row = await db
    .selectFrom("jobs")
    .select("run_at")
    .where("lane", "=", lane)
    .where("kind", "in", kinds)
    .where("state", "=", "queued")
    .orderBy("run_at")
    .limit(1)
    .executeTakeFirst();
  return row ? new Date(toIsoString(row.run_at)) : null;
}
