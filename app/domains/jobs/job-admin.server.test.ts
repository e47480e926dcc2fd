import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { dismissFailedJobAsAdmin, retryFailedJobAsAdmin } from "./job-admin.server.ts";
import { listFailedJobs } from "./job-failures.server.ts";
import { claimJob, enqueueJob, ensureRecurringJob, failJob, type JobRow, recurringJobId } from "./job-queue.server.ts";

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, seconds));
const admin = { id: "admin-1", email: "owner@example.test" };

describe.each(databaseKinds)("an admin's answer to a failed job (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const rowOf = (id: string) => database.db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
  const claimed = async (kinds: string[], now: Date) =>
    (await claimJob(database.db, kind, { lane: "default", kinds, worker: "w", leaseMs: 30_000, now })) as JobRow;

  /** A one-off job that failed its only try, for good. */
  async function failedJob(jobKind: string, error: string, dedupeKey?: string): Promise<string> {
    const id = (await enqueueJob(database.db, { kind: jobKind, maxAttempts: 1, dedupeKey }, at(0))) as string;
    expect(await failJob(database.db, await claimed([jobKind], at(1)), "w", new Error(error), { now: at(2) })).toBe(
      "failed",
    );
    return id;
  }

  /** A recurring job whose last two turns failed in a row; its next turn is at 60 s. */
  async function failingRecurringJob(): Promise<string> {
    await ensureRecurringJob(
      database.db,
      "backup.scheduled",
      { kind: "backup.scheduled", firstRunAt: at(0), maxAttempts: 2 },
      at(0),
    );
    for (const second of [0, 30]) {
      await failJob(database.db, await claimed(["backup.scheduled"], at(second)), "w", new Error("No space left"), {
        now: at(second),
        nextRunAt: at(second + 30),
      });
    }
    return recurringJobId("backup.scheduled");
  }

  it("puts a failed job back in the queue with fresh tries, recorded as the admin with the error it had", async () => {
    const id = await failedJob("image.finish", "sharp: unsupported image format");

    const retried = await retryFailedJobAsAdmin(database.db, admin, id, at(100));

    expect(retried).toEqual({
      id,
      kind: "image.finish",
      attempts: 1,
      error: "sharp: unsupported image format",
      failedAt: at(2).toISOString(),
    });
    expect(await rowOf(id)).toMatchObject({ state: "queued", attempts: 0, finished_at: null });
    expect(await listFailedJobs(database.db)).toEqual([]);
    expect((await claimed(["image.finish"], at(100))).id).toBe(id);
    const { records } = await listAudit(database.db);
    expect(records).toMatchObject([
      {
        actorId: admin.id,
        actorEmail: admin.email,
        action: "jobs.retry",
        target: "image.finish",
        oldValue: "sharp: unsupported image format",
        newValue: null,
      },
    ]);
  });

  it("gives a recurring job that keeps failing its turn now, with fresh tries", async () => {
    const id = await failingRecurringJob();
    expect((await listFailedJobs(database.db)).map((job) => job.id)).toEqual([id]);

    expect(await retryFailedJobAsAdmin(database.db, admin, id, at(40))).toMatchObject({ id, kind: "backup.scheduled" });

    expect(await rowOf(id)).toMatchObject({ state: "queued", attempts: 0 });
    expect(await listFailedJobs(database.db)).toEqual([]);
    expect((await claimed(["backup.scheduled"], at(40))).id).toBe(id);
    expect((await listAudit(database.db)).records).toMatchObject([
      { action: "jobs.retry", target: "backup.scheduled" },
    ]);
  });

  it("keeps a dismissed recurring job and its next turn, and forgets its failures", async () => {
    const id = await failingRecurringJob();
    const before = await rowOf(id);

    expect(await dismissFailedJobAsAdmin(database.db, admin, id)).toMatchObject({ id, error: "No space left" });

    expect(await rowOf(id)).toMatchObject({ state: "queued", attempts: 0, last_error: null, run_at: before?.run_at });
    expect(await listFailedJobs(database.db)).toEqual([]);
    expect((await listAudit(database.db)).records).toMatchObject([
      { action: "jobs.dismiss", target: "backup.scheduled", oldValue: "No space left" },
    ]);
  });

  it("forgets a dismissed job, recorded with the error it had", async () => {
    const id = await failedJob("watermark.redraw", "The watermark file is missing");

    expect(await dismissFailedJobAsAdmin(database.db, admin, id)).toMatchObject({ id, kind: "watermark.redraw" });

    expect(await rowOf(id)).toBeUndefined();
    const { records } = await listAudit(database.db);
    expect(records).toMatchObject([
      { action: "jobs.dismiss", target: "watermark.redraw", oldValue: "The watermark file is missing" },
    ]);
  });

  it("changes and records nothing for a job that is not failing (waiting, running, answered already, unknown)", async () => {
    const waiting = (await enqueueJob(database.db, { kind: "a" }, at(0))) as string;
    const running = (await enqueueJob(database.db, { kind: "b" }, at(0))) as string;
    await claimed(["b"], at(1));
    const answered = await failedJob("c", "boom");
    expect(await dismissFailedJobAsAdmin(database.db, admin, answered)).not.toBeNull();
    const rowsBefore = await database.db.selectFrom("jobs").selectAll().orderBy("id").execute();
    const auditBefore = (await listAudit(database.db)).total;

    for (const id of [waiting, running, answered, "no-such-job", recurringJobId("nothing")]) {
      expect(await retryFailedJobAsAdmin(database.db, admin, id, at(50)), id).toBeNull();
      expect(await dismissFailedJobAsAdmin(database.db, admin, id), id).toBeNull();
    }

    expect(await database.db.selectFrom("jobs").selectAll().orderBy("id").execute()).toEqual(rowsBefore);
    expect((await listAudit(database.db)).total).toBe(auditBefore);
  });

  it("removes a failed job instead of queueing it beside a waiting job of the same key (one waiting job per key)", async () => {
    const failed = await failedJob("watermark.redraw", "disk full", "watermark.redraw");
    const newer = (await enqueueJob(
      database.db,
      { kind: "watermark.redraw", dedupeKey: "watermark.redraw" },
      at(5),
    )) as string;

    expect(await retryFailedJobAsAdmin(database.db, admin, failed, at(10))).toMatchObject({ id: failed });

    expect(await rowOf(failed)).toBeUndefined();
    expect(await rowOf(newer)).toMatchObject({ state: "queued" });
    expect((await listAudit(database.db)).records).toMatchObject([
      { action: "jobs.retry", target: "watermark.redraw" },
    ]);
  });

  it("leaves the job failed when its audit entry cannot be written (one transaction)", async () => {
    const id = await failedJob("posts.publish", "connection lost");
    // No address: the audit log refuses the entry (NOT NULL), after the change was made in the same transaction.
    const nobody = { id: "admin-2", email: null as unknown as string };

    await expect(retryFailedJobAsAdmin(database.db, nobody, id, at(10))).rejects.toThrow();
    await expect(dismissFailedJobAsAdmin(database.db, nobody, id)).rejects.toThrow();

    expect(await rowOf(id)).toMatchObject({ state: "failed", attempts: 1, last_error: "connection lost" });
    expect((await listAudit(database.db)).total).toBe(0);
  });
});
