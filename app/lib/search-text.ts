import { stemmer as stemEnglish } from "@orama/stemmers/english";
import { stemmer as stemGerman } from "@orama/stemmers/german";

/*
 * The search's text analysis (issue 22, docs/decisions/015-search.md), done here in JavaScript so that SQLite and
 * PostgreSQL index and query exactly the same terms: both databases only match whole terms (and prefixes) that
 * this module made. A text becomes words (letters and digits), each word is folded (lower case, accents and
 * umlauts removed, ß as ss; in German also ae/oe/ue as a/o/u: "Muenchen" is "München") and stemmed by the Snowball
 * stemmer of its language; long German words also give the stems of their endings (compounds: "Alpenhütte" is
 * found by "Hütte").
 */

export type TextLanguage = "en" | "de";

/** A query's words beyond this are ignored: each is one more lookup for the database. */
export const MAX_QUERY_TERMS = 8;
/** Longer "words" (a pasted hash, a URL without separators) are not indexed nor searched. */
const MAX_WORD_LENGTH = 64;
/** German compounds: a word of this many letters also gives the stems of its endings of ≥ TAIL letters… */
const COMPOUND_MIN_LENGTH = 8;
const COMPOUND_TAIL_MIN = 4;
/** …that start after at least this many letters. */
const COMPOUND_HEAD_MIN = 3;

/** Letters that no decomposition turns into plain Latin ones (NFKD leaves them whole). */
const SPECIAL_LETTERS: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};
const SPECIAL_PATTERN = /[ßæœøłđðþı]/g;
/** What a word is made of in the original text (marks stay with their letter until folded away). */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** What a folded word is split into (a fraction "½" folds to "1⁄2", two numbers). */
const TOKEN = /[\p{L}\p{N}]+/gu;
/** An umlaut spelled out (not "qu" + e: "Quelle" keeps its u), as the Snowball "german2" variant reads it. */
const SPELLED_UMLAUT = /(?<!q)([aou])e/g;

/** The folded form of one word: lower case, no accents, ß as ss; in German "ue" as "u" and so on. */
export function foldWord(word: string, lang: TextLanguage): string {
  let folded = word
    .toLowerCase()
    .replace(SPECIAL_PATTERN, (letter) => SPECIAL_LETTERS[letter] ?? letter)
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "");
  if (lang === "de") folded = folded.replace(SPELLED_UMLAUT, "$1");
  return folded;
}

function stem(token: string, lang: TextLanguage): string {
  return lang === "de" ? stemGerman(token) : stemEnglish(token);
}

/**
 * The folded tokens of words seen lately, per language: a search's snippets fold the words of 20 texts, mostly the
 * same words from one search to the next (folding was a tenth of a search's own JavaScript time, profiled).
 */
const FOLDED_WORDS = { en: new Map<string, string[]>(), de: new Map<string, string[]>() };
const FOLDED_WORDS_KEPT = 20_000;

/** The folded tokens of one word of the original text (usually one). */
function tokensOfWord(word: string, lang: TextLanguage): string[] {
  const kept = FOLDED_WORDS[lang];
  const known = kept.get(word);
  if (known) return known;
  const tokens = (foldWord(word, lang).match(TOKEN) ?? []).filter((token) => token.length <= MAX_WORD_LENGTH);
  // Full: start again (a bound on memory; the common words come back at once).
  if (kept.size >= FOLDED_WORDS_KEPT) kept.clear();
  kept.set(word, tokens);
  return tokens;
}

/** A token's stems: its own, and for a long German word the stems of its endings (compounds, see the decision). */
function stemsOfToken(token: string, lang: TextLanguage, into: Set<string>): void {
  const own = stem(token, lang);
  // A stem is never empty in practice; an empty one would be no term (and PostgreSQL refuses empty lexemes).
  if (own !== "") into.add(own);
  if (lang !== "de" || token.length < COMPOUND_MIN_LENGTH || !/^\p{L}+$/u.test(token)) return;
  for (let start = COMPOUND_HEAD_MIN; token.length - start >= COMPOUND_TAIL_MIN; start++) {
    const tail = stem(token.slice(start), lang);
    if (tail !== "") into.add(tail);
  }
}

