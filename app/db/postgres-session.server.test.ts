import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { hasPostgres, useTestDatabase } from "#tests/support/test-database.ts";
import { openDatabase } from "./database.server.ts";
import type { Database } from "./schema.ts";

/** random_page_cost as each of `count` connections of the pool sees it, all held at once (so all distinct). */
async function randomPageCosts(db: Kysely<Database>, count: number): Promise<string[]> {
  let arrived = 0;
  let release!: () => void;
  const together = new Promise<void>((resolve) => {
    release = resolve;
  });
  return Promise.all(
    Array.from({ length: count }, () =>
      db.connection().execute(async (connection) => {
        const { rows } = await sql<{ random_page_cost: string }>`SHOW random_page_cost`.execute(connection);
        arrived++;
        if (arrived === count) release();
        await together;
        return rows[0]?.random_page_cost ?? "";
      }),
    ),
  );
}

describe.skipIf(!hasPostgres)("the planner costs of the site's PostgreSQL connections", () => {
  const database = useTestDatabase("postgres", "each");

  it("price a random page read as from memory or SSD (1.1, not the default 4) on every connection", async () => {
    expect(await randomPageCosts(database.db, 3)).toEqual(["1.1", "1.1", "1.1"]);
  });

  it("keep a value the owner set for the database", async () => {
    const url = database.location.databaseUrl as string;
    const name = new URL(url).pathname.slice(1);
    await sql.raw(`ALTER DATABASE ${name} SET random_page_cost = 2`).execute(database.db);
    const reopened = openDatabase({ databaseUrl: url });
    try {
      expect(await randomPageCosts(reopened.db, 2)).toEqual(["2", "2"]);
    } finally {
      await reopened.close();
    }
  });
});
