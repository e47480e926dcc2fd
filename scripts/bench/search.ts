import fs from "node:fs";
import path from "node:path";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { request, type ServerProcess } from "#tests/support/server-process.ts";
import { startApp } from "./processes.ts";
import { RARE_WORD } from "./search-corpus.ts";
import { postgresServerUrl, seedSearchPostgres } from "./search-postgres.ts";
import { seedSearchData } from "./search-seed.ts";
import { describe, formatNumber, median, type Row, range, verdictOf } from "./stats.ts";
import type { LoadRun, WrkOptions, WrkResult } from "./wrk.ts";

/*
 * The search section (`--search`, issue 22): what a search costs next to a page render, on a site of 10,000
 * pictures and 2,000 posts of realistic length in English and German. The data goes straight into the database
 * of a fresh data folder (the sample content made by seed-data.ts, then rows copied from its first ready
 * picture, so that every picture is published with every size made, as the gallery's `publishedQuery` wants),
 * and the index is built by the real `reindexAll` (timed). One production server, page cache off, serves both
 * sides: wrk at 50 connections on a rotation of search URLs (a Lua script: several queries, EN and DE, one and
 * two words, a prefix, many and few results) against wrk on the uncached `/blog`, round by round, which goes
 * first alternating. The server limits searches per client address (search-limit.server.ts, 120 a minute):
 * it runs with TRUST_PROXY=1 and the script gives the requests X-Forwarded-For addresses from a pool of
 * ADDRESSES, so each address stays far below its limit and the limiter's map below its bound (10,000 keys:
 * beyond it each new address would cost a sweep of the map, which a real flood of addresses pays but a
 * benchmark of the search should not).
 */

export type SearchSettings = { rounds: number; seconds: number; pictures: number; posts: number };

const CONNECTIONS = 50;
const ADDRESSES = 8000;

/** The searches of the rotation: language, query, and what each one stands for. */
export const SEARCH_QUERIES: { lang: "en" | "de"; q: string; kind: string }[] = [
  { lang: "en", q: "mountain", kind: "one word, many results" },
  { lang: "en", q: "golden light", kind: "two words" },
  { lang: "en", q: "photog", kind: "prefix" },
  { lang: "en", q: RARE_WORD.en, kind: "one word, few results" },
  { lang: "de", q: "Wanderung", kind: "one word, many results" },
  { lang: "de", q: "alte Brücke", kind: "two words" },
  { lang: "de", q: "Somm", kind: "prefix" },
  { lang: "de", q: "Hütte", kind: "compound part (Alpenhütte)" },
  { lang: "de", q: RARE_WORD.de, kind: "one word, few results" },
];

export type SearchResult = {
  pictures: number;
  posts: number;
  reindexMs: number;
  indexed: Record<string, number>;
  /** Bytes of search_documents (with its indexes) and the FTS5 table's shadow tables, by dbstat. */
  indexBytes: number;
  databaseBytes: number;
  /** Each query with the page's count of results ("1000+ results for …"), as a check that it found something. */
  queries: ((typeof SEARCH_QUERIES)[number] & { found: string })[];
  /** The same on PostgreSQL (pg_total_relation_size of search_documents), when a server was named. */
  postgres: { reindexMs: number; indexBytes: number; databaseBytes: number } | null;
};

/**
 * What a search is asked as: the `/search` page (a page render plus the search), or the header's type-ahead, whose
 * fetcher asks for the search route's data alone (React Router's `.data` request naming that one route), with only
 * the hits it shows (`suggest=1`): the search itself, without a page around it.
 */
export type SearchAsked = "page" | "typeahead";

/** The address of a search of `q`, asked as `asked`. */
export function searchPath(q: string, asked: SearchAsked): string {
  const query = encodeURIComponent(q);
  return asked === "page" ? `/search?q=${query}` : `/search.data?q=${query}&suggest=1&_routes=routes%2Fsearch`;
}

/** The wrk script: each request the next search URL of the rotation, from the next address of the pool. */
export function searchScript(asked: SearchAsked = "page"): string {
  const paths = SEARCH_QUERIES.map(
    (entry) => `{ "${searchPath(entry.q, asked)}", "${entry.lang === "de" ? "de" : "en"}" }`,
  );
  return `-- Written by scripts/bench/search.ts.
local searches = { ${paths.join(", ")} }
local counter = 0
request = function()
  counter = counter + 1
  local search = searches[(counter % #searches) + 1]
  local address = counter % ${ADDRESSES}
  local headers = {
    ["Accept-Language"] = search[2],
    ["X-Forwarded-For"] = string.format("10.%d.%d.%d", 1 + math.floor(address / 65536), math.floor(address / 256) % 256, address % 256),
  }
  return wrk.format("GET", search[1], headers)
end
${P95_DONE}`;
}

