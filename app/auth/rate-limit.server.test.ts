import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/database.server.ts";
import {
  createTestDatabase,
  databaseKinds,
  hasPostgres,
  type TestDatabase,
  useTestDatabase,
} from "#tests/support/test-database.ts";
import { FailedAttemptLimiter, sweepAttemptCounts } from "./rate-limit.server.ts";

describe.each(databaseKinds)("failed attempt limiter (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  function limiter(maxFailures = 3, windowMs = 60_000, scope = "test") {
    const clock = { now: 1_000_000 };
    return { clock, limiter: new FailedAttemptLimiter(database.db, scope, maxFailures, windowMs, () => clock.now) };
  }

  it("lets an address try until it reaches the limit", async () => {
    const { limiter: l } = limiter(3);
    await l.recordFailure("10.0.0.1");
    await l.recordFailure("10.0.0.1");
    expect(await l.retryAfterMs("10.0.0.1")).toBe(0);

    await l.recordFailure("10.0.0.1");

    expect(await l.retryAfterMs("10.0.0.1")).toBe(60_000);
  });

  it("counts down to the end of the window, then forgives", async () => {
    const { clock, limiter: l } = limiter(2, 60_000);
    await l.recordFailure("a");
    clock.now += 10_000;
    await l.recordFailure("a");

    // The window started with the first failure.
    expect(await l.retryAfterMs("a")).toBe(50_000);
    clock.now += 49_999;
    expect(await l.retryAfterMs("a")).toBe(1);
    clock.now += 1;
    expect(await l.retryAfterMs("a")).toBe(0);
  });

  it("starts a fresh count after the window", async () => {
    const { clock, limiter: l } = limiter(2, 60_000);
    await l.recordFailure("a");
    clock.now += 60_000;

    await l.recordFailure("a");

    expect(await l.retryAfterMs("a")).toBe(0);
    // The new window started with that failure.
    await l.recordFailure("a");
    expect(await l.retryAfterMs("a")).toBe(60_000);
  });

  it("keeps addresses apart, and limits apart on one address", async () => {
    const { limiter: l } = limiter(1);
    const other = new FailedAttemptLimiter(database.db, "other", 1, 60_000, () => 1_000_000);
    await l.recordFailure("a");
    expect(await l.retryAfterMs("a")).toBeGreaterThan(0);
    expect(await l.retryAfterMs("b")).toBe(0);
    expect(await other.retryAfterMs("a")).toBe(0);
  });

  it("counts attempts up front, so attempts sent at once cannot all get through", async () => {
    const { limiter: l } = limiter(3);
    const started = await Promise.all(Array.from({ length: 10 }, () => l.begin("a")));

    expect(started.filter((wait) => wait === 0)).toHaveLength(3);
    expect(started.filter((wait) => wait > 0)).toHaveLength(7);
    // Refused attempts were not counted.
    const [row] = await database.db.selectFrom("attempt_counts").select("failures").execute();
    expect(row?.failures).toBe(3);
  });

  it("answers a refused attempt with the time left in the window", async () => {
    const { clock, limiter: l } = limiter(2, 60_000);
    expect(await l.begin("a")).toBe(0);
    clock.now += 15_000;
    expect(await l.begin("a")).toBe(0);
    expect(await l.begin("a")).toBe(45_000);
    clock.now += 45_000;
    expect(await l.begin("a")).toBe(0);
  });

  it("a success forgives only its own attempt, not the address's earlier failures", async () => {
    const { limiter: l } = limiter(3);
    await l.begin("a");
    await l.begin("a");
    await l.begin("a");
    await l.forgive("a");
    expect(await l.retryAfterMs("a")).toBe(0);

    expect(await l.begin("a")).toBe(0);
    expect(await l.retryAfterMs("a")).toBeGreaterThan(0);
  });

  it("forgives nothing for an address it does not know", async () => {
    const { limiter: l } = limiter(1);
    await l.forgive("b");
    expect(await l.begin("b")).toBe(0);
    expect(await l.begin("b")).toBeGreaterThan(0);
  });

  it("forgets an address all of whose attempts were forgiven: its next attempt starts a window of its own", async () => {
    const { clock, limiter: l } = limiter(1, 60_000);
    expect(await l.begin("a")).toBe(0);
    await l.forgive("a");
    expect(await database.db.selectFrom("attempt_counts").selectAll().execute()).toEqual([]);
    clock.now += 30_000;
    expect(await l.begin("a")).toBe(0);
    expect(await l.begin("a")).toBe(60_000);
  });

  it("sweeps the rows of ended windows only", async () => {
    const { clock, limiter: l } = limiter(3, 60_000);
    await l.recordFailure("old");
    for (let index = 0; index < 7; index++) await l.recordFailure(`old-${index}`);
    clock.now += 30_000;
    await l.recordFailure("new");
    // In batches of 3: 8 ended windows, the one still running is kept.
    expect(await sweepAttemptCounts(database.db, new Date(clock.now + 30_000), 3)).toBe(8);
    const rows = await database.db.selectFrom("attempt_counts").select("key").execute();
    expect(rows.map((row) => row.key)).toEqual(["new"]);
  });

  it("holds one count for two limiters on one database, as two server processes would have", async () => {
    // A second connection to the same database: what another process opens.
    const second =
      kind === "postgres"
        ? openDatabase({ databaseUrl: database.location.databaseUrl })
        : openDatabase({ sqliteFile: database.location.sqliteFile });
    try {
      const now = () => 1_000_000;
      const first = new FailedAttemptLimiter(database.db, "auth", 4, 60_000, now);
      const other = new FailedAttemptLimiter(second.db, "auth", 4, 60_000, now);
      expect(await first.begin("10.0.0.1")).toBe(0);
      expect(await other.begin("10.0.0.1")).toBe(0);
      expect(await first.begin("10.0.0.1")).toBe(0);
      expect(await other.begin("10.0.0.1")).toBe(0);
      expect(await first.begin("10.0.0.1")).toBe(60_000);
      expect(await other.begin("10.0.0.1")).toBe(60_000);
      // A success on one is forgiven for both.
      await other.forgive("10.0.0.1");
      expect(await first.retryAfterMs("10.0.0.1")).toBe(0);
    } finally {
      await second.close();
    }
  });
});

