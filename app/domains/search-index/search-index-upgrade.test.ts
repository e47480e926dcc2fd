import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrateToLatest, migrateUpTo } from "#app/db/migrations.server.ts";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import { searchSite } from "#app/domains/search/search.server.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { createTestDatabase, databaseKinds } from "#tests/support/test-database.ts";
import { ID_SLOTS, scopeTerm } from "./document-ids.server.ts";

/**
 * Today's services write columns that later migrations add (0024's `posts.visibility`): given for the writes made
 * on the old schema, and taken away again before the migrations run, which add them as they would on a real site.
 */
async function addLaterColumns(db: Kysely<Database>) {
  await sql`ALTER TABLE posts ADD COLUMN visibility text NOT NULL DEFAULT 'everyone'`.execute(db);
}
async function dropLaterColumns(db: Kysely<Database>) {
  await sql`ALTER TABLE posts DROP COLUMN visibility`.execute(db);
}

/*
 * Migration 0022 renumbers a site's index by its items' dates and gives each row its scope term, in SQL: a site
 * indexed under 0021 searches as before, newest first, without a reindex.
 */
describe.each(databaseKinds)("the index of an upgraded site on %s", (kind) => {
  it("keeps every row, numbered by its item's date, with its scope, and still finds them", async () => {
    const database = await createTestDatabase(kind, { migrate: false });
    try {
      await migrateUpTo(database.db, database.kind, "0021_search_documents");
      // The services of today write ids of 0022's size; PostgreSQL's 0021 column is too small for them. The rows are
      // rewritten below as 0021 wrote them anyway.
      if (kind === "postgres") {
        await sql`ALTER TABLE search_documents ALTER COLUMN id TYPE bigint`.execute(database.db);
      }
      await addLaterColumns(database.db);
      const post = await createPost(database.db, testAdmin, { title: "River walk", body: "Along the river." });
      if (!post.ok) throw new Error("refused");
      await setPostStatus(database.db, testAdmin, post.id, { status: "published" });
      const faq = idOfAccepted(
        await faqService.create(database.db, testAdmin, {
          question: "Which river?",
          answer: "The near one.",
          question_de: "Welcher Fluss?",
          answer_de: "Der nahe.",
          active: true,
        }),
      );
      // The rows as 0021 wrote them (the services here already write 0022's): small ids, no scope term.
      const rows = await database.db
        .selectFrom("search_documents")
        .select(["kind", "item_id", "lang", "title_terms", "terms"])
        .orderBy("kind")
        .execute();
      await database.db.deleteFrom("search_documents").execute();
      for (const [index, row] of rows.entries()) {
        const scope = scopeTerm(row.kind, row.lang);
        await database.db
          .insertInto("search_documents")
          .values({ ...row, id: index + 1, terms: row.terms.replace(`${scope} `, "") })
          .execute();
      }

      await dropLaterColumns(database.db);
      await migrateToLatest(database.db, database.kind);

      const upgraded = await database.db
        .selectFrom("search_documents")
        .select(["id", "kind", "item_id", "lang", "terms"])
        .orderBy("kind")
        .orderBy("lang")
        .execute();
      expect(upgraded).toHaveLength(4);
      const posts = await database.db.selectFrom("posts").select(["publish_at"]).execute();
      const faqs = await database.db.selectFrom("faq_entries").select(["created_at"]).execute();
      const dates: Record<string, number> = {
        post: Date.parse(toIsoString(posts[0]?.publish_at ?? "")),
        faq: Date.parse(toIsoString(faqs[0]?.created_at ?? "")),
      };
      for (const row of upgraded) {
        expect(row.terms.startsWith(`${scopeTerm(row.kind, row.lang)} `), row.terms).toBe(true);
        // A row's id is its date's first slot, or the next one (its other language).
        const offset = Number(row.id) - (dates[row.kind] ?? 0) * ID_SLOTS;
        expect(offset, `${row.kind} ${row.lang}`).toBeGreaterThanOrEqual(0);
        expect(offset).toBeLessThan(2);
      }
      const found = await searchSite(database.db, { lang: "en", query: "river", page: 1 });
      expect(found.hits.map((hit) => hit.id).toSorted()).toEqual([faq, post.id].toSorted());
    } finally {
      await database.destroy();
    }
  });
  it("keeps its index through migration 0023, which makes it faster to read, and finds the same", async () => {
    const database = await createTestDatabase(kind, { migrate: false });
    try {
      await migrateUpTo(database.db, database.kind, "0022_search_documents_by_date");
      await addLaterColumns(database.db);
      const post = await createPost(database.db, testAdmin, { title: "Harbour lights", body: "Boats at night." });
      if (!post.ok) throw new Error("refused");
      await setPostStatus(database.db, testAdmin, post.id, { status: "published" });
      const before = await database.db.selectFrom("search_documents").selectAll().orderBy("id").execute();

      await dropLaterColumns(database.db);
      await migrateToLatest(database.db, database.kind);

      expect(await database.db.selectFrom("search_documents").selectAll().orderBy("id").execute()).toEqual(before);
      if (kind === "postgres") {
        const { rows } = await sql<{ relname: string; reloptions: string[] | null }>`
          SELECT relname, reloptions FROM pg_class
          WHERE relname IN ('search_documents_terms_idx', 'search_documents_title_idx') ORDER BY relname`.execute(
          database.db,
        );
        expect(rows).toEqual([
          { relname: "search_documents_terms_idx", reloptions: ["fastupdate=off"] },
          { relname: "search_documents_title_idx", reloptions: ["fastupdate=off"] },
        ]);
      } else {
        const { rows } = await sql<{ sql: string }>`
          SELECT sql FROM sqlite_master WHERE name = 'search_fts'`.execute(database.db);
        expect(rows[0]?.sql).toContain("detail=column");
      }
      // The rebuilt table finds the row written before, by a word, a beginning and a word of the title.
      for (const query of ["boats", "harb", "lights night"]) {
        const found = await searchSite(database.db, { lang: "en", query, page: 1 });
        expect(
          found.hits.map((hit) => hit.id),
          query,
        ).toEqual([post.id]);
      }
      // And the next save is indexed through the triggers made again.
      const second = await createPost(database.db, testAdmin, { title: "Harbour walls", body: "Stone." });
      if (!second.ok) throw new Error("refused");
      await setPostStatus(database.db, testAdmin, second.id, { status: "published" });
      const both = await searchSite(database.db, { lang: "en", query: "harbour", page: 1 });
      expect(both.hits.map((hit) => hit.id).toSorted()).toEqual([post.id, second.id].toSorted());
    } finally {
      await database.destroy();
    }
  });
});