/** wrk prints the 50th, 75th, 90th and 99th percentiles; the 95th comes from this, in its format (wrk.ts). */
const P95_DONE = `done = function(summary, latency, requests)
  io.write(string.format("  95%%  %dus\\n", latency:percentile(95)))
end
`;

export type SearchContext = {
  settings: SearchSettings;
  authSecret: string;
  dir: string;
  hasWrk: boolean;
  smoke: boolean;
  record: (name: string, value: number) => void;
  load: LoadRun;
  runWrk: (url: string, options: WrkOptions) => Promise<WrkResult>;
  problems: string[];
  /** Lists the server as soon as it runs, so that the bench's clean-up stops it after a failure. */
  started: (server: Promise<ServerProcess>) => Promise<ServerProcess>;
};

/** Seeds, measures on SQLite, then (with a PostgreSQL server named) on PostgreSQL; stops what it started. */
export async function measureSearch(context: SearchContext): Promise<SearchResult> {
  const { settings, record } = context;
  const dataDir = path.join(context.dir, "search");
  console.log(`Search: seeding ${settings.pictures} pictures and ${settings.posts} posts, then reindexing…`);
  const seeded = await seedSearchData(dataDir, settings, context.authSecret);
  record("search reindex", seeded.reindexMs / 1000);
  console.log(
    `Search: reindexed in ${formatNumber(seeded.reindexMs / 1000)} s; index ${formatNumber(seeded.indexBytes / 1024 / 1024)} MB`,
  );
  const script = path.join(context.dir, "search.lua");
  fs.writeFileSync(script, searchScript());
  const typeaheadScript = path.join(context.dir, "typeahead.lua");
  fs.writeFileSync(typeaheadScript, searchScript("typeahead"));
  const blogScript = path.join(context.dir, "p95.lua");
  fs.writeFileSync(blogScript, P95_DONE);
  const scripts = { script, typeaheadScript, blogScript };
  const queries = await measureOn(context, { dataDir }, "", scripts);
  const result: SearchResult = {
    ...seeded,
    pictures: settings.pictures,
    posts: settings.posts,
    queries,
    postgres: null,
  };

  const serverUrl = postgresServerUrl();
  if (serverUrl) {
    console.log("Search: the same data on PostgreSQL, reindexing…");
    const pg = await seedSearchPostgres(serverUrl, sqliteFileIn(dataDir));
    try {
      record("pg search reindex", pg.reindexMs / 1000);
      await measureOn(context, { dataDir, databaseUrl: pg.databaseUrl }, "pg ", scripts);
      result.postgres = { reindexMs: pg.reindexMs, indexBytes: pg.indexBytes, databaseBytes: pg.databaseBytes };
    } finally {
      await pg.database.destroy();
    }
  }
  return result;
}

/**
 * One server on that database (page cache off), checked to find something for every query, then the rounds:
 * search against `/blog`, which goes first alternating. Figures are recorded under `prefix`.
 */
