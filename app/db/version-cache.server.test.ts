import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#tests/support/test-database.ts";
import { cachedUntilChanged } from "./version-cache.server.ts";

describe("data kept until the database changes", () => {
  const database = useTestDatabase("sqlite", "each");

  it("computes once per change version, and again once the version moved", async () => {
    let runs = 0;
    const compute = async () => ++runs;
    expect(await cachedUntilChanged(database.db, "count", compute)).toBe(1);
    expect(await cachedUntilChanged(database.db, "count", compute)).toBe(1);
    // Another key is another value.
    expect(await cachedUntilChanged(database.db, "other", compute)).toBe(2);
    await database.db.updateTable("site_settings").set({ value: "x" }).where("key", "=", "site_name").execute();
    expect(await cachedUntilChanged(database.db, "count", compute)).toBe(3);
    expect(await cachedUntilChanged(database.db, "count", compute)).toBe(3);
  });

  it("keeps the value under the version seen before computing: a write meanwhile means computing again", async () => {
    let runs = 0;
    const first = await cachedUntilChanged(database.db, "racing", async () => {
      runs++;
      // A write lands while the value is being computed.
      await database.db.updateTable("site_settings").set({ value: "y" }).where("key", "=", "site_name").execute();
      return "before the write";
    });
    expect(first).toBe("before the write");
    expect(await cachedUntilChanged(database.db, "racing", async () => `run ${++runs}`)).toBe("run 2");
  });

  it("keeps no failure, and computes afresh for a transaction", async () => {
    await expect(cachedUntilChanged(database.db, "failing", () => Promise.reject(new Error("gone")))).rejects.toThrow(
      "gone",
    );
    expect(await cachedUntilChanged(database.db, "failing", async () => "fine")).toBe("fine");

    let runs = 0;
    await database.db.transaction().execute(async (trx) => {
      await cachedUntilChanged(trx, "in a transaction", async () => ++runs);
      await cachedUntilChanged(trx, "in a transaction", async () => ++runs);
    });
    expect(runs).toBe(2);
  });
});
