import { describe, expect, it } from "vitest";
import { changeVersionWaits } from "#tests/support/change-version-waits.ts";
import { insertFaqRow } from "#tests/support/factories.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import type { ChangeArea } from "./change-areas.ts";
import { type AppDatabase, openDatabase } from "./database.server.ts";
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

describe.each(databaseKinds)("kept values by area (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const { until, listening, write } = changeVersionWaits(database, kind);

  /** A kept gallery value and a kept settings value, each counting its computations. */
  function keptValues() {
    const runs = { gallery: 0, settings: 0 };
    return {
      runs,
      read: async () => {
        await cachedUntilChanged(database.db, "gallery", async () => ++runs.gallery, ["gallery", "media"]);
        await cachedUntilChanged(database.db, "settings", async () => ++runs.settings, ["settings"]);
        return { ...runs };
      },
    };
  }

  it("keeps a gallery value through a FAQ write, and drops it with a gallery write", async () => {
    await listening();
    const values = keptValues();
    expect(await values.read()).toEqual({ gallery: 1, settings: 1 });
    await write("faq", () => insertFaqRow(database.db, { question: "faq-1", active: true }));
    expect(await values.read()).toEqual({ gallery: 1, settings: 1 });
    await write("gallery", () =>
      database.db.updateTable("gallery_images").set({ sort_order: 5 }).where("id", "=", "none").execute(),
    );
    expect(await values.read()).toEqual({ gallery: 2, settings: 1 });
    await write("settings", () =>
      database.db.updateTable("site_settings").set({ value: "x" }).where("key", "=", "site_name").execute(),
    );
    expect(await values.read()).toEqual({ gallery: 2, settings: 2 });
    // A value that names no areas depends on everything.
    let everything = 0;
    await cachedUntilChanged(database.db, "everything", async () => ++everything);
    await write("faq", () => insertFaqRow(database.db, { question: "faq-2", active: true }));
    await cachedUntilChanged(database.db, "everything", async () => ++everything);
    expect(everything).toBe(2);
  });

  it("drops what another process's commit may have changed: every area on SQLite, the table's on PostgreSQL", async () => {
    await listening();
    const values = keptValues();
    await values.read();
    /** A write by a second connection (SQLite) or pool (PostgreSQL), as another process makes it. */
    const elsewhere = async (area: ChangeArea, run: (other: AppDatabase) => Promise<unknown>) => {
      const start = database.changeVersion([area]);
      const other = openDatabase(database.location);
      try {
        await run(other);
      } finally {
        await other.close();
      }
      // PostgreSQL tells a moment later, by a notification naming the table.
      await until(() => database.changeVersion([area]) > start);
    };
    await elsewhere("faq", (other) => insertFaqRow(other.db, { question: "elsewhere", active: true }));
    if (kind === "sqlite") {
      // SQLite tells that another connection committed, not what: everything goes.
      expect(await values.read()).toEqual({ gallery: 2, settings: 2 });
      return;
    }
    expect(await values.read()).toEqual({ gallery: 1, settings: 1 });
    await elsewhere("gallery", (other) =>
      other.db.updateTable("gallery_images").set({ sort_order: 5 }).where("id", "=", "none").execute(),
    );
    expect(await values.read()).toEqual({ gallery: 2, settings: 1 });
  });
});