async function measureOn(
  context: SearchContext,
  where: { dataDir: string; databaseUrl?: string },
  prefix: string,
  scripts: { script: string; typeaheadScript: string; blogScript: string },
): Promise<SearchResult["queries"]> {
  const { settings } = context;
  const record = (name: string, value: number) => context.record(`${prefix}${name}`, value);
  const kind = prefix ? "PostgreSQL" : "SQLite";
  const server = await context.started(
    startApp({
      dataDir: where.dataDir,
      authSecret: context.authSecret,
      pageCache: false,
      env: { TRUST_PROXY: "1", DATABASE_URL: where.databaseUrl },
    }),
  );
  const queries: SearchResult["queries"] = [];
  try {
    // Each search answers, with results: a run of 429s or empty pages would measure something else.
    for (const entry of SEARCH_QUERIES) {
      const response = await request(server.url(`/search?q=${encodeURIComponent(entry.q)}`), {
        headers: { "Accept-Language": entry.lang },
      });
      if (response.status !== 200) throw new Error(`/search?q=${entry.q} answered ${response.status}`);
      const found = response.body.match(/id="search-results-heading"[^>]*>([^<]*)</)?.[1] ?? "no results";
      if (found === "no results") context.problems.push(`Search (${kind}): "${entry.q}" (${entry.lang}) found nothing`);
      queries.push({ ...entry, found });
      // The type-ahead's request finds the same (the heading's words are in its data as well).
      const typeahead = await request(server.url(searchPath(entry.q, "typeahead")), {
        headers: { "Accept-Language": entry.lang },
      });
      if (typeahead.status !== 200 || !typeahead.body.includes(entry.q.split(" ")[0] ?? entry.q)) {
        throw new Error(`${searchPath(entry.q, "typeahead")} answered ${typeahead.status} without the query`);
      }
    }
    const blog = await request(server.url("/blog"));
    if (blog.status !== 200) throw new Error(`/blog answered ${blog.status}`);
    if (!context.hasWrk) return queries;

    if (!context.smoke) {
      console.log(`Search (${kind}): warming up…`);
      await context.runWrk(server.url("/"), { connections: 10, seconds: 2, script: scripts.script });
      await context.runWrk(server.url("/blog"), { connections: 10, seconds: 2 });
    }
    for (let round = 1; round <= settings.rounds; round++) {
      console.log(`Search (${kind}): round ${round} of ${settings.rounds}…`);
      const sides = {
        search: { label: `search page (rotation of ${SEARCH_QUERIES.length})`, url: "/", script: scripts.script },
        typeahead: {
          label: `type-ahead's search (rotation of ${SEARCH_QUERIES.length})`,
          url: "/",
          script: scripts.typeaheadScript,
        },
        blog: { label: "app (cache off) /blog", url: "/blog", script: scripts.blogScript },
      } as const;
      // Side by side, each round in another order (the three take turns going first): at 50 connections
      // (throughput, and latency with the queue), then at 1 connection (each request alone: the server's own time
      // for it, the bench's "server time").
      const order = SIDE_ORDERS[(round - 1) % SIDE_ORDERS.length] ?? SIDE_ORDERS[0];
      for (const connections of [CONNECTIONS, 1]) {
        const results = new Map<keyof typeof sides, WrkResult>();
        for (const what of order) {
          const side = sides[what];
          const label = `${kind}: ${side.label}, ${connections} connection(s)`;
          results.set(
            what,
            await context.load(label, round, server.url(side.url), connections, { script: side.script }),
          );
        }
        const at = connections === 1 ? " 1c" : "";
        for (const [what, result] of results) {
          record(`${what}${at} p50`, answered(result) ? result.p50Ms : Number.NaN);
          record(`${what}${at} p95`, answered(result) ? result.p95Ms : Number.NaN);
          record(`${what}${at} rps`, result.requestsPerSecond);
        }
        const page = results.get("blog");
        if (connections === CONNECTIONS && page) {
          for (const what of ["search", "typeahead"] as const) {
            const search = results.get(what);
            if (!search) continue;
            record(`${what}/blog rps`, search.requestsPerSecond / page.requestsPerSecond);
            record(`blog/${what} p50`, page.p50Ms / search.p50Ms);
          }
        }
      }
    }
  } finally {
    await server.stop();
  }
  return queries;
}

/** Which side goes first, second and third, round by round: each goes first once in three rounds. */
const SIDE_ORDERS = [
  ["search", "typeahead", "blog"],
  ["blog", "search", "typeahead"],
  ["typeahead", "blog", "search"],
] as const;

/** A run that got answers: a server that answered nothing has no latency (wrk would print 0 ms). */
function answered(result: WrkResult): boolean {
  return result.requests > 0 && result.requestsPerSecond > 0;
}

/** The section's rows: per database kind the two with goals, the yardstick, the index's size and the reindex. */
export function searchRows(result: SearchResult | null, values: (name: string) => number[], hasWrk: boolean): Row[] {
  if (!result) {
    const figure = "Site search: p95 at 50 connections, search ÷ uncached `/blog`, index size, reindex time";
    return [{ figure, measured: "n/a", goal: "≤ 30 ms; ≥ 1.0", verdict: "skipped (run with --search)" }];
  }
  const rows = kindRows("", "SQLite", result, values, hasWrk);
  rows.push({
    figure: "The rotation's queries (language: query, kind → the page's count of results on SQLite)",
    measured: result.queries.map((entry) => `${entry.lang}: "${entry.q}", ${entry.kind} → ${entry.found}`).join("; "),
    goal: "reported",
    verdict: "reported",
  });
  if (result.postgres) {
    rows.push(...kindRows("pg ", "PostgreSQL", { ...result, ...result.postgres }, values, hasWrk));
  } else {
    rows.push({
      figure: "The same on PostgreSQL",
      measured: "n/a",
      goal: "reported",
      verdict: "skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)",
    });
  }
  return rows;
}

