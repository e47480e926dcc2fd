import { type Kysely, PostgresAdapter, type RawBuilder, sql } from "kysely";
import type { Database, DbDate } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { publishedQuery } from "#app/domains/gallery/gallery-public.server.ts";
import { visibleAt } from "#app/domains/posts/post-rows.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import {
  ftsMatchExpression,
  type QueryTerm,
  queryTerms,
  termMatches,
  tsqueryExpression,
} from "#app/lib/search-text.ts";
import { type Candidate, presentHits } from "./search-hits.server.ts";
import {
  SEARCH_KINDS,
  SEARCH_MAX_RESULTS,
  SEARCH_PAGE_SIZE,
  type SearchKind,
  type SearchResult,
} from "./search-schema.ts";

/*
 * The site's search (issue 22, docs/decisions/015-search.md). The index (app/domains/search-index/) holds stems;
 * the database finds the items whose stems hold every query term (FTS5 on SQLite, a tsvector under GIN on
 * PostgreSQL), joined to the content tables under the same rules the public pages use, so that what a visitor may
 * not see is never found nor counted. The order is decided here, in JavaScript, the same on both databases.
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
};

type Db = Kysely<Database>;

/** The database's own test of "the document holds every term": FTS5's MATCH, or tsvector @@ tsquery. */
function matchCondition(db: Db, terms: QueryTerm[]): RawBuilder<boolean> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    return sql<boolean>`d.terms_vector @@ ${tsqueryExpression(terms)}::tsquery`;
  }
  // `+d.id`: not an index constraint. SQLite would otherwise probe the index once per matching row for every item
  // it joins (posts first, by their own index): 2,000 posts × 9,000 matches took 11 s for "mountain"; as a
  // filter, the matches are looked up in a Bloom filter and a list made once (21 ms).
  return sql<boolean>`+d.id in (select rowid from search_fts where search_fts match ${ftsMatchExpression(terms)})`;
}

function timeOf(value: DbDate | null): number {
  return value === null ? 0 : new Date(toIsoString(value)).getTime();
}

type Lookup = { kind: SearchKind; lang: Language; match: RawBuilder<boolean> };
type CandidateRow = { id: string; title_terms: string; time: DbDate | null };

/**
 * The matching items of one kind the audience may see, newest first (ties by id), at most SEARCH_MAX_RESULTS: the
 * work of one search is bounded however common its words.
 */
async function candidatesOf(db: Db, lookup: Lookup, audience: SearchAudience, now: Date): Promise<Candidate[]> {
  const rows = await readCandidates(db, lookup, audience, now);
  return rows.map((row) => ({ kind: lookup.kind, id: row.id, titleTerms: row.title_terms, time: timeOf(row.time) }));
}

async function readCandidates(db: Db, doc: Lookup, audience: SearchAudience, now: Date): Promise<CandidateRow[]> {
  const admin = audience === "admin";
  switch (doc.kind) {
    case "post": {
      // The blog's rule (post-rows.server.ts): published, or scheduled and due; drafts only for the admin.
      const base = db.selectFrom("posts as p");
      const visible = admin ? base : base.where(visibleAt(now));
      return visible
        .innerJoin("search_documents as d", "d.item_id", "p.id")
        .where("d.kind", "=", doc.kind)
        .where("d.lang", "=", doc.lang)
        .where(doc.match)
        .select(["p.id", "d.title_terms", (eb) => eb.fn.coalesce("p.publish_at", "p.created_at").as("time")])
        .orderBy("time", "desc")
        .orderBy("p.id")
        .limit(SEARCH_MAX_RESULTS)
        .execute();
    }
    case "picture": {
      // The gallery's rule (gallery-public.server.ts): published, and every size made.
      const base = admin
        ? db.selectFrom("gallery_images as g").innerJoin("images as i", "i.id", "g.image_id")
        : publishedQuery(db);
      return base
        .innerJoin("search_documents as d", "d.item_id", "g.id")
        .where("d.kind", "=", doc.kind)
        .where("d.lang", "=", doc.lang)
        .where(doc.match)
        .select(["g.id", "d.title_terms", "g.created_at as time"])
        .orderBy("g.created_at", "desc")
        .orderBy("g.id")
        .limit(SEARCH_MAX_RESULTS)
        .execute();
    }
    case "faq":
      return activeContent(db, "faq_entries", doc, admin);
    case "video":
      return activeContent(db, "videos", doc, admin);
    case "link":
      return activeContent(db, "links", doc, admin);
  }
}

/** The links, FAQ and videos pages show the active rows (`listActive` in content.server.ts): the same rule here. */
async function activeContent(
  db: Db,
  table: "faq_entries" | "videos" | "links",
  doc: Lookup,
  admin: boolean,
): Promise<CandidateRow[]> {
  // The three tables share these columns; Kysely cannot type a query over a union of tables (as content.server.ts).
  const base = db.selectFrom(`${table as "links"} as c`);
  const visible = admin ? base : base.where("c.active", "=", true);
  return visible
    .innerJoin("search_documents as d", "d.item_id", "c.id")
    .where("d.kind", "=", doc.kind)
    .where("d.lang", "=", doc.lang)
    .where(doc.match)
    .select(["c.id", "d.title_terms", "c.created_at as time"])
    .orderBy("c.created_at", "desc")
    .orderBy("c.id")
    .limit(SEARCH_MAX_RESULTS)
    .execute();
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
  if (terms.length === 0) return { query: options.query, total: 0, page: 1, pageCount: 1, hits: [] };
  const now = options.now ?? new Date();
  const audience = options.audience ?? "public";
  const match = matchCondition(db, terms);
  const candidates: Candidate[] = [];
  // One kind after the other: on SQLite every statement runs alone anyway, and on PostgreSQL one connection of the
  // pool per search leaves the others to other requests.
  for (const kind of SEARCH_KINDS) {
    candidates.push(...(await candidatesOf(db, { kind, lang: options.lang, match }, audience, now)));
  }
  const ranked = rankCandidates(candidates, terms).slice(0, SEARCH_MAX_RESULTS);
  const total = ranked.length;
  const pageCount = Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE));
  // A page past the last (an old link, a hand-made address) shows the last one.
  const page = Math.min(Math.max(1, options.page), pageCount);
  const start = (page - 1) * SEARCH_PAGE_SIZE;
  const onPage = ranked.slice(start, start + SEARCH_PAGE_SIZE);
  const hits = await presentHits(db, onPage, terms, options.lang, audience);
  return { query: options.query, total, page, pageCount, hits };
}
