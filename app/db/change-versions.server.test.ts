import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { insertFaqRow } from "#tests/support/factories.ts";
import { useTestDatabase } from "#tests/support/test-database.ts";
import { recordWrites, WriteLog } from "./change-versions.server.ts";

/** What the end of a write request moves (server/app.ts): the areas its writes touched, else every area. */
describe("the writes of one request", () => {
  const database = useTestDatabase("sqlite", "each");

  it("are recorded by area, across awaits, and move only those areas", async () => {
    const log = new WriteLog();
    await recordWrites(log, async () => {
      await insertFaqRow(database.db, { question: "Q", active: true });
      await database.db.selectFrom("links").selectAll().execute();
      await database.db.deleteFrom("session").where("id", "=", "none").execute();
    });
    expect(log.areasToMove()).toEqual(["faq", "sessions"]);
    const gallery = database.changeVersion(["gallery"]);
    database.noteChange(log.areasToMove());
    expect(database.changeVersion(["gallery"])).toBe(gallery);
  });

  it("move every area when a write cannot be classified, or when no write was seen at all", async () => {
    const unknown = new WriteLog();
    await recordWrites(unknown, async () => {
      await sql`INSERT INTO faq_entries SELECT * FROM faq_entries WHERE 0`.execute(database.db);
      await sql`REPLACE INTO site_settings (key, value) VALUES ('x', 'y')`.execute(database.db);
    });
    expect(unknown.areasToMove()).toBeUndefined();
    const raw = new WriteLog();
    await recordWrites(raw, () => sql`UPDATE "links" SET active = active WHERE 0`.execute(database.db));
    expect(raw.areasToMove()).toEqual(["links"]);
    expect(new WriteLog().areasToMove()).toBeUndefined();
  });
});
