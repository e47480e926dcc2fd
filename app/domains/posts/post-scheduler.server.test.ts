import { describe, expect, it } from "vitest";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { createPost, getPostForAdmin, setPostStatus } from "./post-admin.server.ts";
import { startPostScheduler } from "./post-scheduler.server.ts";

const quiet = { info: () => {}, error: (details: object) => console.error(details) };

async function statusWithin(read: () => Promise<string | undefined>, wanted: string, ms: number) {
  const until = Date.now() + ms;
  let status = await read();
  while (status !== wanted && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    status = await read();
  }
  return status;
}

/**
 * The scheduler's clock, counting its reads: each look reads it first, so the count tells how many looks have
 * begun (a look with a scheduled post reads it once more). Waiting for looks, not for a fixed time, holds on a
 * busy machine too.
 */
function countingClock(now: () => Date = () => new Date()) {
  const reads: number[] = [];
  return {
    now: () => {
      reads.push(Date.now());
      return now();
    },
    reads,
    async until(done: () => boolean, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`The scheduler's clock was read ${reads.length} times only`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

describe.each(databaseKinds)("the post scheduler (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  async function scheduledIn(ms: number, title: string) {
    const created = await createPost(database.db, testAdmin, { title });
    if (!created.ok) throw new Error("not created");
    const at = new Date(Date.now() + ms);
    const result = await setPostStatus(database.db, testAdmin, created.id, { status: "scheduled", publishAt: at });
    if (!result.ok) throw new Error("not scheduled");
    return { id: created.id, at };
  }
  const statusOf = (id: string) => async () => (await getPostForAdmin(database.db, id))?.status;

  it("publishes a scheduled post at its time, with nothing else asking", async () => {
    const { id, at } = await scheduledIn(1500, "On time");
    // A long poll: only the timer set for the due post can publish it in time.
    const stop = startPostScheduler({ db: database.db, kind, logger: quiet, pollMs: 60_000 });
    try {
      expect(await statusWithin(statusOf(id), "published", 300)).toBe("scheduled");
      expect(await statusWithin(statusOf(id), "published", 3000)).toBe("published");
      expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
      // Its publish time stays the scheduled one.
      expect((await getPostForAdmin(database.db, id))?.publishAt).toBe(at.toISOString());
    } finally {
      await stop();
    }
  });

  it("finds a post scheduled after it started (here or by another process) at its next look", async () => {
    const clock = countingClock();
    const stop = startPostScheduler({ db: database.db, kind, logger: quiet, now: clock.now, pollMs: 200 });
    try {
      // Its second look has begun, so its first (which found nothing) is over.
      await clock.until(() => clock.reads.length >= 2);
      const { id } = await scheduledIn(300, "Later");
      expect(await statusWithin(statusOf(id), "published", 2000)).toBe("published");
    } finally {
      await stop();
    }
  });

  it("leaves drafts alone and stops when asked", async () => {
    const draft = await createPost(database.db, testAdmin, { title: "Draft" });
    if (!draft.ok) throw new Error("not created");
    const clock = countingClock();
    const stop = startPostScheduler({ db: database.db, kind, logger: quiet, now: clock.now, pollMs: 50 });
    await stop();
    const readsAtStop = clock.reads.length;
    const { id, at } = await scheduledIn(100, "After the stop");
    // A control scheduler with the same poll, whose clock stands in the past (so it publishes nothing), shows
    // when a running one would have looked after the post's time: by then the stopped one has not looked again.
    const control = countingClock(() => new Date(0));
    const stopControl = startPostScheduler({ db: database.db, kind, logger: quiet, now: control.now, pollMs: 50 });
    try {
      await control.until(() => control.reads.filter((read) => read > at.getTime() + 100).length >= 2);
    } finally {
      await stopControl();
    }
    expect(clock.reads.length).toBe(readsAtStop);
    expect((await getPostForAdmin(database.db, id))?.status).toBe("scheduled");
    expect((await getPostForAdmin(database.db, draft.id))?.status).toBe("draft");
  });
});

describe.each(databaseKinds)("a look without due posts (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("writes nothing, so the page cache stays", async () => {
    const created = await createPost(database.db, testAdmin, { title: "Far ahead" });
    if (!created.ok) throw new Error("not created");
    await setPostStatus(database.db, testAdmin, created.id, {
      status: "scheduled",
      publishAt: new Date(Date.now() + 3_600_000),
    });
    // PostgreSQL tells of the commits above asynchronously (and its listener connects on first use): wait until
    // the version holds still.
    let before = database.changeVersion();
    for (let settled = false; !settled; ) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      const now = database.changeVersion();
      settled = now === before;
      before = now;
    }
    const clock = countingClock();
    const stop = startPostScheduler({ db: database.db, kind, logger: quiet, now: clock.now, pollMs: 20 });
    // At least three whole looks (each reads the clock twice with a post scheduled; the fourth has begun).
    await clock.until(() => clock.reads.length >= 7);
    await stop();
    expect(database.changeVersion()).toBe(before);
  });
});
