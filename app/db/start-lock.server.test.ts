import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, hasPostgres, type TestDatabase } from "#tests/support/test-database.ts";
import { type AppDatabase, openDatabase } from "./database.server.ts";
import { withStartLock } from "./start-lock.server.ts";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function testDatabase(kind: TestDatabase["kind"]): Promise<TestDatabase> {
  const database = await createTestDatabase(kind, { migrate: false });
  cleanup.push(() => database.destroy());
  return database;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the start lock", () => {
  it.skipIf(!hasPostgres)("lets one process at a time through on PostgreSQL, the others waiting for it", async () => {
    const database = await testDatabase("postgres");
    // Three processes' pools on one database, as three instances have.
    const second = openDatabase({ databaseUrl: database.location.databaseUrl });
    const third = openDatabase({ databaseUrl: database.location.databaseUrl });
    cleanup.push(
      () => second.close(),
      () => third.close(),
    );
    const events: string[] = [];
    let waited = 0;
    const turn = (name: string, db: AppDatabase) =>
      withStartLock(
        db,
        async () => {
          events.push(`${name} in`);
          await pause(150);
          events.push(`${name} out`);
          return name;
        },
        () => waited++,
      );

    const results = await Promise.all([turn("a", database), turn("b", second), turn("c", third)]);

    expect(results).toEqual(["a", "b", "c"]);
    // Never two inside at once: each "in" is followed by its own "out".
    for (let index = 0; index < events.length; index += 2) {
      expect(events[index + 1]).toBe(events[index]?.replace(" in", " out"));
    }
    expect(waited).toBe(2);
  });

  it.skipIf(!hasPostgres)("is free again when the work fails, and the failure is the caller's", async () => {
    const database = await testDatabase("postgres");
    await expect(
      withStartLock(database, async () => {
        throw new Error("migration failed");
      }),
    ).rejects.toThrow("migration failed");
    let waited = false;
    const other = openDatabase({ databaseUrl: database.location.databaseUrl });
    cleanup.push(() => other.close());
    expect(
      await withStartLock(
        other,
        async () => "through",
        () => {
          waited = true;
        },
      ),
    ).toBe("through");
    expect(waited).toBe(false);
  });

  it("runs the work as it is on SQLite", async () => {
    const database = await testDatabase("sqlite");
    expect(await withStartLock(database, async () => 42)).toBe(42);
  });
});
