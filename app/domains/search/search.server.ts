import { type Kysely, sql } from "kysely";
import { isPostgres } from "#app/db/database.server.ts";
import type { Database, DbDate } from "#app/db/schema.ts";
import { VISITOR } from "#app/domains/access/reader.ts";
import { scopeRange } from "#app/domains/search-index/document-ids.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import {
  type FtsTerm,
  ftsMatchExpression,
  ftsTermsOf,
  type QueryTerm,
  queryTerms,
  termMatches,
  tsqueryExpression,
} from "#app/lib/search-text.ts";
import { expandPrefixes } from "./fts-prefix.server.ts";
import { type Candidate, presentHits } from "./search-hits.server.ts";
import { SEARCH_KINDS, SEARCH_PAGE_SIZE, type SearchKind, type SearchResult } from "./search-schema.ts";
import { type SearchAudience, visibleItems } from "./search-visibility.server.ts";

/*
 * The site's search (issue 22, docs/decisions/015-search.md). The index (app/domains/search-index/) holds stems;
 * the database finds the items whose stems hold every query term (FTS5 on SQLite, a tsvector under GIN on
 * PostgreSQL), joined to the content tables under the same rules the public pages use, so that what a visitor may
 * not see is never found nor counted. The work is bounded: each kind reads its newest matches and its newest
 * matches by title, at most SEARCH_STREAM_LIMIT each, along the index's order (`readCandidatesSqlite`, `readCandidatesPostgres`). The order of the
 * results is decided here, in JavaScript, the same on both databases.
 */

export type { SearchAudience };

export type SearchOptions = {
  lang: Language;
  /** Cleaned by `readSearchParams` (search-schema.ts). */
  query: string;
  page: number;
  /** `admin` finds drafts, scheduled posts and hidden items too (the admin area's search). */
  audience?: SearchAudience;
  now?: Date;
  /** SEARCH_STREAM_LIMIT unless given (the tests of the bound use a small one). */
  streamLimit?: number;
  /** Hits on a page: SEARCH_PAGE_SIZE unless given (the type-ahead's suggestions ask for fewer). */
  pageSize?: number;
};

type Db = Kysely<Database>;

/** Candidates of each kind and stream: the newest this many matches (see `candidatesOf`). */
export const SEARCH_STREAM_LIMIT = 100;

/**
 * Which matches a stream reads: every row of the kind and language that holds every term, or only those whose
 * title holds every term.
 */
type Stream = "all" | "title";
type Lookup = {
  kind: SearchKind;
  lang: Language;
  terms: QueryTerm[];
  /** The terms as FTS5 is asked for them (SQLite: prefixes read out as words, fts-prefix.server.ts). */
  fts: FtsTerm[];
  stream: Stream;
  limit: number;
  /** Only documents older than this one (the title stream reads on where the newest matches stopped). */
  below?: DocumentId;
};
/** A document's id in the index: a number from SQLite, a bigint's text from PostgreSQL (sent back as it came). */
type DocumentId = number | string;
type CandidateRow = { id: string; title_terms: string; time: DbDate | null; document: DocumentId };

/** The FTS5 match of a stream (SQLite): every term, in the whole text or in the title only. */
function ftsMatchOf(lookup: Lookup): string {
  const terms = ftsMatchExpression(lookup.fts);
  return lookup.stream === "all" ? terms : `{title_terms} : (${terms})`;
}

/**
 * The rows of these kinds and language: a range of ids (document-ids.server.ts), which the full-text index seeks to
 * (FTS5 by rowid, PostgreSQL by the primary key) instead of intersecting every match with a list of the scope.
 */
function inScope(column: "f.rowid" | "d.id", kinds: readonly SearchKind[], lang: Language) {
  const { from, to } = scopeRange(kinds, lang);
  const bound = column === "f.rowid" ? ftsRowid : Number;
  return sql<boolean>`${sql.ref(column)} >= ${bound(from)} and ${sql.ref(column)} <= ${bound(to - 1)}`;
}

/**
 * A bound on FTS5's rowid, as an integer. better-sqlite3 binds a JavaScript number as a real, and FTS5 seeks only
 * to an integer bound (it ignores any other): it then walked every match of the scopes above, newest first, for
 * SQLite to drop (a common word's English posts, the lowest range: 0.56 ms a statement against 0.13 ms).
 */
function ftsRowid(value: number): bigint {
  return BigInt(value);
}

function timeOf(value: DbDate | null): number {
  if (value === null) return 0;
  return value instanceof Date ? value.getTime() : Date.parse(value);
}

/**
 * The candidates of one kind: the newest SEARCH_STREAM_LIMIT matches the audience may see and, when there were more,
 * also the newest SEARCH_STREAM_LIMIT whose title holds every term (the best matches, however old). `capped` says
 * that more matched than were read.
 */
