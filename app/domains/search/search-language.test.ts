import { beforeAll, describe, expect, it } from "vitest";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { searchSite } from "./search.server.ts";

/*
 * Issue 22's stemming and folding tables, each pair asserted through the real search on each database: an FAQ
 * question holds the document's word and a marker (mk000…); the query is the pair's query and the marker, so
 * that exactly that question must be found. The query's word comes first (a whole word, not a prefix), except
 * for the pairs marked `prefix` (the last word of a query matches as a beginning: "phot" finds "photography").
 */

type Pair = [query: string, document: string, prefix?: "prefix"];

const ENGLISH_PAIRS: Pair[] = [
  ["running", "run"],
  ["runs", "running"],
  ["photos", "photo"],
  ["cities", "city"],
  ["lakes", "lake"],
  ["walked", "walking"],
  ["mountains", "mountain"],
  ["MOUNTAIN", "mountain"],
  ["café", "cafe"],
  ["Cafe", "café"],
  ["naïve", "naive"],
  ["résumé", "resume"],
  ["Zürich", "zurich"],
  ["happiness", "happy"],
  ["generously", "generous"],
  ["jumping", "jumped"],
  ["boxes", "box"],
  ["churches", "church"],
  ["berries", "berry"],
  ["agreed", "agree"],
  ["Straße", "strasse"],
  ["Muenchen", "München"],
  ["España", "espana"],
  ["Øresund", "oresund"],
  ["Łódź", "lodz"],
  ["œuvre", "oeuvre"],
  ["ﬁsh", "fish"],
  ["ｐｈｏｔｏ", "photo"],
  ["travelling", "travel"],
  ["hiking", "hikes"],
  ["bridges", "bridge"],
  ["sunsets", "sunset"],
  ["Crème", "creme"],
  ["phot", "photography", "prefix"],
  ["mou", "mountains", "prefix"],
  ["Photogr", "photographs", "prefix"],
];

const GERMAN_PAIRS: Pair[] = [
  ["Fotografien", "Fotografie"],
  ["Hütten", "Hütte"],
  ["Muenchen", "München"],
  ["Strasse", "Straße"],
  ["STRASSE", "Straße"],
  ["häuser", "Haus"],
  ["Bäume", "Baum"],
  ["Kinder", "Kind"],
  ["Bücher", "Buch"],
  ["Wälder", "Wald"],
  ["Berge", "Berg"],
  ["Blumen", "Blume"],
  ["Sonnenuntergänge", "Sonnenuntergang"],
  ["Kaese", "Käse"],
  ["Koeln", "Köln"],
  ["Uebersicht", "Übersicht"],
  ["Fuesse", "Füße"],
  ["gross", "groß"],
  ["Maedchen", "Mädchen"],
  ["schoen", "schön"],
  ["Wanderungen", "Wanderung"],
  ["Fahrräder", "Fahrrad"],
  ["Städte", "Stadt"],
  ["Gärten", "Garten"],
  ["Zuerich", "Zürich"],
  ["MÜNCHEN", "münchen"],
  ["Café", "Cafe"],
  ["Brücken", "Brücke"],
  ["Schlösser", "Schloss"],
  ["Bilder", "Bild"],
  ["Landschaften", "Landschaft"],
  // Compounds (docs/decisions/015-search.md): a long word's endings are words too.
  ["Hütte", "Alpenhütte"],
  ["Haus", "Gartenhaus"],
  ["Bahn", "Eisenbahn"],
  ["Fotog", "Fotografie", "prefix"],
  ["Hüt", "Hütte", "prefix"],
];

const marker = (index: number) => `mk${String(index).padStart(3, "0")}`;
const queryOf = ([query, , prefix]: Pair, index: number) =>
  prefix ? `${marker(index)} ${query}` : `${query} ${marker(index)}`;

describe.each(databaseKinds)("search: stemming and folding (%s)", (kind) => {
  const database = useTestDatabase(kind, "all");

  beforeAll(async () => {
    for (const [index, [, document]] of ENGLISH_PAIRS.entries()) {
      await faqService.create(database.db, testAdmin, {
        question: `${document} ${marker(index)}`,
        answer: "An answer.",
        active: true,
      });
    }
    for (const [index, [, document]] of GERMAN_PAIRS.entries()) {
      await faqService.create(database.db, testAdmin, {
        question: `Question ${marker(500 + index)}`,
        question_de: `${document} ${marker(500 + index)}`,
        answer: "An answer.",
        answer_de: "Eine Antwort.",
        active: true,
      });
    }
  });

  it("has at least 30 pairs per language", () => {
    expect(ENGLISH_PAIRS.length).toBeGreaterThanOrEqual(30);
    expect(GERMAN_PAIRS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(ENGLISH_PAIRS.map((pair, index) => [pair[0], pair[1], index] as const))(
    "in English, “%s” finds “%s”",
    async (_query, document, index) => {
      const query = queryOf(ENGLISH_PAIRS[index] as Pair, index);
      const result = await searchSite(database.db, { lang: "en", query, page: 1 });
      expect(result.hits.map((hit) => hit.title)).toEqual([`${document} ${marker(index)}`]);
      expect(result.total).toBe(1);
    },
  );

  it.each(GERMAN_PAIRS.map((pair, index) => [pair[0], pair[1], index] as const))(
    "in German, “%s” finds “%s”",
    async (_query, document, index) => {
      const query = queryOf(GERMAN_PAIRS[index] as Pair, 500 + index);
      const result = await searchSite(database.db, { lang: "de", query, page: 1 });
      expect(result.hits.map((hit) => hit.title)).toEqual([`${document} ${marker(500 + index)}`]);
    },
  );

  it("finds no pair's word in another pair's question", async () => {
    const result = await searchSite(database.db, { lang: "en", query: `lake ${marker(0)}`, page: 1 });
    expect(result.hits).toEqual([]);
    // German stems are not English ones: a German page's compound is not split for an English searcher.
    const english = await searchSite(database.db, { lang: "en", query: "Hütte", page: 1 });
    expect(english.hits.map((hit) => hit.title)).toEqual([]);
  });

  it("falls back to the English text where the German is empty", async () => {
    const result = await searchSite(database.db, { lang: "de", query: `mountains ${marker(6)}`, page: 1 });
    expect(result.hits.map((hit) => hit.title)).toEqual([`mountain ${marker(6)}`]);
  });
});
