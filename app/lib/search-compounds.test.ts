import { describe, expect, it } from "vitest";
import { indexTerms, queryTerms, termMatches } from "./search-text.ts";

/*
 * German compounds (docs/decisions/015-search.md): a word of 8+ letters also gives the stems of its endings of 4+
 * letters. Measured here on small lists; the figures are the decision record's. A change of the rule that finds
 * fewer compounds or more false hits fails.
 */

/** Whether the German query word (whole, not a prefix) finds a text holding `word`. */
function finds(query: string, word: string): boolean {
  const stems = [...indexTerms(word, "de")];
  const [term] = queryTerms(`${query} x`, "de");
  return term !== undefined && stems.some((stem) => termMatches(term, stem));
}

const COMPOUNDS: [part: string, compound: string][] = [
  ["Hütte", "Alpenhütte"],
  ["Haus", "Gartenhaus"],
  ["Bahn", "Eisenbahn"],
  ["Berg", "Hausberg"],
  ["See", "Bergsee"],
  ["Blume", "Wiesenblume"],
  ["Weg", "Wanderweg"],
  ["Turm", "Kirchturm"],
  ["Brücke", "Eisenbahnbrücke"],
  ["Hund", "Schäferhund"],
  ["Fest", "Sommerfest"],
  ["Markt", "Weihnachtsmarkt"],
  ["Garten", "Biergarten"],
  ["Wald", "Schwarzwald"],
  ["Licht", "Sonnenlicht"],
  ["Bild", "Landschaftsbild"],
  ["Foto", "Reisefoto"],
  ["Kamera", "Digitalkamera"],
  ["Stadt", "Altstadt"],
  ["Tal", "Zillertal"],
  ["Hütten", "Skihütte"],
  ["Urlaub", "Sommerurlaub"],
  ["Zug", "Nachtzug"],
  ["Kirche", "Dorfkirche"],
  ["Ufer", "Seeufer"],
  ["Fotos", "Hochzeitsfotos"],
  ["Wanderung", "Gipfelwanderung"],
  ["Boot", "Segelboot"],
  ["Straße", "Hauptstraße"],
  ["Platz", "Marktplatz"],
];

/** Long words that are no compound of any part above. */
const UNRELATED = [
  "Etikette",
  "Destination",
  "Quartier",
  "Dividende",
  "Begleiter",
  "Schalter",
  "Mitglied",
  "Beton",
  "Apparat",
  "Spiegel",
  "Legende",
  "Kalender",
  "Abenteuer",
  "Geschichte",
  "Erinnerung",
  "Fotografie",
  "Wissenschaft",
  "Freundschaft",
  "Gesellschaft",
  "Regierung",
  "Verwaltung",
  "Bedeutung",
  "Entwicklung",
  "Möglichkeit",
  "Verantwortung",
  "Unterschied",
  "Beziehung",
  "Erfahrung",
  "Mannschaft",
  "Wirtschaft",
  "Kartoffel",
  "Schmetterling",
  "Eichhörnchen",
  "Sonnenschein",
  "Regenschirm",
  "Taschenlampe",
  "Schokolade",
  "Bibliothek",
  "Universität",
  "Temperatur",
];

/** Queries chosen to fall into the rule: a word whose ending happens to be another word. */
const TRAPS: [query: string, word: string][] = [
  ["Kette", "Etikette"],
  ["Nation", "Destination"],
  ["Tier", "Quartier"],
  ["Ende", "Dividende"],
  ["Leiter", "Begleiter"],
  ["Alter", "Schalter"],
  ["Lied", "Mitglied"],
  ["Tal", "Kapital"],
  ["See", "Tournee"],
  ["Ton", "Beton"],
  ["Rat", "Apparat"],
  ["Gel", "Spiegel"],
];

describe("German compounds", () => {
  it("finds 25 of 30 compounds by their last part (the misses: parts of 3 letters, compounds of 7)", () => {
    const missed = COMPOUNDS.filter(([part, compound]) => !finds(part, compound));
    expect(missed).toEqual([
      ["See", "Bergsee"],
      ["Weg", "Wanderweg"],
      ["Tal", "Zillertal"],
      ["Zug", "Nachtzug"],
      ["Ufer", "Seeufer"],
    ]);
  });

  it("finds none of 40 unrelated long words by any of those parts (0 false hits of 1,200 pairs)", () => {
    const parts = [...new Set(COMPOUNDS.map(([part]) => part))];
    const pairs = parts.flatMap((part) => UNRELATED.map((word) => [part, word] as const));
    expect(pairs).toHaveLength(1200);
    expect(pairs.filter(([part, word]) => finds(part, word))).toEqual([]);
  });

  it("falls into 7 of 12 traps (an ending of 4+ letters that is a word by chance)", () => {
    expect(TRAPS.filter(([query, word]) => finds(query, word)).map(([query]) => query)).toEqual([
      "Kette",
      "Nation",
      "Tier",
      "Ende",
      "Leiter",
      "Alter",
      "Lied",
    ]);
  });

  it("splits German only", () => {
    expect(finds("Hütte", "Alpenhütte")).toBe(true);
    const [term] = queryTerms("Hut x", "en");
    expect(term && [...indexTerms("Alpenhut", "en")].some((stem) => termMatches(term, stem))).toBe(false);
  });
});
