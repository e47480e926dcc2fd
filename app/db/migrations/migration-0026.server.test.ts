import { describe, expect, it } from "vitest";
import { migrateToLatest, migrateUpTo } from "#app/db/migrations.server.ts";
import { createTestDatabase, databaseKinds } from "#tests/support/test-database.ts";

/*
 * Migration 0026 counts the posts already out as announced: turning subscriptions on must not mail the archive,
 * while a post scheduled for later, or a draft, is still announced when it comes out.
 */

const HOUR = 60 * 60_000;

describe.each(databaseKinds)("migration 0026 (%s)", (kind) => {
  it("marks the posts out at the upgrade as announced, and only those", async () => {
    const database = await createTestDatabase(kind, { migrate: false });
    try {
      await migrateUpTo(database.db, kind, "0024_member_groups");
      const now = Date.now();
      const post = (id: string, status: "draft" | "scheduled" | "published", publishAt: number | null) => ({
        id,
        author_id: "admin-1",
        status,
        publish_at: publishAt === null ? null : new Date(publishAt),
        title: id,
        title_de: "",
        slug: id,
        slug_de: id,
        excerpt: "",
        excerpt_de: "",
        body: "",
        body_de: "",
        cover_image_id: null,
        cover_alt: "",
        cover_alt_de: "",
        created_at: new Date(now - 2 * HOUR),
        updated_at: new Date(now - 2 * HOUR),
      });
      await database.db
        .insertInto("posts")
        .values([
          post("out", "published", now - HOUR),
          post("due", "scheduled", now - HOUR),
          post("later", "scheduled", now + HOUR),
          post("draft", "draft", null),
        ])
        .execute();
      await migrateToLatest(database.db, kind);
      const announced = await database.db.selectFrom("announcements").select(["kind", "item_id"]).execute();
      expect(announced.map((row) => `${row.kind}:${row.item_id}`).sort()).toEqual(["post:due", "post:out"]);
      expect(await database.db.selectFrom("announcement_recipients").selectAll().execute()).toEqual([]);
    } finally {
      await database.destroy();
    }
  });
});
