import { describe, expect, it } from "vitest";
import type { SearchHit, SearchPageData, SearchResult } from "#app/domains/search/search-schema.ts";
import { translatorFor, translatorWith } from "#app/i18n/i18n.server.ts";
import { searchDictionaryFor } from "#app/i18n/search-dictionary.ts";
import { announcementOf } from "../search-typeahead.tsx";
import { resultCountOf } from "./search-page.tsx";

/*
 * How many results a search says it found, on the page's heading and in the type-ahead's announcement: a search
 * that stopped reading at its bound (`capped`, search.server.ts) says "more than", in both languages.
 */
const hit: SearchHit = {
  kind: "post",
  id: "p",
  title: "Mountain",
  url: "/blog/mountain",
  snippet: [],
  thumbnail: null,
};
const result = (total: number, capped: boolean): SearchResult => ({
  query: "mountain",
  total,
  capped,
  page: 1,
  pageCount: Math.max(1, Math.ceil(total / 20)),
  hits: Array.from({ length: Math.min(total, 20) }, (_, index) => ({ ...hit, id: `p${index}` })),
});
const data = (value: SearchResult): SearchPageData => ({ query: value.query, result: value, error: null });

describe("the count of a search's results", () => {
  it("says 'more than' on the page when the search stopped reading, and the plain count otherwise", () => {
    const en = translatorWith("en", searchDictionaryFor("en"));
    const de = translatorWith("de", searchDictionaryFor("de"));
    expect(resultCountOf(result(347, true), en)).toBe(
      "More than 347 results for “mountain”. Add a word to narrow them down.",
    );
    expect(resultCountOf(result(347, true), de)).toBe(
      "Mehr als 347 Ergebnisse für „mountain“. Ein weiteres Wort grenzt sie ein.",
    );
    expect(resultCountOf(result(12, false), en)).toBe("12 results for “mountain”");
    expect(resultCountOf(result(1, false), en)).toBe("1 result for “mountain”");
  });

  it("announces 'more than' from the type-ahead too, with how many it lists", () => {
    expect(announcementOf(data(result(347, true)), translatorFor("en"))).toMatch(
      /^More than 347 results\. The first \d+ are listed below the field\.$/,
    );
    expect(announcementOf(data(result(347, true)), translatorFor("de"))).toMatch(/^Mehr als 347 Ergebnisse\. /);
    expect(announcementOf(data(result(3, false)), translatorFor("en"))).toBe("3 results.");
  });
});
