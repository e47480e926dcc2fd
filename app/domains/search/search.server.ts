import { type Kysely, PostgresAdapter, type RawBuilder, sql } from "kysely";
import type { Database, DbDate } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { publishedQuery } from "#app/domains/gallery/gallery-public.server.ts";
import { visibleAt } from "#app/domains/posts/post-rows.server.ts";
import { scopeTerm } from "#app/domains/search-index/document-ids.server.ts";
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

/*
 * The site's search (issue 22, docs/decisions/015-search.md). The index (app/domains/search-index/) holds stems;
 * the database finds the items whose stems hold every query term (FTS5 on SQLite, a tsvector under GIN on
 * PostgreSQL), joined to the content tables under the same rules the public pages use, so that what a visitor may
 * not see is never found nor counted. The work is bounded: each kind reads its newest matches and its newest
 * matches by title, at most SEARCH_STREAM_LIMIT each, along the index's order (`matchParts`). The order of the
 * results is decided here, in JavaScript, the same on both databases.
 */

export type SearchAudience = "public" | "admin";

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
};
type CandidateRow = { id: string; title_terms: string; time: DbDate | null };

/** How a stream's query finds its matches, newest first: the parts each kind's query takes in. */
type MatchParts = { joinFts: boolean; condition: RawBuilder<boolean>; newest: RawBuilder<unknown> };

/**
 * The matching documents of the lookup's scope, newest first (the index's ids follow the items' dates:
 * search-index/document-ids.server.ts). SQLite walks the FTS5 matches in rowid order, PostgreSQL the primary key or
 * the GIN matches; joined to the items the audience may see, either stops at the limit once the visibility rule
 * has let that many through, so a common word costs the limit, not every item that holds it.
 */
function matchParts(db: Db, lookup: Lookup): MatchParts {
  const scope = scopeTerm(lookup.kind, lookup.lang);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const terms = tsqueryExpression(lookup.terms);
    const condition =
      lookup.stream === "all"
        ? sql<boolean>`d.terms_vector @@ ${`'${scope}' & (${terms})`}::tsquery`
        : sql<boolean>`d.title_vector @@ ${terms}::tsquery`;
    return { joinFts: false, condition, newest: sql`d.id` };
  }
  const terms = ftsMatchExpression(lookup.fts);
  const expression =
    lookup.stream === "all" ? `"${scope}" AND (${terms})` : `"${scope}" AND {title_terms} : (${terms})`;
  // `f.rowid`, not `d.id`: only an order by the FTS5 table's own rowid is walked by it (no sort of every match).
  return { joinFts: true, condition: sql<boolean>`search_fts match ${expression}`, newest: sql`f.rowid` };
}

function timeOf(value: DbDate | null): number {
  return value === null ? 0 : new Date(toIsoString(value)).getTime();
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
  const all = await readCandidates(db, { ...base, stream: "all" }, audience, now);
  if (all.length < base.limit) return { candidates: all.map(toCandidate), capped: false };
  const seen = new Set(all.map((row) => row.id));
  const titled = await readCandidates(db, { ...base, stream: "title" }, audience, now);
  const more = titled.filter((row) => !seen.has(row.id));
  return { candidates: [...all, ...more].map(toCandidate), capped: true };
}

