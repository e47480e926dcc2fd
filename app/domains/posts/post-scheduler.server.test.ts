import { describe, expect, it } from "vitest";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { startPostScheduler } from "./post-scheduler.server.ts";
import { createPost, getPostForAdmin, setPostStatus } from "./posts.server.ts";

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
    const stop = startPostScheduler({ db: database.db, logger: quiet, pollMs: 60_000 });
    try {
      expect(await statusWithin(statusOf(id), "published", 300)).toBe("scheduled");
      expect(await statusWithin(statusOf(id), "published", 3000)).toBe("published");
      expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
      // Its publish time stays the scheduled one.
      expect((await getPostForAdmin(database.db, id))?.publishAt).toBe(at.toISOString());
    } finally {
      stop();
    }
  });

  it("finds a post scheduled after it started (here or by another process) at its next look", async () => {
    const stop = startPostScheduler({ db: database.db, logger: quiet, pollMs: 200 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const { id } = await scheduledIn(300, "Later");
      expect(await statusWithin(statusOf(id), "published", 2000)).toBe("published");
    } finally {
      stop();
    }
  });

  it("leaves drafts alone and stops when asked", async () => {
    const draft = await createPost(database.db, testAdmin, { title: "Draft" });
    if (!draft.ok) throw new Error("not created");
    const stop = startPostScheduler({ db: database.db, logger: quiet, pollMs: 50 });
    stop();
    const { id } = await scheduledIn(100, "After the stop");
    await new Promise((resolve) => setTimeout(resolve, 400));
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
    const stop = startPostScheduler({ db: database.db, logger: quiet, pollMs: 20 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    stop();
    expect(database.changeVersion()).toBe(before);
  });
});