describe.skipIf(!hasPostgres)("failed attempt limiter under concurrency (postgres)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it("lets exactly the limit through of 50 attempts sent at once over two processes' pools", async () => {
    const second = openDatabase({ databaseUrl: database.location.databaseUrl });
    try {
      const now = () => 5_000_000;
      const limiters = [database.db, second.db].map((db) => new FailedAttemptLimiter(db, "auth", 10, 60_000, now));
      const on = (index: number) => limiters[index % 2] as FailedAttemptLimiter;
      const waits = await Promise.all(Array.from({ length: 50 }, (_, index) => on(index).begin("203.0.113.7")));
      expect(waits.filter((wait) => wait === 0)).toHaveLength(10);
      expect(waits.filter((wait) => wait === 60_000)).toHaveLength(40);
      const rows = await database.db.selectFrom("attempt_counts").select(["key", "failures"]).execute();
      expect(rows).toEqual([{ key: "203.0.113.7", failures: 10 }]);

      // Forgiving and counting at once: each success gives back exactly its own attempt, and the count never
      // passes the limit, whichever order they ran in.
      const [, admitted] = await Promise.all([
        Promise.all(Array.from({ length: 5 }, (_, index) => on(index).forgive("203.0.113.7"))),
        Promise.all(Array.from({ length: 20 }, (_, index) => on(index).begin("203.0.113.7"))),
      ]);
      const after = await database.db.selectFrom("attempt_counts").select("failures").executeTakeFirst();
      expect(after?.failures).toBe(10 - 5 + admitted.filter((wait) => wait === 0).length);
      expect(after?.failures).toBeLessThanOrEqual(10);
    } finally {
      await second.close();
    }
  });
});
