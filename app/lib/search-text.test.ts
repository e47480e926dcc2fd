import { describe, expect, it } from "vitest";
import {
  foldWord,
  ftsMatchExpression,
  ftsTermsOf,
  indexTerms,
  MAX_QUERY_TERMS,
  queryTerms,
  snippetOf,
  termMatches,
  tsqueryExpression,
} from "./search-text.ts";

/** Whether a query finds a text by the index's rule: every term matches one of the text's stems. */
function finds(query: string, text: string, lang: "en" | "de"): boolean {
  const stems = [...indexTerms(text, lang)];
  const terms = queryTerms(query, lang);
  return terms.length > 0 && terms.every((term) => stems.some((stem) => termMatches(term, stem)));
}

describe("the search's text analysis", () => {
  it("folds case, accents, umlauts and ß; spelled-out umlauts only in German", () => {
    expect(foldWord("München", "de")).toBe("munchen");
    expect(foldWord("Muenchen", "de")).toBe("munchen");
    expect(foldWord("STRASSE", "de")).toBe("strasse");
    expect(foldWord("Straße", "de")).toBe("strasse");
    expect(foldWord("Quelle", "de")).toBe("quelle");
    expect(foldWord("Crème", "en")).toBe("creme");
    expect(foldWord("Øresund", "en")).toBe("oresund");
    expect(foldWord("ﬁsh", "en")).toBe("fish");
    // English keeps "oe" (does, shoes): only German reads it as an umlaut.
    expect(foldWord("shoes", "en")).toBe("shoes");
  });

  it("finds the issue's examples", () => {
    expect(finds("Fotografien", "Fotografie", "de")).toBe(true);
    expect(finds("Hütten", "Hütte", "de")).toBe(true);
    expect(finds("running", "run", "en")).toBe(true);
    expect(finds("Muenchen", "München", "de")).toBe(true);
    expect(finds("Muenchen", "München", "en")).toBe(true);
    expect(finds("Strasse", "Straße", "de")).toBe(true);
    expect(finds("phot", "photography", "en")).toBe(true);
    expect(finds("Hütte", "Alpenhütte", "de")).toBe(true);
  });

  it("does not find what is not there", () => {
    expect(finds("lake", "mountain", "en")).toBe(false);
    expect(finds("Hütte", "Alpenhütte", "en")).toBe(false);
    expect(finds("run mountain", "run", "en")).toBe(false);
    expect(finds("😀", "😀 smile", "en")).toBe(false);
  });

  it("makes a prefix of the last term only, and keeps at most MAX_QUERY_TERMS distinct words", () => {
    const terms = queryTerms("lakes Lakes mountains phot", "en");
    expect(terms).toEqual([
      { alternatives: ["lake"], prefix: false },
      { alternatives: ["mountain"], prefix: false },
      { alternatives: ["phot"], prefix: true },
    ]);
    expect(queryTerms("a b c d e f g h i j k", "en")).toHaveLength(MAX_QUERY_TERMS);
  });

  it("matches a last word of one letter as a word, not as every word it begins", () => {
    expect(queryTerms("lake m", "en")).toEqual([
      { alternatives: ["lake"], prefix: false },
      { alternatives: ["m"], prefix: false },
    ]);
    expect(queryTerms("mo", "en")).toEqual([{ alternatives: ["mo"], prefix: true }]);
  });

  it("lets no operator of FTS5 or tsquery through: every term is letters and digits, quoted", () => {
    const hostile = `"x" * NEAR(a b) AND OR NOT -y z:w ^v (u) & | ! <-> \u0000 'q' \\ {col}: a* x"y`;
    for (const lang of ["en", "de"] as const) {
      const terms = queryTerms(hostile, lang);
      for (const term of terms) for (const alt of term.alternatives) expect(alt).toMatch(/^[\p{L}\p{N}]+$/u);
      const fts = ftsMatchExpression(ftsTermsOf(terms));
      expect(fts.replace(/"[\p{L}\p{N}]+"( \*)?/gu, "").replace(/ AND | OR |[()]/g, "")).toBe("");
      const ts = tsqueryExpression(terms);
      expect(ts.replace(/'[\p{L}\p{N}]+'(:\*)?/gu, "").replace(/ & | \| |[()]/g, "")).toBe("");
    }
  });

  it("marks the matching words in a window around the first match, as plain text", () => {
    const body = `${"Filler words come first here. ".repeat(6)}Then the <b>running</b> of the bulls. ${"More text after it. ".repeat(10)}`;
    const parts = snippetOf(["", body], queryTerms("run", "en"), "en");
    const text = parts.map((part) => part.text).join("");
    expect(parts.filter((part) => part.match).map((part) => part.text)).toEqual(["running"]);
    expect(text.startsWith("… ")).toBe(true);
    expect(text.endsWith(" …")).toBe(true);
    expect(text.length).toBeLessThan(200);
    // What the field holds stays text (the page renders parts as text): "<b>" is kept as characters.
    expect(text).toContain("<b>");
  });

  it("falls back to the start of the first non-empty field when only the title matched", () => {
    const parts = snippetOf(["", "A calm description."], queryTerms("lake", "en"), "en");
    expect(parts).toEqual([{ text: "A calm description.", match: false }]);
    expect(snippetOf(["", " "], queryTerms("lake", "en"), "en")).toEqual([]);
  });
});
