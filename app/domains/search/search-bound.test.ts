import type { KyselyPlugin } from "kysely";
import { describe, expect, it } from "vitest";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { searchSite } from "./search.server.ts";

/*
 * A search reads a bounded number of candidates of each kind (search.server.ts): the newest matches, and the newest
 * whose title holds every word. These tests use a small limit, the same rule as the site's 100.
 */

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

describe.each(databaseKinds)("the search's bound on %s", (kind) => {
  const database = useTestDatabase(kind, "each");

  async function publishedPost(title: string, body: string): Promise<string> {
    const post = await createPost(database.db, testAdmin, { title, body });
    if (!post.ok) throw new Error("refused");
    await setPostStatus(database.db, testAdmin, post.id, { status: "published" });
    await pause();
    return post.id;
  }

  it("reads the newest matches, finds an older one by its title, and says that more matched", async () => {
    await publishedPost("Summit", "The mountain at dawn.");
    await publishedPost("Mountain hut", "Soup and a stove.");
    for (const title of ["Ridge", "Lake", "Forest", "Valley"])
      await publishedPost(title, `A ${title} below the mountain.`);

    const bounded = await searchSite(database.db, { lang: "en", query: "mountain", page: 1, streamLimit: 3 });
    // The three newest, and the hut, older, by its title (first: its title holds the word). Not the summit.
    expect(bounded.hits.map((hit) => hit.title)).toEqual(["Mountain hut", "Valley", "Forest", "Lake"]);
    expect(bounded).toMatchObject({ total: 4, capped: true, pageCount: 1 });

    const whole = await searchSite(database.db, { lang: "en", query: "mountain", page: 1 });
    expect(whole.hits.map((hit) => hit.title)).toEqual(["Mountain hut", "Valley", "Forest", "Lake", "Ridge", "Summit"]);
    expect(whole).toMatchObject({ total: 6, capped: false });
  });

  it("counts only what the visitor may see toward the limit: drafts and inactive entries take no place", async () => {
    await publishedPost("Old trail", "A mountain path.");
    for (const title of ["Draft one", "Draft two", "Draft three"]) {
      const draft = await createPost(database.db, testAdmin, { title, body: "Mountain notes." });
      if (!draft.ok) throw new Error("refused");
    }
    idOfAccepted(
      await faqService.create(database.db, testAdmin, {
        question: "Mountain?",
        answer: "Hidden.",
        question_de: "",
        answer_de: "",
        active: false,
      }),
    );
    const visitor = await searchSite(database.db, { lang: "en", query: "mountain", page: 1, streamLimit: 2 });
    expect(visitor.hits.map((hit) => hit.title)).toEqual(["Old trail"]);
    expect(visitor).toMatchObject({ total: 1, capped: false });
    const admin = await searchSite(database.db, {
      lang: "en",
      query: "mountain",
      page: 1,
      streamLimit: 2,
      audience: "admin",
    });
    expect(admin.capped).toBe(true);
  });

  it("walks past any number of hidden matches to the visible ones, the same on both databases", async () => {
    await publishedPost("Old trail", "A mountain path.");
    // Newer than it: seven drafts (on PostgreSQL, batches of 2 and 4 documents, all hidden; the third finds it).
    for (let draft = 1; draft <= 7; draft++) {
      const created = await createPost(database.db, testAdmin, { title: `Draft ${draft}`, body: "Mountain notes." });
      if (!created.ok) throw new Error("refused");
    }
    const visitor = await searchSite(database.db, { lang: "en", query: "mountain", page: 1, streamLimit: 2 });
    expect(visitor.hits.map((hit) => hit.title)).toEqual(["Old trail"]);
    expect(visitor).toMatchObject({ total: 1, capped: false });
  });

  it("orders a post by its publication: publishing an older draft makes it the newest match", async () => {
    const first = await createPost(database.db, testAdmin, { title: "First draft", body: "A mountain walk." });
    await pause();
    const second = await createPost(database.db, testAdmin, { title: "Second draft", body: "A mountain climb." });
    if (!first.ok || !second.ok) throw new Error("refused");
    await setPostStatus(database.db, testAdmin, second.id, { status: "published" });
    await pause();
    await setPostStatus(database.db, testAdmin, first.id, { status: "published" });

    const newest = await searchSite(database.db, { lang: "en", query: "mountain", page: 1, streamLimit: 1 });
    expect(newest.hits.map((hit) => hit.title)).toEqual(["First draft"]);
  });

  it("reads title matches on from where the newest matches stopped: the limit goes to ones not already found", async () => {
    await publishedPost("Mountain hut", "Soup.");
    await publishedPost("Summit", "The mountain at dawn.");
    await publishedPost("Mountain lake", "Cold.");
    await publishedPost("Mountain pass", "Windy.");
    // The newest two both hold the word in their title: a title stream from the newest would find only them again.
    const result = await searchSite(database.db, { lang: "en", query: "mountain", page: 1, streamLimit: 2 });
    expect(result.hits.map((hit) => hit.title)).toEqual(["Mountain pass", "Mountain lake", "Mountain hut"]);
    expect(result).toMatchObject({ total: 3, capped: true });
  });

  it("asks the database once a stream (PostgreSQL: once for every kind's newest, once for the titles) and once a kind of the page's hits", async () => {
    for (const title of ["Mountain hut", "Ridge", "Lake", "Forest", "Valley"])
      await publishedPost(title, `The ${title} below the mountain.`);
    idOfAccepted(
      await faqService.create(database.db, testAdmin, {
        question: "Which mountain?",
        answer: "The near one.",
        question_de: "",
        answer_de: "",
        active: true,
      }),
    );
    let statements = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements += 1;
        return args.result;
      },
    };
    const db = database.db.withPlugin(counter);
    const ask = () => searchSite(db, { lang: "en", query: "mountain", page: 1, streamLimit: 3 });
    // (SQLite makes its view of the index's words once per connection object: the first search's.)
    await ask();
    statements = 0;
    const result = await ask();
    expect(result.hits.map((hit) => hit.title)).toEqual([
      "Which mountain?",
      "Mountain hut",
      "Valley",
      "Forest",
      "Lake",
    ]);
    // Which of the few kinds match; the posts' newest and title streams (more matched than 3), the pictures' (none),
    // the FAQ's newest; then the page: its FAQ entry, its posts, their tags. SQLite also reads the words "mountain"
    // begins (fts-prefix.server.ts). Each statement is a round trip on PostgreSQL, where the newest streams of the
    // three kinds are one statement, and the title stream another: this search made 12 there at first, then 8
    // (SQLite 10, then 9).
    expect(statements).toBe(kind === "postgres" ? 6 : 9);
  });
});