async function readCandidates(db: Db, lookup: Lookup, audience: SearchAudience, now: Date): Promise<CandidateRow[]> {
  const admin = audience === "admin";
  const match = matchParts(db, lookup);
  switch (lookup.kind) {
    case "post": {
      // The blog's rule (post-rows.server.ts): published, or scheduled and due; drafts only for the admin.
      const base = db.selectFrom("posts as p");
      return (admin ? base : base.where(visibleAt(now)))
        .innerJoin("search_documents as d", "d.item_id", "p.id")
        .$if(match.joinFts, (query) => query.innerJoin("search_fts as f", "f.rowid", "d.id"))
        .where("d.kind", "=", lookup.kind)
        .where("d.lang", "=", lookup.lang)
        .where(match.condition)
        .select(["p.id", "d.title_terms", (eb) => eb.fn.coalesce("p.publish_at", "p.created_at").as("time")])
        .orderBy(match.newest, "desc")
        .limit(lookup.limit)
        .execute();
    }
    case "picture": {
      // The gallery's rule (gallery-public.server.ts): published, and every size made.
      const base = admin
        ? db.selectFrom("gallery_images as g").innerJoin("images as i", "i.id", "g.image_id")
        : publishedQuery(db);
      return base
        .innerJoin("search_documents as d", "d.item_id", "g.id")
        .$if(match.joinFts, (query) => query.innerJoin("search_fts as f", "f.rowid", "d.id"))
        .where("d.kind", "=", lookup.kind)
        .where("d.lang", "=", lookup.lang)
        .where(match.condition)
        .select(["g.id", "d.title_terms", "g.created_at as time"])
        .orderBy(match.newest, "desc")
        .limit(lookup.limit)
        .execute();
    }
    case "faq":
      return activeContent(db, "faq_entries", lookup, match, admin);
    case "video":
      return activeContent(db, "videos", lookup, match, admin);
    case "link":
      return activeContent(db, "links", lookup, match, admin);
  }
}

/** The links, FAQ and videos pages show the active rows (`listActive` in content.server.ts): the same rule here. */
async function activeContent(
  db: Db,
  table: "faq_entries" | "videos" | "links",
  lookup: Lookup,
  match: MatchParts,
  admin: boolean,
): Promise<CandidateRow[]> {
  // The three tables share these columns; Kysely cannot type a query over a union of tables (as content.server.ts).
  const base = db.selectFrom(`${table as "links"} as c`);
  return (admin ? base : base.where("c.active", "=", true))
    .innerJoin("search_documents as d", "d.item_id", "c.id")
    .$if(match.joinFts, (query) => query.innerJoin("search_fts as f", "f.rowid", "d.id"))
    .where("d.kind", "=", lookup.kind)
    .where("d.lang", "=", lookup.lang)
    .where(match.condition)
    .select(["c.id", "d.title_terms", "c.created_at as time"])
    .orderBy(match.newest, "desc")
    .limit(lookup.limit)
    .execute();
}

/** The kinds a site holds few of (tens, hundreds): one look for all three before a query for each that matched. */
const FEW_KINDS: readonly SearchKind[] = ["faq", "video", "link"];

/**
 * Which of these kinds have any document in the language that holds every term (whoever may see it): one full-text
 * match for all of them instead of one per kind, which for a common word and its beginning costs the gathering of
 * all its matches each time (0.7 ms at 10,000 pictures). The kinds' own queries then apply their visibility.
 */
async function kindsHolding(db: Db, kinds: readonly SearchKind[], lang: Language, terms: QueryTerm[], fts: FtsTerm[]) {
  const scopes = kinds.map((kind) => scopeTerm(kind, lang));
  const query = db.selectFrom("search_documents as d").select("d.kind").distinct();
  const rows =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? await query
          .where(
            sql<boolean>`d.terms_vector @@ ${`(${scopes.map((scope) => `'${scope}'`).join(" | ")}) & (${tsqueryExpression(terms)})`}::tsquery`,
          )
          .execute()
      : await query
          .innerJoin("search_fts as f", "f.rowid", "d.id")
          .where(
            sql<boolean>`search_fts match ${`(${scopes.map((scope) => `"${scope}"`).join(" OR ")}) AND (${ftsMatchExpression(fts)})`}`,
          )
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
  const audience = options.audience ?? "public";
  let fts = ftsTermsOf(terms);
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
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
  const pageCount = Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE));
  // A page past the last (an old link, a hand-made address) shows the last one.
  const page = Math.min(Math.max(1, options.page), pageCount);
  const start = (page - 1) * SEARCH_PAGE_SIZE;
  const onPage = ranked.slice(start, start + SEARCH_PAGE_SIZE);
  const hits = await presentHits(db, onPage, terms, options.lang, audience);
  return { query: options.query, total, capped, page, pageCount, hits };
}
