import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { createTestDatabase, databaseKinds, hasPostgres, type TestDatabase } from "#tests/support/test-database.ts";
import { searchSite } from "./search.server.ts";
import { SEARCH_PAGE_SIZE } from "./search-schema.ts";

/** The same small site on any database: written in one order, with a millisecond between items (newest last). */
async function fillSite(db: Kysely<Database>) {
  const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
  const faq = async (question: string, answer: string, question_de = "", answer_de = "") => {
    idOfAccepted(await faqService.create(db, testAdmin, { question, answer, question_de, answer_de, active: true }));
    await pause();
  };
  await faq("Otter notes", "Nothing to add.");
  await faq("Field notes", "About the otter and the heron.", "Feldnotizen", "Über den Fischotter und den Reiher.");
  await faq("Otter river walks", "Along the water.", "Otterwanderungen am Fluss", "Am Wasser entlang.");
  for (let index = 1; index <= SEARCH_PAGE_SIZE + 5; index++) await faq(`Badger ${index}`, "Stripes and burrows.");
  const post = await createPost(db, testAdmin, {
    title: "Running by the river",
    title_de: "Laufen am Fluss",
    body: "We ran along the river, photographing otters.",
    body_de: "Wir liefen am Fluss entlang und fotografierten Fischotter.",
    tags: "river, otters",
  });
  if (!post.ok) throw new Error("refused");
  await setPostStatus(db, testAdmin, post.id, { status: "published" });
}

const QUERIES: [lang: "en" | "de", query: string][] = [
  ["en", "otter"],
  ["en", "otters river"],
  ["en", "river"],
  ["en", "notes"],
  ["en", "badger"],
  ["en", "run"],
  ["en", "photograph"],
  ["en", "stripe burrow"],
  ["en", "ot"],
  ["de", "otter"],
  ["de", "fluss"],
  ["de", "fischotter"],
  ["de", "wanderung"],
  ["de", "fotografieren"],
  ["de", "reiher"],
];

describe.each(databaseKinds)("search: order and pages (%s)", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await fillSite(database.db);
  });
  afterAll(() => database.destroy());

  const titles = async (query: string, lang: "en" | "de" = "en", page = 1) =>
    (await searchSite(database.db, { lang, query, page })).hits.map((hit) => hit.title);

  it("puts title matches first, then the newest", async () => {
    expect(await titles("otter")).toEqual(["Otter river walks", "Otter notes", "Running by the river", "Field notes"]);
  });

  it("pages by SEARCH_PAGE_SIZE, a page past the last showing the last", async () => {
    const first = await searchSite(database.db, { lang: "en", query: "badger", page: 1 });
    expect(first).toMatchObject({ total: SEARCH_PAGE_SIZE + 5, page: 1, pageCount: 2 });
    expect(first.hits).toHaveLength(SEARCH_PAGE_SIZE);
    expect(first.hits[0]?.title).toBe(`Badger ${SEARCH_PAGE_SIZE + 5}`);
    const second = await searchSite(database.db, { lang: "en", query: "badger", page: 2 });
    expect(second.hits.map((hit) => hit.title)).toEqual(["Badger 5", "Badger 4", "Badger 3", "Badger 2", "Badger 1"]);
    expect(await searchSite(database.db, { lang: "en", query: "badger", page: 9 })).toMatchObject({ page: 2 });
  });
});

describe.skipIf(!hasPostgres)("search: the same answers on SQLite and PostgreSQL", () => {
  const databases = new Map<DatabaseKind, TestDatabase>();
  beforeAll(async () => {
    for (const kind of ["sqlite", "postgres"] as const) {
      const database = await createTestDatabase(kind);
      databases.set(kind, database);
      await fillSite(database.db);
    }
  });
  afterAll(async () => {
    for (const database of databases.values()) await database.destroy();
  });

  it.each(QUERIES)("%s: %s", async (lang, query) => {
    const answers = [];
    for (const database of databases.values()) {
      const result = await searchSite(database.db, { lang, query, page: 1 });
      answers.push({
        total: result.total,
        hits: result.hits.map((hit) => [
          hit.kind,
          hit.title,
          hit.url.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, "<id>"),
          hit.snippet,
        ]),
      });
    }
    expect(answers[0]?.total).toBeGreaterThan(0);
    expect(answers[1]).toEqual(answers[0]);
  });
});
