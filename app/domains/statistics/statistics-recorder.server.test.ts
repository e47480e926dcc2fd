import { describe, expect, it } from "vitest";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { type CountedView, createStatisticsRecorder, VISIT_GAP_MS } from "./statistics-recorder.server.ts";

// The recorder on each database (issue 46): several instances add up and count a visitor once; a day's salt and
// visitor hashes are gone the next day, and the retention setting removes old daily sums; a visit's first and last
// pages; nothing noted is lost when a write fails.

const DAY1 = new Date("2026-03-01T10:00:00Z");
const DAY2 = new Date("2026-03-02T09:00:00Z");

function view(at: Date, page: string, client = "198.51.100.7", extra: Partial<CountedView> = {}): CountedView {
  return {
    at,
    page,
    status: 200,
    data: false,
    client,
    userAgent: "Mozilla/5.0 test",
    member: false,
    language: "en",
    device: "desktop",
    referrer: null,
    utmSource: null,
    ...extra,
  };
}

describe.each(databaseKinds)("the statistics recorder (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const recorderOn = (retentionDays = 0) =>
    createStatisticsRecorder({
      db: database.db,
      site: "https://example.test",
      retentionDays: async () => retentionDays,
      onError: (error) => {
        throw error;
      },
    });
  const daily = async (kind: string, key: string) => {
    const row = await database.db
      .selectFrom("stats_daily")
      .select(["day", "views", "visitors"])
      .where("kind", "=", kind)
      .where("key", "=", key)
      .orderBy("day")
      .execute();
    return row.map((entry) => ({ day: entry.day, views: Number(entry.views), visitors: Number(entry.visitors) }));
  };

  it("adds up two instances' views and counts a visitor they both saw once", async () => {
    const [one, two] = [recorderOn(), recorderOn()];
    one.record(view(DAY1, "/"));
    two.record(view(new Date(DAY1.getTime() + 1000), "/"));
    two.record(view(DAY1, "/", "198.51.100.8"));
    await one.flush(DAY1);
    await two.flush(DAY1);
    expect(await daily("page", "/")).toEqual([{ day: "2026-03-01", views: 3, visitors: 2 }]);
    expect(await daily("site", "")).toEqual([{ day: "2026-03-01", views: 3, visitors: 2 }]);
  });

  it("forgets the day's salt and visitor hashes the next day, and the same visitor counts anew", async () => {
    const recorder = recorderOn();
    recorder.record(view(DAY1, "/"));
    await recorder.flush(DAY1);
    const salts = () => database.db.selectFrom("stats_salts").select("day").execute();
    const seen = () => database.db.selectFrom("stats_seen").select("day").distinct().execute();
    expect(await salts()).toEqual([{ day: "2026-03-01" }]);
    expect(await seen()).toEqual([{ day: "2026-03-01" }]);
    recorder.record(view(DAY2, "/"));
    await recorder.flush(DAY2);
    expect(await salts()).toEqual([{ day: "2026-03-02" }]);
    expect(await seen()).toEqual([{ day: "2026-03-02" }]);
    expect(await daily("page", "/")).toEqual([
      { day: "2026-03-01", views: 1, visitors: 1 },
      { day: "2026-03-02", views: 1, visitors: 1 },
    ]);
  });

  it("removes the daily sums older than the retention, and keeps them for ever at 0", async () => {
    const keepAll = recorderOn(0);
    keepAll.record(view(new Date("2025-01-01T12:00:00Z"), "/old"));
    await keepAll.flush(new Date("2025-01-01T12:00:00Z"));
    keepAll.record(view(DAY1, "/"));
    await keepAll.flush(DAY1);
    expect(await daily("page", "/old")).toHaveLength(1);
    const thirtyDays = recorderOn(30);
    await thirtyDays.flush(DAY1);
    expect(await daily("page", "/old")).toEqual([]);
    expect(await daily("page", "/")).toHaveLength(1);
  });

  it("counts a visit's first and last pages, the last once the visitor has been away for half an hour", async () => {
    const recorder = recorderOn();
    recorder.record(view(DAY1, "/"));
    recorder.record(view(new Date(DAY1.getTime() + 60_000), "/blog", undefined, { data: true }));
    // The same data asked for again at once is a revalidation: no view.
    expect(recorder.record(view(new Date(DAY1.getTime() + 61_000), "/blog", undefined, { data: true }))).toBe(false);
    await recorder.flush(new Date(DAY1.getTime() + 62_000));
    expect(await daily("entry", "/")).toEqual([{ day: "2026-03-01", views: 1, visitors: 0 }]);
    expect(await daily("exit", "/blog")).toEqual([]);
    await recorder.flush(new Date(DAY1.getTime() + 60_000 + VISIT_GAP_MS + 1000));
    expect(await daily("exit", "/blog")).toEqual([{ day: "2026-03-01", views: 1, visitors: 0 }]);
    expect(await daily("page", "/blog")).toEqual([{ day: "2026-03-01", views: 1, visitors: 1 }]);
  });

  it("keeps what it noted when a write fails, and writes it with the next", async () => {
    const failing = createStatisticsRecorder({
      db: database.db,
      site: "https://example.test",
      retentionDays: async () => 0,
      onError: () => {},
    });
    failing.record(view(DAY1, "/"));
    await database.db.schema.alterTable("stats_daily").renameTo("stats_daily_away").execute();
    await expect(failing.flush(DAY1)).rejects.toThrow();
    expect(failing.pending()).toBe(1);
    await database.db.schema.alterTable("stats_daily_away").renameTo("stats_daily").execute();
    await failing.flush(DAY1);
    expect(failing.pending()).toBe(0);
    expect(await daily("page", "/")).toEqual([{ day: "2026-03-01", views: 1, visitors: 1 }]);
  });
});
