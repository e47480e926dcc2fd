import { afterEach, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { dismissFailedJob, listFailedJobs, retryFailedJob } from "./job-failures.server.ts";
import { insertClaimedJob, processWorkerId, releaseProcessJobs } from "./job-local-run.server.ts";
import {
  claimJob,
  completeJob,
  enqueueJob,
  ensureRecurringJob,
  failJob,
  pruneFinishedJobs,
  recurringJobId,
  retryDelayMs,
} from "./job-queue.server.ts";
import { createJobWorker, type JobHandler } from "./job-worker.server.ts";

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, seconds));
const LEASE = 30_000;

describe.each(databaseKinds)("the jobs table (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const claim = (worker: string, now: Date, kinds = ["a", "b"]) =>
    claimJob(database.db, kind, { lane: "default", kinds, worker, leaseMs: LEASE, now });
  const stateOf = async (id: string) =>
    (await database.db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow()).state;

  it("keeps one queued job per key, and leaves a key alone while one of it runs", async () => {
    const first = await enqueueJob(database.db, { kind: "a", dedupeKey: "k" }, at(0));
    expect(first).not.toBeNull();
    expect(await enqueueJob(database.db, { kind: "a", dedupeKey: "k" }, at(0))).toBeNull();

    expect((await claim("w1", at(1)))?.id).toBe(first);
    // Running: a new change of the same thing is queued, not lost, but waits for the running one.
    const second = await enqueueJob(database.db, { kind: "a", dedupeKey: "k" }, at(2));
    expect(second).not.toBeNull();
    expect(await claim("w2", at(3))).toBeNull();

    expect(await completeJob(database.db, { id: first as string }, "w1", { now: at(4) })).toBe(true);
    expect((await claim("w2", at(5)))?.id).toBe(second);
  });

  it("gives a job to nobody before its time, then to one claimant, oldest first", async () => {
    const later = await enqueueJob(database.db, { kind: "a", runAt: at(20) }, at(0));
    const sooner = await enqueueJob(database.db, { kind: "b", runAt: at(10) }, at(0));
    expect(await claim("w1", at(5))).toBeNull();
    expect((await claim("w1", at(30)))?.id).toBe(sooner);
    expect((await claim("w2", at(30)))?.id).toBe(later);
    expect(await claim("w3", at(30))).toBeNull();
    // A process without the handler never takes the job.
    await enqueueJob(database.db, { kind: "c" }, at(0));
    expect(await claim("w3", at(31))).toBeNull();
  });

  it("hands a job whose holder stopped renewing to another process after the lease, and ignores the first's late end", async () => {
    const id = (await enqueueJob(database.db, { kind: "a" }, at(0))) as string;
    const taken = await claim("dead", at(0));
    expect(taken?.attempts).toBe(1);
    expect(await claim("alive", at(29))).toBeNull();

    const again = await claim("alive", at(31));
    expect(again?.id).toBe(id);
    expect(again?.locked_by).toBe("alive");
    expect(await completeJob(database.db, { id }, "dead", { now: at(32) })).toBe(false);
    expect(await stateOf(id)).toBe("running");
    expect(await completeJob(database.db, { id }, "alive", { now: at(33) })).toBe(true);
    expect(await stateOf(id)).toBe("done");
  });

  it("fails a job for good whose process died on its last try, instead of handing it to the next process", async () => {
    const id = (await enqueueJob(database.db, { kind: "a", maxAttempts: 2 }, at(0))) as string;
    await claim("dies", at(0));
    expect((await claim("dies-too", at(31)))?.attempts).toBe(2);
    // The second holder dies too: after its lease, nobody gets the job; the dashboard does.
    expect(await claim("third", at(62))).toBeNull();
    expect(await stateOf(id)).toBe("failed");
    expect((await listFailedJobs(database.db)).map((job) => job.error)).toEqual([
      "Its process stopped while running it, 2 times",
    ]);
  });

  it("retries after a growing pause, then fails for good and shows it until retried or dismissed", async () => {
    const id = (await enqueueJob(database.db, { kind: "a", maxAttempts: 2 }, at(0))) as string;
    const first = await claim("w", at(0));
    expect(
      await failJob(database.db, first as NonNullable<typeof first>, "w", new Error("disk full"), { now: at(0) }),
    ).toBe("retry");
    expect(await claim("w", at(1))).toBeNull();
    const second = await claim("w", at(60));
    expect(second?.attempts).toBe(2);
    expect(
      await failJob(database.db, second as NonNullable<typeof second>, "w", new Error("disk full"), { now: at(61) }),
    ).toBe("failed");
    expect(await claim("w", at(3600))).toBeNull();
    expect(await listFailedJobs(database.db)).toEqual([
      { id, kind: "a", attempts: 2, error: "disk full", failedAt: at(61).toISOString() },
    ]);

    expect(await retryFailedJob(database.db, id, at(70))).toBe(true);
    expect((await claim("w", at(70)))?.attempts).toBe(1);
    expect(await listFailedJobs(database.db)).toEqual([]);
    expect(await dismissFailedJob(database.db, id)).toBe(false);
  });

  it("shows a recurring job that failed its last tries in a row, until it succeeds or is dismissed", async () => {
    await ensureRecurringJob(database.db, "backup", { kind: "a", firstRunAt: at(0), maxAttempts: 2 }, at(0));
    for (const second of [0, 10]) {
      const job = await claim("w", at(second));
      await failJob(database.db, job as NonNullable<typeof job>, "w", new Error("no space"), {
        now: at(second),
        nextRunAt: at(second + 10),
      });
    }
    expect((await listFailedJobs(database.db)).map((job) => [job.id, job.error])).toEqual([
      [recurringJobId("backup"), "no space"],
    ]);
    expect(await dismissFailedJob(database.db, recurringJobId("backup"))).toBe(true);
    expect(await listFailedJobs(database.db)).toEqual([]);
    expect(await stateOf(recurringJobId("backup"))).toBe("queued");
  });

  it("waits 5 s, then four times longer each try, with jitter, never over an hour", () => {
    expect(retryDelayMs(1, () => 0.5)).toBe(5_000);
    expect(retryDelayMs(2, () => 0.5)).toBe(20_000);
    expect(retryDelayMs(3, () => 0)).toBe(60_000);
    expect(retryDelayMs(20, () => 1)).toBe(1.25 * 60 * 60 * 1000);
  });

  it("keeps one row per recurring job however many processes start, back in the queue after each run", async () => {
    await Promise.all(
      [1, 2, 3].map(() => ensureRecurringJob(database.db, "sweep", { kind: "a", firstRunAt: at(0) }, at(0))),
    );
    const rows = await database.db.selectFrom("jobs").selectAll().execute();
    expect(rows.map((row) => row.id)).toEqual([recurringJobId("sweep")]);
    const job = await claim("w", at(1));
    await failJob(database.db, job as NonNullable<typeof job>, "w", new Error("away"), {
      now: at(1),
      nextRunAt: at(100),
    });
    expect(await stateOf(recurringJobId("sweep"))).toBe("queued");
    const next = await claim("w", at(100));
    await completeJob(database.db, { id: recurringJobId("sweep") }, "w", { now: at(100), nextRunAt: at(200) });
    // Failures in a row are counted (the dashboard shows a recurring job that keeps failing); a success forgets them.
    expect(next?.attempts).toBe(2);
    expect(await claim("w", at(150))).toBeNull();
    const row = await database.db.selectFrom("jobs").selectAll().executeTakeFirstOrThrow();
    expect({ attempts: row.attempts, last_error: row.last_error }).toEqual({ attempts: 0, last_error: null });
  });

  it("removes done jobs after a day and failed ones after 30 days", async () => {
    const done = (await enqueueJob(database.db, { kind: "a" }, at(0))) as string;
    await claim("w", at(0));
    await completeJob(database.db, { id: done }, "w", { now: at(0) });
    const queued = (await enqueueJob(database.db, { kind: "a", runAt: at(10 ** 6) }, at(0))) as string;
    expect(await pruneFinishedJobs(database.db, at(3600))).toBe(0);
    expect(await pruneFinishedJobs(database.db, at(24 * 3600 + 1))).toBe(1);
    expect(await stateOf(queued)).toBe("queued");
  });
});

