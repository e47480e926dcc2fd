import { describe, expect, it } from "vitest";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { queryTerms } from "#app/lib/search-text.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { useTestDatabase } from "#tests/support/test-database.ts";
import { expandPrefixes } from "./fts-prefix.server.ts";
import { searchSite } from "./search.server.ts";

/* The last word's beginning read out as the index's words (SQLite): the same matches as FTS5's prefix query. */
describe("a beginning read out as the index's words, on SQLite", () => {
  const database = useTestDatabase("sqlite", "each");

  async function question(text: string, answer = "Yes.") {
    return idOfAccepted(
      await faqService.create(database.db, testAdmin, {
        question: text,
        answer,
        question_de: "",
        answer_de: "",
        active: true,
      }),
    );
  }

  it("asks for the words the beginning begins, and finds the same as the beginning", async () => {
    const walker = await question("Walkers and walking");
    const wall = await question("A wall");
    await question("Other words");
    const expanded = await expandPrefixes(database.db, queryTerms("walk", "en"));
    // "walkers" and "walking" stem to "walker" and "walk" in English (the German rows' stems are in the same
    // vocabulary); "wall" is no word "walk" begins.
    expect(expanded?.[0]?.beginnings).toEqual([]);
    expect(expanded?.[0]?.words).toEqual(expect.arrayContaining(["walk", "walker"]));
    for (const word of expanded?.[0]?.words ?? []) expect(word.startsWith("walk"), word).toBe(true);
    const found = await searchSite(database.db, { lang: "en", query: "walk", page: 1 });
    expect(found.hits.map((hit) => hit.id)).toEqual([walker]);
    expect((await searchSite(database.db, { lang: "en", query: "wal", page: 1 })).hits.map((hit) => hit.id)).toEqual(
      expect.arrayContaining([walker, wall]),
    );
  });

  it("keeps a short beginning and a beginning of very many words as a prefix query", async () => {
    await question("Zebras?", Array.from({ length: 40 }, (_, index) => `zebra${index}`).join(" "));
    expect(await expandPrefixes(database.db, queryTerms("ze", "en"))).toEqual([{ words: [], beginnings: ["ze"] }]);
    expect(await expandPrefixes(database.db, queryTerms("zebr", "en"))).toEqual([{ words: [], beginnings: ["zebr"] }]);
    const found = await searchSite(database.db, { lang: "en", query: "zebr", page: 1 });
    expect(found.total).toBe(1);
  });

  it("knows that a beginning no word of the index has finds nothing", async () => {
    await question("Walkers");
    expect(await expandPrefixes(database.db, queryTerms("walk qxzv", "en"))).toBeNull();
    expect((await searchSite(database.db, { lang: "en", query: "walk qxzv", page: 1 })).total).toBe(0);
  });
});