/** Every stem a text gives, each once: what the index keeps for it. */
export function indexTerms(text: string, lang: TextLanguage, into: Set<string> = new Set()): Set<string> {
  for (const word of text.match(WORD) ?? []) {
    for (const token of tokensOfWord(word, lang)) stemsOfToken(token, lang, into);
  }
  return into;
}

/** One word of a query: any of its stems matches; the last word of a query also matches as a beginning. */
export type QueryTerm = { alternatives: string[]; prefix: boolean };

/**
 * The terms of a query in the searcher's language: its first MAX_QUERY_TERMS distinct words, stemmed; the last one
 * a prefix too ("phot" finds "photography") unless it is a single letter. Only letters and digits survive, so
 * nothing a visitor types (quotes, `*`, `-`, `:`, `NEAR`, `&`, `|`, `!`, brackets) can reach a database's query
 * language as an operator; a word such as NEAR or NOT is only a word (and is quoted as one: see
 * `ftsMatchExpression`, `tsqueryExpression`).
 */
export function queryTerms(query: string, lang: TextLanguage): QueryTerm[] {
  const tokens: string[] = [];
  const words: string[] = [];
  for (const word of query.match(WORD) ?? []) {
    for (const token of tokensOfWord(word, lang)) {
      if (tokens.includes(token)) continue;
      tokens.push(token);
      words.push(word);
    }
  }
  const kept = tokens.slice(0, MAX_QUERY_TERMS);
  return kept
    .map((token, index) => {
      // A single letter is no beginning worth finding ("a" would be every word with an a first), and would make
      // the database gather nearly every document: it is matched as a word.
      const prefix = index === kept.length - 1 && token.length > 1;
      const alternatives = [stem(token, lang)];
      // While typing, the stem of a word cut short may not lead to the word ("runnin" is no stem of "running"); the
      // beginning as typed does, where it is not covered by the stem already.
      if (prefix && !token.startsWith(alternatives[0] as string)) alternatives.push(token);
      // An English page may name "München"; an English searcher may type "Muenchen".
      if (lang === "en" && token.length >= 5) {
        const spelledOut = foldWord(words[index] as string, "de");
        if (spelledOut !== token && /^[\p{L}\p{N}]+$/u.test(spelledOut)) alternatives.push(stem(spelledOut, lang));
      }
      return { alternatives: [...new Set(alternatives.filter((alternative) => alternative !== ""))], prefix };
    })
    .filter((term) => term.alternatives.length > 0);
}

/** Whether a stem the index holds matches a query term (equal, or beginning with it for the last term). */
export function termMatches(term: QueryTerm, stem: string): boolean {
  return term.alternatives.some((alternative) => (term.prefix ? stem.startsWith(alternative) : stem === alternative));
}

/** A query term as FTS5 is asked for it: whole words, and beginnings (`"phot" *`); any of them matches. */
export type FtsTerm = { words: string[]; beginnings: string[] };

export function ftsTermsOf(terms: QueryTerm[]): FtsTerm[] {
  return terms.map((term) =>
    term.prefix ? { words: [], beginnings: term.alternatives } : { words: term.alternatives, beginnings: [] },
  );
}

/**
 * The query as an FTS5 MATCH expression: every word or beginning a quoted string (a `"` inside doubled, though none
 * survives `queryTerms`), a beginning with `*` (a prefix query), alternatives joined by OR, terms by AND.
 */
export function ftsMatchExpression(terms: FtsTerm[]): string {
  return terms
    .map((term) => {
      const quote = (word: string) => `"${word.replaceAll('"', '""')}"`;
      const parts = [...term.words.map(quote), ...term.beginnings.map((beginning) => `${quote(beginning)} *`)];
      return parts.length === 1 ? parts[0] : `(${parts.join(" OR ")})`;
    })
    .join(" AND ");
}