describe.each(databaseKinds)("job workers sharing one database (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const extra: AppDatabase[] = [];
  afterEach(async () => {
    await Promise.all(extra.splice(0).map((db) => db.close()));
  });
  /** PostgreSQL: each worker on its own pool, as separate processes would be; SQLite: one file, one connection. */
  const connection = (): AppDatabase => {
    if (kind === "sqlite") return database;
    const own = openDatabase({ databaseUrl: database.location.databaseUrl });
    extra.push(own);
    return own;
  };
  const silent = { info() {}, warn() {}, error() {} };
  const stateOf = (id: string) =>
    database.db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("runs every job exactly once across three workers", async () => {
    const runs = new Map<number, number>();
    const handler: JobHandler = {
      lane: "default",
      async run(payload) {
        const n = (payload as { n: number }).n;
        runs.set(n, (runs.get(n) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 2));
      },
    };
    for (let n = 0; n < 40; n++) await enqueueJob(database.db, { kind: "count", payload: { n } });
    const workers = [1, 2, 3].map(() =>
      createJobWorker({ db: connection().db, kind, handlers: { count: handler }, logger: silent, pollMs: 20 }),
    );
    await Promise.all(workers.map((worker) => worker.start()));
    await expect
      .poll(
        async () => (await database.db.selectFrom("jobs").select("id").where("state", "=", "done").execute()).length,
        {
          timeout: 15_000,
        },
      )
      .toBe(40);
    await Promise.all(workers.map((worker) => worker.stop()));
    expect([...runs.keys()].sort((a, b) => a - b)).toEqual([...Array(40).keys()]);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    const holders = await database.db.selectFrom("jobs").select("locked_by").execute();
    expect(holders.every((row) => row.locked_by === null)).toBe(true);
  });

  it("gives a job cut short by a stop back to the queue, untried, for the next process", async () => {
    let started = 0;
    const slow: JobHandler = {
      lane: "media",
      run: (_payload, { signal }) => {
        started += 1;
        return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("stopped"))));
      },
    };
    const id = (await enqueueJob(database.db, { kind: "slow", lane: "media" })) as string;
    const first = createJobWorker({ db: database.db, kind, handlers: { slow }, logger: silent, pollMs: 20 });
    await first.start();
    await expect.poll(() => started).toBe(1);
    await first.stop();
    const row = await database.db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect({ state: row.state, attempts: row.attempts, locked_by: row.locked_by }).toEqual({
      state: "queued",
      attempts: 0,
      locked_by: null,
    });
  });

  it("stops without waiting out a long job that does not listen, keeps its claim while it runs, and gives back the rest", async () => {
    let release = () => {};
    const stubborn: JobHandler = { lane: "media", run: () => new Promise<void>((resolve) => (release = resolve)) };
    const id = (await enqueueJob(database.db, { kind: "stubborn", lane: "media" })) as string;
    // An upload's own job this process holds but has not started (waiting its turn in the image queue).
    const waiting = await insertClaimedJob(database.db, { kind: "stubborn", lane: "media" });
    const worker = createJobWorker({
      id: processWorkerId(),
      db: database.db,
      kind,
      handlers: { stubborn },
      logger: silent,
      pollMs: 20,
      stopWaitMs: 200,
    });
    await worker.start();
    await expect.poll(async () => (await stateOf(id)).state).toBe("running");
    const started = Date.now();
    await worker.stop();
    expect(Date.now() - started).toBeLessThan(2_000);
    // The waiting one goes back at once; the running one keeps its claim (its work goes on until the process ends:
    // handed back now, another process would run it beside it), and another takes it after the lease.
    expect(await releaseProcessJobs(database.db)).toBe(1);
    expect(await stateOf(waiting)).toMatchObject({ state: "queued", attempts: 0, locked_by: null });
    expect(await stateOf(id)).toMatchObject({ state: "running", locked_by: processWorkerId() });
    release();
    await expect.poll(async () => (await stateOf(id)).state).toBe("done");
  });

  it("does not spin while the due job's key has a job running elsewhere", async () => {
    await enqueueJob(database.db, { kind: "keyed", dedupeKey: "k", runAt: new Date(Date.now() - 1000) });
    // Another process runs a job of the same key, its lease far ahead.
    await database.db
      .updateTable("jobs")
      .set({ state: "running", locked_by: "elsewhere", locked_until: new Date(Date.now() + 60_000) })
      .execute();
    await enqueueJob(database.db, { kind: "keyed", dedupeKey: "k", runAt: new Date(Date.now() - 1000) });
    let reads = 0;
    const worker = createJobWorker({
      db: database.db,
      kind,
      handlers: { keyed: { lane: "default", run: async () => {} } },
      logger: silent,
      pollMs: 100,
      now: () => {
        reads += 1;
        return new Date();
      },
    });
    await worker.start();
    await new Promise((resolve) => setTimeout(resolve, 600));
    await worker.stop();
    // A look every 100 ms reads the clock a few times; a loop without a pause would read it thousands of times.
    expect(reads).toBeLessThan(60);
  });

  it("tries a failing recurring job again after a backoff of at least 5 s, not at once", async () => {
    let runs = 0;
    const failing: JobHandler = {
      lane: "default",
      run: async () => {
        runs += 1;
        throw new Error("the database said no");
      },
      // Its regular turn is "now" (as the post scheduler's is while a post is overdue).
      every: { firstRunAt: (now) => now, nextRunAt: (now) => now },
    };
    const before = Date.now();
    const worker = createJobWorker({ db: database.db, kind, handlers: { failing }, logger: silent, pollMs: 20 });
    await worker.start();
    await expect.poll(() => runs).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await worker.stop();
    expect(runs).toBe(1);
    const row = await stateOf(recurringJobId("failing"));
    expect(row.state).toBe("queued");
    expect(new Date(row.run_at).getTime()).toBeGreaterThanOrEqual(before + 5_000);
  });

  it("looks again at once when the next turn came due while it looked, instead of sleeping a whole poll", async () => {
    // A clock that moves 60 ms at every reading: the turn 100 ms after a run is not due when the worker claims, and
    // is past when it asks for the next due time. (CI's loaded PostgreSQL took that long once: the worker then
    // slept a whole poll, here a minute.)
    let clock = Date.now();
    const runs: number[] = [];
    const tick: JobHandler = {
      lane: "default",
      async run() {
        runs.push(clock);
      },
      every: { firstRunAt: (now) => now, nextRunAt: (now) => new Date(now.getTime() + 100) },
    };
    const worker = createJobWorker({
      db: database.db,
      kind,
      handlers: { tick },
      logger: silent,
      pollMs: 60_000,
      now: () => {
        clock += 60;
        return new Date(clock);
      },
    });
    await worker.start();
    await expect.poll(() => runs.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    await worker.stop();
  });

  it("runs a recurring job again at the time its handler names", async () => {
    const times: number[] = [];
    const tick: JobHandler = {
      lane: "default",
      async run() {
        times.push(Date.now());
      },
      every: { firstRunAt: (now) => now, nextRunAt: (now) => new Date(now.getTime() + 100) },
    };
    // A poll of a minute: three runs within seconds can only come from waking at the due time. (With a 1 s poll
    // and a 900 ms bound, CI's loaded machine once took longer for three 100 ms turns.)
    const worker = createJobWorker({ db: database.db, kind, handlers: { tick }, logger: silent, pollMs: 60_000 });
    await worker.start();
    await expect.poll(() => times.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await worker.stop();
    expect((times[2] as number) - (times[0] as number)).toBeLessThan(15_000);
  });
});