function kindRows(
  prefix: string,
  kind: string,
  result: Pick<SearchResult, "pictures" | "posts" | "queries" | "indexed" | "indexBytes" | "databaseBytes">,
  all: (name: string) => number[],
  hasWrk: boolean,
): Row[] {
  const values = (name: string) => all(`${prefix}${name}`);
  const size = `${result.pictures} pictures + ${result.posts} posts, EN and DE`;
  const rows: Row[] = [];
  // A figure of no run (wrk missing) or of runs that got no answer (NaN) meets no goal.
  const verdict = (value: number, meets: boolean) =>
    hasWrk ? verdictOf(value, () => meets, "FAILED (no answers)") : "skipped (wrk missing)";
  const p95 = median(values("search 1c p95"));
  rows.push({
    figure: `${kind}: search server time p95 (each request alone, 1 connection; ${result.queries.length} queries rotated; ${size})`,
    measured: hasWrk
      ? `the page ${describe(values("search 1c p95"), "ms")}, p50 ${describe(values("search 1c p50"), "ms")}; the type-ahead's ${describe(values("typeahead 1c p95"), "ms")}, p50 ${describe(values("typeahead 1c p50"), "ms")}; uncached \`/blog\` p95 ${describe(values("blog 1c p95"), "ms")}, p50 ${describe(values("blog 1c p50"), "ms")}`
      : "n/a",
    goal: "≤ 30 ms (the page)",
    verdict: verdict(p95, p95 <= 30),
  });
  // Issue 22's "a search costs no more than a page render": the search as the type-ahead asks for it (the search
  // route's data, no page around it) against `/blog`. The `/search` page is a page render plus the search, so it can
  // cost no less than `/blog` unless the search costs nothing (decision 015): its ratio is reported beside it.
  const ratio = median(values("typeahead rps")) / median(values("blog rps"));
  rows.push({
    figure: `${kind}: a search costs no more than an uncached \`/blog\` render: the type-ahead's search req/s ÷ \`/blog\` req/s (${CONNECTIONS} connections)`,
    measured: hasWrk
      ? `${formatNumber(ratio)} (rounds ${range(values("typeahead/blog rps"))}); /blog p50 ÷ its p50 ${formatNumber(median(values("blog/typeahead p50")))} (rounds ${range(values("blog/typeahead p50"))})`
      : "n/a",
    goal: "≥ 1.0",
    verdict: verdict(ratio, ratio >= 1),
  });
  const pageRatio = median(values("search rps")) / median(values("blog rps"));
  rows.push({
    figure: `${kind}: the \`/search\` page (a page render plus the search) req/s ÷ \`/blog\` req/s (${CONNECTIONS} connections; ≥ 1.0 only if the search cost nothing)`,
    measured: hasWrk
      ? `${formatNumber(pageRatio)} (rounds ${range(values("search/blog rps"))}); /blog p50 ÷ its p50 ${formatNumber(median(values("blog/search p50")))} (rounds ${range(values("blog/search p50"))})`
      : "n/a",
    goal: "reported",
    verdict: "reported",
  });
  rows.push({
    figure: `${kind}: search at ${CONNECTIONS} connections, latency with the queue (one process on one core: about ${CONNECTIONS} ÷ req/s)`,
    measured: hasWrk
      ? `the page p50 ${describe(values("search p50"), "ms")}, p95 ${describe(values("search p95"), "ms")}, ${describe(values("search rps"), "req/s")}; the type-ahead's p50 ${describe(values("typeahead p50"), "ms")}, p95 ${describe(values("typeahead p95"), "ms")}, ${describe(values("typeahead rps"), "req/s")}`
      : "n/a",
    goal: "reported",
    verdict: "reported",
  });
  rows.push({
    figure: `${kind}: uncached \`/blog\` at ${CONNECTIONS} connections (the yardstick)`,
    measured: hasWrk
      ? `p50 ${describe(values("blog p50"), "ms")}; p95 ${describe(values("blog p95"), "ms")}; ${describe(values("blog rps"), "req/s")}`
      : "n/a",
    goal: "reported",
    verdict: "reported",
  });
  rows.push({
    figure: prefix
      ? `${kind}: search index on disk (pg_total_relation_size of search_documents: rows, TOAST, the GIN index)`
      : `${kind}: search index on disk (dbstat: search_documents with its indexes + the FTS5 shadow tables)`,
    measured: `${formatNumber(result.indexBytes / 1024 / 1024)} MB of a ${formatNumber(result.databaseBytes / 1024 / 1024)} MB database`,
    goal: "reported",
    verdict: "reported",
  });
  const items = Object.entries(result.indexed)
    .map(([item, count]) => `${count} ${item}`)
    .join(", ");
  rows.push({
    figure: `${kind}: reindex everything (\`reindexAll\`, as \`npm run cli -- search reindex\`)`,
    measured: `${describe(values("search reindex"), "s")} (${items})`,
    goal: "reported",
    verdict: "reported",
  });
  return rows;
}
