import { type Kysely, sql } from "kysely";
import { isPostgres } from "#app/db/database.server.ts";
import type { Database, DbDate } from "#app/db/schema.ts";
import { VISITOR } from "#app/domains/access/reader.ts";
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
import { readStreamsPostgres } from "./search-postgres.server.ts";
import { SEARCH_KINDS, SEARCH_PAGE_SIZE, type SearchKind, type SearchResult } from "./search-schema.ts";
import { type CandidateRow, ftsRowid, inScope, type Lookup, type StreamRows } from "./search-stream.server.ts";
import { type SearchAudience, visibleItems } from "./search-visibility.server.ts";

/*
 * The site's search (issue 22, docs/decisions/015-search.md). The index (app/domains/search-index/) holds stems;
 * the database finds the items whose stems hold every query term (FTS5 on SQLite, a tsvector under GIN on
 * PostgreSQL), joined to the content tables under the same rules the public pages use, so that what a visitor may
 * not see is never found nor counted. The work is bounded: each kind reads its newest matches and its newest
 * matches by title, at most SEARCH_STREAM_LIMIT each, along the index's order (`readStreamSqlite`, and
 * `readStreamsPostgres` in search-postgres.server.ts). The order of the results is decided here, in JavaScript, the
 * same on both databases.
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

/** The FTS5 match of a stream (SQLite): every term, in the whole text or in the title only. */
function ftsMatchOf(lookup: Lookup): string {
  const terms = ftsMatchExpression(lookup.fts);
  return lookup.stream === "all" ? terms : `{title_terms} : (${terms})`;
}

function timeOf(value: DbDate | null): number {
  if (value === null) return 0;
  return value instanceof Date ? value.getTime() : Date.parse(value);
}

/**
 * The candidates of every kind: each kind's newest SEARCH_STREAM_LIMIT matches the audience may see and, for a kind
 * with more, also its newest SEARCH_STREAM_LIMIT whose title holds every term (the best matches, however old).
 * `capped` says that more matched than were read.
 */
async function candidatesOf(
  db: Db,
  bases: Omit<Lookup, "stream">[],
  audience: SearchAudience,
  now: Date,
): Promise<{ candidates: Candidate[]; capped: boolean }> {
  const read = async (lookups: Lookup[]): Promise<StreamRows[]> => {
    if (isPostgres(db)) return readStreamsPostgres(db, lookups, audience, now);
    // On SQLite every statement runs alone anyway: one stream after the other.
    const streams: StreamRows[] = [];
    for (const lookup of lookups) streams.push(await readStreamSqlite(db, lookup, audience, now));
    return streams;
  };
  const all = await read(bases.map((base) => ({ ...base, stream: "all" })));
  // Every title match newer than the last of a kind's newest matches is among them (it holds every term): its title
  // stream reads on from there, so its limit goes to matches not already found, and its statement reads less.
  const titled = bases.flatMap((base, index): Lookup[] => {
    const newest = all[index];
    if (!newest?.more) return [];
    return [{ ...base, stream: "title", below: newest.rows[newest.rows.length - 1]?.document }];
  });
  const titles = await read(titled);
  const candidates: Candidate[] = [];
  const add = (kind: SearchKind, rows: CandidateRow[]) => {
    for (const row of rows) candidates.push({ kind, id: row.id, titleTerms: row.title_terms, time: timeOf(row.time) });
  };
  for (const [index, base] of bases.entries()) add(base.kind, all[index]?.rows ?? []);
  for (const [index, lookup] of titled.entries()) add(lookup.kind, titles[index]?.rows ?? []);
  return { candidates, capped: titled.length > 0 };
}

/**
 * SQLite: one statement a stream. FTS5 walks its matches newest first (only an order by the FTS5 table's own rowid is
 * walked by it, with no sort of every match), each joined to its item under the visibility rule, until the limit got
 * through.
 */
async function readStreamSqlite(db: Db, lookup: Lookup, audience: SearchAudience, now: Date): Promise<StreamRows> {
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
  const few = await kindsHolding(db, FEW_KINDS, options.lang, terms, fts);
  const limit = options.streamLimit ?? SEARCH_STREAM_LIMIT;
  const bases = SEARCH_KINDS.filter((kind) => !FEW_KINDS.includes(kind) || few.has(kind)).map((kind) => ({
    kind,
    lang: options.lang,
    terms,
    fts,
    limit,
  }));
  const { candidates, capped } = await candidatesOf(db, bases, audience, now);
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