/**
 * The query as PostgreSQL `tsquery` input (the type's own syntax, not `to_tsquery`: no parser or dictionary runs,
 * so a lexeme stays exactly as `queryTerms` made it): quoted lexemes, `|` between alternatives, `&` between terms,
 * `:*` on the last one.
 */
export function tsqueryExpression(terms: QueryTerm[]): string {
  return terms
    .map((term) => {
      const parts = term.alternatives.map(
        (alt) => `'${alt.replaceAll("\\", "\\\\").replaceAll("'", "''")}'${term.prefix ? ":*" : ""}`,
      );
      return parts.length === 1 ? parts[0] : `(${parts.join(" | ")})`;
    })
    .join(" & ");
}

/** A part of a snippet: plain text; `match` for a word the query matched. */
export type TextPart = { text: string; match: boolean };

/** Characters of a snippet, about; it is cut at spaces. */
export const SNIPPET_LENGTH = 160;
/** Characters shown before the first match. */
const SNIPPET_LEAD = 50;

/**
 * The excerpt of the first of `fields` (plain texts, best first) that holds a matching word: a window of about
 * SNIPPET_LENGTH characters around the first match, split into parts with the matching words marked. Without a
 * match in any, the beginning of the first non-empty field, unmarked. Plain text in, plain text out: the page
 * renders the parts as text (matches in `<mark>`), never as HTML.
 */
export function snippetOf(fields: string[], terms: QueryTerm[], lang: TextLanguage): TextPart[] {
  const matcher = wordMatcher(terms, lang);
  for (const field of fields) {
    const text = field.replace(/\s+/g, " ").trim();
    const first = firstMatch(text, matcher);
    if (first === null) continue;
    let start = Math.max(0, first - SNIPPET_LEAD);
    if (start > 0) start = text.indexOf(" ", start) + 1 || start;
    if (start > first) start = first;
    return partsOf(text, start, matcher);
  }
  const plain = fields.map((field) => field.replace(/\s+/g, " ").trim()).find((field) => field !== "");
  return plain ? partsOf(plain, 0, () => false) : [];
}

/** Decides, per word of the original text, whether it matches the query (cached per word). */
function wordMatcher(terms: QueryTerm[], lang: TextLanguage): (word: string) => boolean {
  // A cheap test before stemming: a matching word's folded form holds the start of some alternative.
  const heads = terms.flatMap((term) => term.alternatives.map((alt) => alt.slice(0, 3)));
  const known = new Map<string, boolean>();
  return (word) => {
    const cached = known.get(word);
    if (cached !== undefined) return cached;
    let matches = false;
    const tokens = tokensOfWord(word, lang);
    if (tokens.some((token) => heads.some((head) => token.includes(head)))) {
      const stems = new Set<string>();
      for (const token of tokens) stemsOfToken(token, lang, stems);
      matches = [...stems].some((stemmed) => terms.some((term) => termMatches(term, stemmed)));
    }
    if (known.size < 5000) known.set(word, matches);
    return matches;
  };
}

function firstMatch(text: string, matches: (word: string) => boolean): number | null {
  for (const found of text.matchAll(WORD)) if (matches(found[0])) return found.index;
  return null;
}

function partsOf(text: string, start: number, matches: (word: string) => boolean): TextPart[] {
  let end = Math.min(text.length, start + SNIPPET_LENGTH);
  if (end < text.length) {
    const space = text.lastIndexOf(" ", end);
    if (space > start) end = space;
  }
  const window = text.slice(start, end);
  const parts: TextPart[] = [];
  const push = (piece: string, match: boolean) => {
    if (piece === "") return;
    const last = parts.at(-1);
    if (last && last.match === match) last.text += piece;
    else parts.push({ text: piece, match });
  };
  if (start > 0) push("… ", false);
  let at = 0;
  for (const found of window.matchAll(WORD)) {
    if (!matches(found[0])) continue;
    push(window.slice(at, found.index), false);
    parts.push({ text: found[0], match: true });
    at = found.index + found[0].length;
  }
  push(window.slice(at), false);
  if (end < text.length) push(" …", false);
  return parts;
}
