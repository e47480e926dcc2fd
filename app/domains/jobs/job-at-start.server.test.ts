import { afterEach, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { ensureRecurringJob, recurringJobId } from "./job-queue.server.ts";
import { lastJobResult } from "./job-results.server.ts";
import { createJobWorker, type JobHandler, type JobWorker } from "./job-worker.server.ts";

const HOUR = 3_600_000;
const silent = { info() {}, warn() {}, error() {} };

/**
 * Issue 42, item 3: a recurring job may also be due whenever a process starts (the storage sweep, so that a crash's
 * leftovers go with the restart instead of waiting up to six hours), once for instances that start together; and a
 * run's answer is kept with its row (the dashboard's counts).
 */
describe.each(databaseKinds)("recurring jobs due at each start (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const extra: AppDatabase[] = [];
  const workers: JobWorker[] = [];
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await Promise.all(extra.splice(0).map((db) => db.close()));
  });
  /** PostgreSQL: each worker on its own pool, as separate processes would be; SQLite: one file, one connection. */
  const connection = (): AppDatabase => {
    if (kind === "sqlite") return database;
    const own = openDatabase({ databaseUrl: database.location.databaseUrl });
    extra.push(own);
    return own;
  };
  const startWorker = async (handlers: Record<string, JobHandler>) => {
    const worker = createJobWorker({ db: connection().db, kind, handlers, logger: silent, pollMs: 20 });
    workers.push(worker);
    await worker.start();
  };
  const runAt = async (name: string) => {
    const row = await database.db
      .selectFrom("jobs")
      .select(["state", "run_at"])
      .where("id", "=", recurringJobId(name))
      .executeTakeFirstOrThrow();
    return { state: row.state, at: new Date(row.run_at).getTime() };
  };

  it("runs a waiting turn at once when processes start, once for those starting together, and keeps its answer", async () => {
    let runs = 0;
    const sweep: JobHandler = {
      lane: "maintenance",
      run: async () => {
        runs += 1;
        // Long enough for the second process's start to meet it running.
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { result: { removed: runs } };
      },
      every: { firstRunAt: (now) => now, nextRunAt: (now) => new Date(now.getTime() + 6 * HOUR), atStart: true },
    };
    // The same kind without `atStart` keeps its turn.
    const regular: JobHandler = { ...sweep, every: { ...sweep.every, atStart: false } as JobHandler["every"] };
    // A site that ran before: both turns six hours ahead.
    const later = new Date(Date.now() + 6 * HOUR);
    await ensureRecurringJob(database.db, "sweep", { kind: "sweep", lane: "maintenance", firstRunAt: later });
    await ensureRecurringJob(database.db, "regular", { kind: "regular", lane: "maintenance", firstRunAt: later });
    expect(await lastJobResult(database.db, recurringJobId("sweep"))).toBeNull();

    await Promise.all([startWorker({ sweep, regular }), startWorker({ sweep, regular })]);
    await expect.poll(() => runs, { timeout: 10_000 }).toBe(1);
    await expect
      .poll(async () => (await runAt("sweep")).at, { timeout: 10_000 })
      .toBeGreaterThan(Date.now() + 5 * HOUR);
    // A moment more: neither process runs it a second time.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(runs).toBe(1);
    expect((await runAt("regular")).at).toBe(later.getTime());
    const kept = await lastJobResult(database.db, recurringJobId("sweep"));
    expect(kept?.result).toEqual({ removed: 1 });
    expect(Date.now() - Date.parse(kept?.at ?? "")).toBeLessThan(60_000);

    // A process starting later (a restart after a crash) has its own turn.
    await startWorker({ sweep, regular });
    await expect.poll(() => runs, { timeout: 10_000 }).toBe(2);
    await expect
      .poll(async () => (await lastJobResult(database.db, recurringJobId("sweep")))?.result, { timeout: 10_000 })
      .toEqual({ removed: 2 });
  });
});
