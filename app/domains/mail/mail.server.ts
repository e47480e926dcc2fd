import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import {
  completeJob,
  enqueueClaimedJob,
  enqueueJob,
  failJob,
  type JobRow,
  releaseJob,
  renewLease,
} from "#app/domains/jobs/job-queue.server.ts";
import { signalJobsQueued } from "#app/domains/jobs/job-signal.server.ts";
import { DEFAULT_LEASE_MS, type JobContext, newWorkerId } from "#app/domains/jobs/job-worker.server.ts";
import { createMailDelivery, type MailLogger } from "./mail-delivery.server.ts";
import { pruneMailFailures } from "./mail-failures.server.ts";
import { MAIL_MAX_ATTEMPTS, MAIL_SEND_JOB, type MailJob, openMailJob, sealMailJob } from "./mail-job-payload.server.ts";
import type { MailMessage, MailService } from "./mail-message.ts";
import { importOutboxFolder, outboxIdFor, pruneOutbox } from "./outbox.server.ts";

export { maskSecretsOf } from "./mail-delivery.server.ts";
export type { MailLogger };

export type MailServiceDeps = {
  /** `smtp://` or `smtps://` with the credentials in it; undefined: every mail goes to the outbox. */
  smtpUrl: string | undefined;
  /** The sender's address (MAIL_FROM); the sender's name is the site name. */
  from: string;
  /** BASE_URL, named at the foot of every mail. */
  baseUrl: string;
  /** The site name from settings, read for every mail (an admin may change it at any time). */
  readSiteName: () => Promise<string>;
  /** The mail jobs, the outbox (outbox_mails) and failed deliveries (mail_failures). */
  db: Kysely<Database>;
  /** The key that seals the mail jobs' payloads (`mailJobKeyOf(AUTH_SECRET)`): the same in every process. */
  jobKey: string;
  logger: MailLogger;
  /** The clock (tests pass their own). */
  now?: () => Date;
  /** SMTP timeouts in ms (tests shorten them). */
  smtpTimeoutMs?: number;
  /** How long this process's hold on a mail it delivers lasts without renewal (after a crash: until another takes it). */
  leaseMs?: number;
};

export type AppMailService = MailService & {
  /** Where mail goes: through SMTP_URL, or into the outbox. */
  readonly mode: "smtp" | "outbox";
  /**
   * Resolves once every mail handed to `send` so far is queued and its first try has ended: delivered, filed,
   * recorded as failed, or back in the queue for another try (which a job worker makes).
   */
  settled(): Promise<void>;
  /**
   * Stops: mails still waiting for their turn go back to the queue at once (another process, or this one after its
   * restart, delivers them); mails on their way are given up to `timeoutMs` to finish; then SMTP closes.
   */
  close(timeoutMs?: number): Promise<void>;
  /**
   * Writes the mail as a queued `mail.send` job in the caller's transaction, for a job worker (of any process) to
   * deliver: for a mail whose sending must commit or roll back with another write (an announcement's "mailed" mark,
   * subscriptions/announcements.server.ts). Call `signalJobsQueued` after the commit to start it at once.
   */
  enqueue(trx: Kysely<Database> | Transaction<Database>, message: MailMessage): Promise<void>;
  /** One try of a queued `mail.send` job, for the job worker (see mail-jobs.server.ts). */
  runJob(payload: unknown, context: JobContext): Promise<void>;
};

/** At most a few deliveries at once (each may hold an SMTP connection); the rest wait their turn. */
const MAX_PARALLEL_DELIVERIES = 3;

/** A turn among a few: `take` resolves true once it is ours, false when waiting was called off (a stop). */
function createTurns(max: number) {
  let running = 0;
  const waiting: ((granted: boolean) => void)[] = [];
  return {
    take(signal?: AbortSignal): Promise<boolean> {
      if (signal?.aborted) return Promise.resolve(false);
      if (running < max) {
        running++;
        return Promise.resolve(true);
      }
      return new Promise((resolve) => {
        const waiter = (granted: boolean) => {
          signal?.removeEventListener("abort", leave);
          resolve(granted);
        };
        // A worker that stops while its job waits: the job goes back to the queue, its turn to the next.
        const leave = () => {
          const index = waiting.indexOf(waiter);
          if (index >= 0) waiting.splice(index, 1);
          resolve(false);
        };
        waiting.push(waiter);
        signal?.addEventListener("abort", leave, { once: true });
      });
    },
    // A finished delivery hands its turn straight on, so the count never overshoots.
    give() {
      const next = waiting.shift();
      if (next) next(true);
      else running--;
    },
    callOff() {
      for (const resolve of waiting.splice(0)) resolve(false);
    },
  };
}

/**
 * The mail service. `send` never waits for the delivery and never fails, so that a visitor's answer takes the
 * same time and says the same thing whether a mail went out, failed, or (for an unknown address) was never written.
 * After the answer, the mail is first recorded as a `mail.send` job (its payload sealed), claimed by this process
 * as it is written, then delivered here at once: the row is the durable record, which another process takes over
 * after the lease if this one dies before the end, and which no one else takes while this one holds it. A failure
 * that another try may mend goes back to the queue (tried again with the queue's pause by a job worker, of any
 * process); a lasting one, or the last try's, is logged and recorded in mail_failures for the dashboard.
 */