async function candidatesOf(
  db: Db,
  base: Omit<Lookup, "stream">,
  audience: SearchAudience,
  now: Date,
): Promise<{ candidates: Candidate[]; capped: boolean }> {
  const toCandidate = (row: CandidateRow): Candidate => ({
    kind: base.kind,
    id: row.id,
    titleTerms: row.title_terms,
    time: timeOf(row.time),
  });
  const read = isPostgres(db) ? readCandidatesPostgres : readCandidatesSqlite;
  const all = await read(db, { ...base, stream: "all" }, audience, now);
  if (!all.more) return { candidates: all.rows.map(toCandidate), capped: false };
  // Every title match newer than the last of the newest matches is among them (it holds every term): the title
  // stream reads on from there, so its limit goes to matches not already found, and its statement reads less.
  const below = all.rows[all.rows.length - 1]?.document;
  const titled = await read(db, { ...base, stream: "title", below }, audience, now);
  return { candidates: [...all.rows, ...titled.rows].map(toCandidate), capped: true };
}

/** A stream's newest matches the audience may see, at most its limit; `more` when there may be others. */
type StreamRows = { rows: CandidateRow[]; more: boolean };

/**
 * SQLite: one statement. FTS5 walks its matches newest first (only an order by the FTS5 table's own rowid is walked
 * by it, with no sort of every match), each joined to its item under the visibility rule, until the limit got through.
 */
async function readCandidatesSqlite(db: Db, lookup: Lookup, audience: SearchAudience, now: Date): Promise<StreamRows> {
  const rows = await db
    .selectFrom("search_documents as d")
    .innerJoin("search_fts as f", "f.rowid", "d.id")
    .innerJoin(visibleItems(db, lookup.kind, audience, now).as("v"), "v.item_id", "d.item_id")
    .where(sql<boolean>`search_fts match ${ftsMatchOf(lookup)}`)
    .where(inScope("f.rowid", [lookup.kind], lookup.lang))
    .$if(lookup.below !== undefined, (query) => query.where(sql<boolean>`f.rowid < ${ftsRowid(Number(lookup.below))}`))
    .select(["v.item_id as id", "d.title_terms", "v.time", "d.id as document"])
    .orderBy(sql`f.rowid`, "desc")
    .limit(lookup.limit)
    .execute();
  return { rows, more: rows.length === lookup.limit };
}

/** The most documents a batch of PostgreSQL's reads (grows from the limit, each batch twice the one before). */
const POSTGRES_BATCH_MAX = 3200;

/** A document of a batch, and its item's date when the audience may see it (`visible` null when not). */
type BatchRow = { id: DocumentId; item_id: string; title_terms: string; visible: string | null; time: DbDate | null };

/**
 * PostgreSQL: one statement a batch. The matching documents alone first, newest first, in a subquery with its own
 * limit (which the planner keeps apart: it reads them by the GIN index, or backwards along the primary key when the
 * terms are common, and stops at the limit), then each one's item under the visibility rule, looked up by its id
 * (a lateral subquery, so by the primary key: asked as one join, the planner joined by hash over a whole content
 * table, or walked a kind's documents backwards where its estimate of a prefix was wrong, 7–23 ms a statement at
 * 10,000 pictures). A document whose item the audience may not see comes back without it; while such documents
 * kept the limit from being reached, another batch reads on, each twice the one before, until the limit got
 * through or the matches ran out: the same answer as SQLite's walk. (It was two statements a batch, the documents
 * and then their items: each a round trip, of the about fourteen a search made; decision 015.)
 */
async function readCandidatesPostgres(
  db: Db,
  lookup: Lookup,
  audience: SearchAudience,
  now: Date,
): Promise<StreamRows> {
  const terms = tsqueryExpression(lookup.terms);
  const vector = sql.ref(lookup.stream === "all" ? "d.terms_vector" : "d.title_vector");
  const condition = sql<boolean>`${vector} @@ ${terms}::tsquery and ${inScope("d.id", [lookup.kind], lookup.lang)}`;
  const rows: CandidateRow[] = [];
  let before: DocumentId | null = lookup.below ?? null;
  for (let size = lookup.limit; ; size = Math.min(size * 2, POSTGRES_BATCH_MAX)) {
    const after: DocumentId | null = before;
    const documents = db
      .selectFrom("search_documents as d")
      .select(["d.id", "d.item_id", "d.title_terms"])
      .where(condition)
      .$if(after !== null, (query) => query.where(sql<boolean>`d.id < ${after}`))
      .orderBy("d.id", "desc")
      .limit(size);
    const batch: BatchRow[] = await db
      .selectFrom(documents.as("m"))
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom(visibleItems(db, lookup.kind, audience, now).as("i"))
            .select(["i.item_id", "i.time"])
            .whereRef("i.item_id", "=", "m.item_id")
            // One row at most (an id is unique): and a subquery with a limit stays a lookup per document.
            .limit(1)
            .as("v"),
        (join) => join.onTrue(),
      )
      .select(["m.id", "m.item_id", "m.title_terms", "v.item_id as visible", "v.time"])
      .orderBy("m.id", "desc")
      .execute();
    if (batch.length === 0) return { rows, more: false };
    for (const document of batch) {
      if (document.visible === null) continue;
      rows.push({
        id: document.item_id,
        title_terms: document.title_terms,
        time: document.time,
        document: document.id,
      });
      if (rows.length === lookup.limit) return { rows, more: true };
    }
    if (batch.length < size) return { rows, more: false };
    // (A bigint arrives as text from PostgreSQL and goes back as it came.)
    before = batch[batch.length - 1]?.id ?? null;
  }
}

