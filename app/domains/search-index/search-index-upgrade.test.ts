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
import { ID_SLOTS, scopeRange } from "./document-ids.server.ts";

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

/** An active FAQ entry about a river, in both languages. */
async function addRiverQuestion(db: Kysely<Database>): Promise<string> {
  return idOfAccepted(
    await faqService.create(db, testAdmin, {
      question: "Which river?",
      answer: "The near one.",
      question_de: "Welcher Fluss?",
      answer_de: "Der nahe.",
      active: true,
    }),
  );
}

/** The scope term 0022 put first in each row's `terms` (0028 took it out again). */
const scopeTermOf0022 = (kind: string, lang: string) => `_k${kind}_${lang}`;
/** 0022's ids: the item's date in milliseconds × 1024 plus a slot. */
const SLOTS_0022 = 1024;

/** Each indexed item's date in milliseconds: a post's publication (its creation while a draft), else its creation. */
async function itemDates(db: Kysely<Database>): Promise<Map<string, number>> {
  const dates = new Map<string, number>();
  for (const post of await db.selectFrom("posts").select(["id", "publish_at", "created_at"]).execute())
    dates.set(post.id, Date.parse(toIsoString(post.publish_at ?? post.created_at)));
  for (const faq of await db.selectFrom("faq_entries").select(["id", "created_at"]).execute())
    dates.set(faq.id, Date.parse(toIsoString(faq.created_at)));
  return dates;
}