export function createMailService(deps: MailServiceDeps): AppMailService {
  const now = deps.now ?? (() => new Date());
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const { db, logger } = deps;
  const delivery = createMailDelivery({ ...deps, now });
  const holder = newWorkerId();
  const turns = createTurns(MAX_PARALLEL_DELIVERIES);
  const pending = new Set<Promise<void>>();
  let closing = false;

  const track = (task: Promise<void>) => {
    pending.add(task);
    void task.finally(() => pending.delete(task));
  };

  /** Renews the hold on `job` while it waits and is delivered; `lost()` says another process has taken it. */
  const hold = (job: JobRow) => {
    let lost = false;
    const timer = setInterval(
      () => {
        void renewLease(db, job.id, holder, leaseMs, now())
          .then((held) => {
            lost ||= !held;
          })
          .catch(() => {});
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    timer.unref?.();
    return { lost: () => lost, end: () => clearInterval(timer) };
  };

  /** The first try of a mail this process sent, under its own claim: ended in the queue as the worker would. */
  async function deliverHeld(job: JobRow, mail: MailJob): Promise<void> {
    const claim = hold(job);
    try {
      const granted = await turns.take();
      if (!granted || closing) {
        // Stopping before its turn came: back to the queue untried, for any process.
        await releaseJob(db, job, holder, now());
        return;
      }
      try {
        if (claim.lost()) return;
        await delivery.deliver(mail, job.attempts);
        await completeJob(db, job, holder, { now: now() });
      } catch (error) {
        await failJob(db, job, holder, error, { now: now() });
        signalJobsQueued();
      } finally {
        turns.give();
      }
    } catch (error) {
      // The database went away meanwhile: the lease runs out and another process delivers the mail.
      logger.error({ err: error, job: job.id }, "A mail's job could not be ended; it will be tried again");
    } finally {
      claim.end();
    }
  }

  async function queueAndDeliver(message: MailMessage, at: Date): Promise<void> {
    const mail: MailJob = { id: outboxIdFor(message.kind, at), at: at.toISOString(), message };
    const job = { kind: MAIL_SEND_JOB, lane: "default" as const, maxAttempts: MAIL_MAX_ATTEMPTS };
    let row: JobRow;
    try {
      row = await enqueueClaimedJob(
        db,
        { ...job, payload: sealMailJob(deps.jobKey, mail) },
        { worker: holder, leaseMs },
        now(),
      );
    } catch (error) {
      logger.error(
        { err: error, to: message.to, kind: message.kind },
        "A mail could not be queued (the database did not take it); it is not sent",
      );
      return;
    }
    await deliverHeld(row, mail);
  }

  const settled = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };

  return {
    mode: delivery.mode,
    send(message) {
      track(queueAndDeliver(message, now()));
      return Promise.resolve();
    },
    async enqueue(trx, message) {
      const at = now();
      const mail: MailJob = { id: outboxIdFor(message.kind, at), at: at.toISOString(), message };
      await enqueueJob(
        trx as Kysely<Database>,
        {
          kind: MAIL_SEND_JOB,
          lane: "default",
          maxAttempts: MAIL_MAX_ATTEMPTS,
          payload: sealMailJob(deps.jobKey, mail),
        },
        at,
      );
    },
    async runJob(payload, context) {
      const mail = openMailJob(deps.jobKey, payload);
      if (!(await turns.take(context.signal))) throw new Error("The mail service is stopping");
      const task = delivery.deliver(mail, context.attempt).finally(() => turns.give());
      track(task.catch(() => {}));
      await task;
    },
    settled,
    async close(timeoutMs = 5_000) {
      closing = true;
      turns.callOff();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        settled(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
          timer.unref?.();
        }),
      ]);
      clearTimeout(timer);
      delivery.close();
    },
  };
}

type MailHousekeepingDeps = {
  /** DATA_DIR/outbox, where mails were filed as files before migration 0020. */
  outboxDir: string;
  db: Kysely<Database>;
  logger: Pick<MailLogger, "info" | "error">;
  now?: () => Date;
};

/**
 * One run of the housekeeping. The clock is read once: a run that judged the outbox by one time and the failure
 * records by a later one could delete a failure and keep the mail it was about (seen in CI on a busy machine).
 */
export async function runMailHousekeeping(deps: MailHousekeepingDeps): Promise<void> {
  const at = (deps.now ?? (() => new Date()))();
  try {
    const moved = await importOutboxFolder(deps.db, deps.outboxDir, at);
    if (moved > 0)
      deps.logger.info({ moved, from: deps.outboxDir }, "Mails of the outbox folder moved into the database");
    const removed = await pruneOutbox(deps.db, at);
    if (removed > 0) deps.logger.info({ removed }, "Old mails removed from the outbox");
    await pruneMailFailures(deps.db, at);
  } catch (error) {
    deps.logger.error({ err: error }, "Cleaning up the outbox failed");
  }
}

/**
 * Moves the mails of this machine's old outbox folder into the outbox table (once: the folder is then gone), and
 * deletes outbox mails and failure records older than 30 days: now, and once a day from then on. Every process
 * runs it; the deletions are the same whoever makes them. Returns the function that stops it.
 */
export function startMailHousekeeping(deps: MailHousekeepingDeps & { intervalMs?: number }): () => void {
  const run = () => runMailHousekeeping(deps);
  void run();
  const timer = setInterval(run, deps.intervalMs ?? 24 * 60 * 60 * 1000);
  timer.unref?.();
  return () => clearInterval(timer);
}