/** The kinds a site holds few of (tens, hundreds): one look for all three before a query for each that matched. */
const FEW_KINDS: readonly SearchKind[] = ["faq", "video", "link"];

/**
 * Which of these kinds have any document in the language that holds every term (whoever may see it): one full-text
 * match for all of them instead of one per kind, which for a common word and its beginning costs the gathering of
 * all its matches each time (0.7 ms at 10,000 pictures). The kinds' own queries then apply their visibility.
 */
async function kindsHolding(db: Db, kinds: readonly SearchKind[], lang: Language, terms: QueryTerm[], fts: FtsTerm[]) {
  if (isPostgres(db)) {
    // The few kinds' documents read along their range, each tested against the query: the planner, which cannot
    // tell from its statistics how few ids a range holds, otherwise intersects the range with the GIN index's list of
    // every document holding a common word (8.6 ms for 'mountain' at 10,000 pictures, against 0.6 ms; OFFSET 0 keeps
    // the subquery apart).
    const range = db
      .selectFrom("search_documents as d")
      // (PostgreSQL's generated column, not in the shared schema's types.)
      .select(["d.kind", sql<unknown>`d.terms_vector`.as("terms_vector")])
      .where(inScope("d.id", kinds, lang))
      .offset(0);
    const rows = await db
      .selectFrom(range.as("r"))
      .select("r.kind")
      .distinct()
      .where(sql<boolean>`r.terms_vector @@ ${tsqueryExpression(terms)}::tsquery`)
      .execute();
    return new Set(rows.map((row) => row.kind));
  }
  const rows = await db
    .selectFrom("search_documents as d")
    .innerJoin("search_fts as f", "f.rowid", "d.id")
    .select("d.kind")
    .distinct()
    .where(sql<boolean>`search_fts match ${ftsMatchExpression(fts)}`)
    .where(inScope("f.rowid", kinds, lang))
    .execute();
  return new Set(rows.map((row) => row.kind));
}

const KIND_ORDER: Record<SearchKind, number> = { post: 0, picture: 1, faq: 2, video: 3, link: 4 };

/**
 * The order of the results, the same on both databases: items with more of the query's terms in their title
 * first, then the newest, then by kind and id (a stable order for paging).
 */
export function rankCandidates(candidates: Candidate[], terms: QueryTerm[]): Candidate[] {
  const titleScore = new Map<Candidate, number>();
  for (const candidate of candidates) {
    const stems = candidate.titleTerms === "" ? [] : candidate.titleTerms.split(" ");
    titleScore.set(candidate, terms.filter((term) => stems.some((stem) => termMatches(term, stem))).length);
  }
  return candidates.toSorted(
    (a, b) =>
      (titleScore.get(b) ?? 0) - (titleScore.get(a) ?? 0) ||
      b.time - a.time ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/**
 * One page of the search's results: the items of every kind that hold every word of the query (the last one as a
 * beginning too), in the searcher's language, that the audience may see. A query with no word (only signs or
 * emoji) finds nothing.
 */
export async function searchSite(db: Db, options: SearchOptions): Promise<SearchResult> {
  const terms = queryTerms(options.query, options.lang);
  const nothing: SearchResult = { query: options.query, total: 0, capped: false, page: 1, pageCount: 1, hits: [] };
  if (terms.length === 0) return nothing;
  const now = options.now ?? new Date();
  const audience = options.audience ?? VISITOR;
  let fts = ftsTermsOf(terms);
  if (!isPostgres(db)) {
    const expanded = await expandPrefixes(db, terms);
    // A beginning that no word of the index has: nothing can match.
    if (!expanded) return nothing;
    fts = expanded;
  }
  const candidates: Candidate[] = [];
  let capped = false;
  const few = await kindsHolding(db, FEW_KINDS, options.lang, terms, fts);
  // One kind after the other: on SQLite every statement runs alone anyway, and on PostgreSQL one connection of the
  // pool per search leaves the others to other requests.
  for (const kind of SEARCH_KINDS) {
    if (FEW_KINDS.includes(kind) && !few.has(kind)) continue;
    const limit = options.streamLimit ?? SEARCH_STREAM_LIMIT;
    const found = await candidatesOf(db, { kind, lang: options.lang, terms, fts, limit }, audience, now);
    candidates.push(...found.candidates);
    capped ||= found.capped;
  }
  const ranked = rankCandidates(candidates, terms);
  const total = ranked.length;
  const pageSize = options.pageSize ?? SEARCH_PAGE_SIZE;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  // A page past the last (an old link, a hand-made address) shows the last one.
  const page = Math.min(Math.max(1, options.page), pageCount);
  const start = (page - 1) * pageSize;
  const onPage = ranked.slice(start, start + pageSize);
  const hits = await presentHits(db, onPage, terms, options.lang, audience);
  return { query: options.query, total, capped, page, pageCount, hits };
}