/** Rewrites the index as 0022 wrote it (today's services write 0028's): ids of 0022, scope terms first. */
async function writeIndexAs0022(db: Kysely<Database>) {
  const dates = await itemDates(db);
  const rows = await db
    .selectFrom("search_documents")
    .select(["kind", "item_id", "lang", "title_terms", "terms"])
    .orderBy("kind")
    .orderBy("lang")
    .execute();
  await db.deleteFrom("search_documents").execute();
  const taken = new Set<number>();
  for (const row of rows) {
    let id = (dates.get(row.item_id) ?? 0) * SLOTS_0022;
    while (taken.has(id)) id++;
    taken.add(id);
    const terms = [scopeTermOf0022(row.kind, row.lang), row.terms].filter(Boolean).join(" ");
    await db
      .insertInto("search_documents")
      .values({ ...row, id, terms })
      .execute();
  }
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
      // The services of today write ids of 0028's size; PostgreSQL's 0021 column is too small for them. The rows are
      // rewritten below as 0021 wrote them anyway.
      if (kind === "postgres") {
        await sql`ALTER TABLE search_documents ALTER COLUMN id TYPE bigint`.execute(database.db);
      }
      await addLaterColumns(database.db);
      const post = await createPost(database.db, testAdmin, { title: "River walk", body: "Along the river." });
      if (!post.ok) throw new Error("refused");
      await setPostStatus(database.db, testAdmin, post.id, { status: "published" });
      const faq = await addRiverQuestion(database.db);
      // The rows as 0021 wrote them (the services here write 0028's): small ids, no scope term.
      const rows = await database.db
        .selectFrom("search_documents")
        .select(["kind", "item_id", "lang", "title_terms", "terms"])
        .orderBy("kind")
        .execute();
      await database.db.deleteFrom("search_documents").execute();
      for (const [index, row] of rows.entries()) {
        await database.db
          .insertInto("search_documents")
          .values({ ...row, id: index + 1 })
          .execute();
      }

      await dropLaterColumns(database.db);
      await migrateUpTo(database.db, database.kind, "0022_search_documents_by_date");

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
        expect(row.terms.startsWith(`${scopeTermOf0022(row.kind, row.lang)} `), row.terms).toBe(true);
        // A row's id is its date's first slot, or the next one (its other language).
        const offset = Number(row.id) - (dates[row.kind] ?? 0) * SLOTS_0022;
        expect(offset, `${row.kind} ${row.lang}`).toBeGreaterThanOrEqual(0);
        expect(offset).toBeLessThan(2);
      }
      await migrateToLatest(database.db, database.kind);
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
      await writeIndexAs0022(database.db);
      const before = await database.db.selectFrom("search_documents").selectAll().orderBy("id").execute();

      await dropLaterColumns(database.db);
      await migrateUpTo(database.db, database.kind, "0023_search_index_read_faster");

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
      await migrateToLatest(database.db, database.kind);
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
  it("moves its rows into ranges of kind and language with migration 0028, in the same order, and finds the same", async () => {
    const database = await createTestDatabase(kind, { migrate: false });
    try {
      await migrateUpTo(database.db, database.kind, "0027_albums");
      const posts: string[] = [];
      for (const [title, publishAt] of [
        ["Old river", "2019-05-01T10:00:00.000Z"],
        ["New river", "2024-05-01T10:00:00.000Z"],
      ] as const) {
        const post = await createPost(database.db, testAdmin, { title, body: "Water." });
        if (!post.ok) throw new Error("refused");
        await setPostStatus(database.db, testAdmin, post.id, { status: "published", publishAt });
        posts.push(post.id);
      }
      const faq = await addRiverQuestion(database.db);
      // The terms as today's services write them: what the migrated rows must hold.
      const written = new Map(
        (await database.db.selectFrom("search_documents").select(["item_id", "lang", "terms"]).execute()).map((row) => [
          `${row.item_id} ${row.lang}`,
          row.terms,
        ]),
      );
      await writeIndexAs0022(database.db);

      await migrateToLatest(database.db, database.kind);

      const dates = await itemDates(database.db);
      const rows = await database.db
        .selectFrom("search_documents")
        .select(["id", "kind", "item_id", "lang", "terms"])
        .orderBy("id")
        .execute();
      expect(rows).toHaveLength(6);
      for (const row of rows) {
        const range = scopeRange([row.kind], row.lang as "en" | "de");
        // In its kind's and language's range, at its date's first slot; no scope term left.
        expect(Number(row.id) - range.from, `${row.kind} ${row.lang}`).toBe((dates.get(row.item_id) ?? 0) * ID_SLOTS);
        expect(row.terms, `${row.kind} ${row.lang}`).toBe(written.get(`${row.item_id} ${row.lang}`));
      }
      // Each language's posts, oldest first, then its FAQ entry; English before German.
      expect(rows.map((row) => `${row.lang} ${row.item_id}`)).toEqual([
        `en ${posts[0]}`,
        `en ${posts[1]}`,
        `en ${faq}`,
        `de ${posts[0]}`,
        `de ${posts[1]}`,
        `de ${faq}`,
      ]);
      // (The posts have no German text: German readers search their English one. The FAQ entry has its own.)
      for (const [lang, query] of [
        ["en", "river"],
        ["de", "river fluss"],
        ["de", "riv"],
      ] as const) {
        const found = await searchSite(database.db, { lang, query, page: 1 });
        const expected = query === "river fluss" ? [] : lang === "en" ? [...posts, faq] : posts;
        expect(found.hits.map((hit) => hit.id).toSorted(), `${lang} ${query}`).toEqual(expected.toSorted());
      }
      const german = await searchSite(database.db, { lang: "de", query: "Fluss", page: 1 });
      expect(german.hits.map((hit) => hit.id)).toEqual([faq]);
      // The next save is indexed in its range, beside the renumbered rows (FTS5's triggers made again).
      const next = await createPost(database.db, testAdmin, { title: "River mouth", body: "Sea." });
      if (!next.ok) throw new Error("refused");
      await setPostStatus(database.db, testAdmin, next.id, { status: "published" });
      const found = await searchSite(database.db, { lang: "en", query: "river mou", page: 1 });
      expect(found.hits.map((hit) => hit.id)).toEqual([next.id]);
    } finally {
      await database.destroy();
    }
  });
});
