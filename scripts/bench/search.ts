import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { openDatabase } from "#app/db/database.server.ts";
import { reindexAll } from "#app/domains/search-index/search-index.server.ts";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { request, type ServerProcess } from "#tests/support/server-process.ts";
import { startApp } from "./processes.ts";
import { Corpus, RARE_WORD, random } from "./search-corpus.ts";
import { seedDataFolder } from "./seed-data.ts";
import { describe, formatNumber, median, type Row, range } from "./stats.ts";
import type { WrkOptions, WrkResult } from "./wrk.ts";

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
/** Words of a post body: "a few hundred". */
const BODY_WORDS = { min: 200, max: 700 };

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
};

/**
 * Seeds the folder: sample content through the real services, then `pictures` pictures and `posts` posts
 * inserted as rows, published; then the index rebuilt by `reindexAll`, timed.
 */
export async function seedSearchData(dir: string, settings: SearchSettings, authSecret: string) {
  await seedDataFolder(dir, { realPictures: 0, authSecret });
  const file = sqliteFileIn(dir);
  const corpus = new Corpus(random(22));
  const db = new Database(file);
  try {
    const image = db.prepare("SELECT * FROM images WHERE ready = 1 ORDER BY created_at LIMIT 1").get() as
      | Record<string, unknown>
      | undefined;
    if (!image) throw new Error("The sample content has no ready picture to copy");
    const insert = (table: string, row: Record<string, unknown>) => {
      const columns = Object.keys(row);
      db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`).run(
        row,
      );
    };
    const start = Date.parse("2020-01-01T00:00:00Z");
    const { sortOrder } = db.prepare("SELECT coalesce(max(sort_order), 0) AS sortOrder FROM gallery_images").get() as {
      sortOrder: number;
    };
    db.transaction(() => {
      for (let index = 0; index < settings.pictures; index++) {
        const created = new Date(start + index * 3_600_000).toISOString();
        const imageId = randomUUID();
        insert("images", { ...image, id: imageId, created_at: created });
        insert("gallery_images", {
          id: randomUUID(),
          image_id: imageId,
          title: corpus.title("en"),
          title_de: corpus.title("de"),
          // The rare word in 1 picture of 500 and 1 post of 100 (both languages): some 40 items of the full size.
          description: corpus.short("en", index % 500 === 0),
          description_de: corpus.short("de", index % 500 === 0),
          ...corpus.category(),
          alt: corpus.short("en"),
          alt_de: corpus.short("de"),
          sort_order: sortOrder + index + 1,
          published: 1,
          created_at: created,
          updated_at: created,
        });
      }
      const author = randomUUID();
      for (let index = 0; index < settings.posts; index++) {
        const created = new Date(start + index * 7_200_000).toISOString();
        const id = randomUUID();
        const words = () => corpus.between(BODY_WORDS.min, BODY_WORDS.max);
        const [title, titleDe] = [corpus.title("en"), corpus.title("de")];
        const slug = `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${index}`;
        const slugDe = `${titleDe
          .toLowerCase()
          .normalize("NFKD")
          .replace(/[^a-z0-9]+/g, "-")}-${index}`;
        insert("posts", {
          id,
          author_id: author,
          status: "published",
          publish_at: created,
          title,
          title_de: titleDe,
          slug,
          slug_de: slugDe,
          excerpt: corpus.short("en"),
          excerpt_de: corpus.short("de"),
          body: corpus.body("en", words(), index % 100 === 0),
          body_de: corpus.body("de", words(), index % 100 === 0),
          cover_image_id: null,
          cover_alt: "",
          cover_alt_de: "",
          created_at: created,
          updated_at: created,
        });
        insert("post_slugs", { slug, lang: "en", post_id: id });
        insert("post_slugs", { slug: slugDe, lang: "de", post_id: id });
        for (const tag of [...corpus.tags("en", 2), ...corpus.tags("de", 1)]) insert("post_tags", { post_id: id, tag });
      }
    })();
  } finally {
    db.close();
  }

  const database = openDatabase({ sqliteFile: file });
  let reindexMs: number;
  let indexed: Record<string, number>;
  try {
    const started = performance.now();
    indexed = await reindexAll(database.db);
    reindexMs = performance.now() - started;
  } finally {
    await database.close();
  }
  return { reindexMs, indexed, ...indexSize(file) };
}

/**
 * The index's bytes on disk: the pages of `search_documents` (its rows and indexes) and of the FTS5 table's
 * shadow tables (`search_fts_data`, `_idx`, `_docsize`, `_config`), summed by SQLite's `dbstat` table.
 */
export function indexSize(sqliteFile: string): { indexBytes: number; databaseBytes: number } {
  const db = new Database(sqliteFile, { readonly: true });
  try {
    const { bytes } = db
      .prepare(
        `SELECT coalesce(sum(d.pgsize), 0) AS bytes FROM dbstat d JOIN sqlite_master m ON m.name = d.name
         WHERE m.tbl_name = 'search_documents' OR m.tbl_name LIKE 'search\\_fts%' ESCAPE '\\'`,
      )
      .get() as { bytes: number };
    const { total } = db.prepare("SELECT sum(pgsize) AS total FROM dbstat").get() as { total: number };
    return { indexBytes: bytes, databaseBytes: total };
  } finally {
    db.close();
  }
}

/** The wrk script: each request the next search URL of the rotation, from the next address of the pool. */
export function searchScript(): string {
  const paths = SEARCH_QUERIES.map(
    (entry) => `{ "/search?q=${encodeURIComponent(entry.q)}", "${entry.lang === "de" ? "de" : "en"}" }`,
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
  load: (
    label: string,
    round: number,
    url: string,
    connections: number,
    extra?: Partial<WrkOptions>,
  ) => Promise<WrkResult>;
  runWrk: (url: string, options: WrkOptions) => Promise<WrkResult>;
  problems: string[];
  /** Lists the server as soon as it runs, so that the bench's clean-up stops it after a failure. */
  started: (server: Promise<ServerProcess>) => Promise<ServerProcess>;
};

/** Seeds, starts the server, measures the rounds, stops the server. */
export async function measureSearch(context: SearchContext): Promise<SearchResult> {
  const { settings, record } = context;
  const dataDir = path.join(context.dir, "search");
  console.log(`Search: seeding ${settings.pictures} pictures and ${settings.posts} posts, then reindexing…`);
  const seeded = await seedSearchData(dataDir, settings, context.authSecret);
  record("search reindex", seeded.reindexMs / 1000);
  console.log(
    `Search: reindexed in ${formatNumber(seeded.reindexMs / 1000)} s; index ${formatNumber(seeded.indexBytes / 1024 / 1024)} MB`,
  );
  const server = await context.started(
    startApp({ dataDir, authSecret: context.authSecret, pageCache: false, env: { TRUST_PROXY: "1" } }),
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
      if (found === "no results") context.problems.push(`Search: "${entry.q}" (${entry.lang}) found nothing`);
      queries.push({ ...entry, found });
    }
    const blog = await request(server.url("/blog"));
    if (blog.status !== 200) throw new Error(`/blog answered ${blog.status}`);
    if (!context.hasWrk) return { ...seeded, pictures: settings.pictures, posts: settings.posts, queries };

    const script = path.join(context.dir, "search.lua");
    fs.writeFileSync(script, searchScript());
    const blogScript = path.join(context.dir, "p95.lua");
    fs.writeFileSync(blogScript, P95_DONE);
    if (!context.smoke) {
      console.log("Search: warming up…");
      await context.runWrk(server.url("/"), { connections: 10, seconds: 2, script });
      await context.runWrk(server.url("/blog"), { connections: 10, seconds: 2 });
    }
    for (let round = 1; round <= settings.rounds; round++) {
      console.log(`Search: round ${round} of ${settings.rounds}…`);
      const runSearch = () =>
        context.load(
          `search (rotation of ${SEARCH_QUERIES.length}), ${CONNECTIONS} connections`,
          round,
          server.url("/"),
          CONNECTIONS,
          {
            script,
          },
        );
      const runBlog = () =>
        context.load(`app (cache off) /blog, ${CONNECTIONS} connections`, round, server.url("/blog"), CONNECTIONS, {
          script: blogScript,
        });
      const searchFirst = round % 2 === 1;
      const first = await (searchFirst ? runSearch() : runBlog());
      const second = await (searchFirst ? runBlog() : runSearch());
      const [search, page] = searchFirst ? [first, second] : [second, first];
      record("search p50", search.p50Ms);
      record("search p95", search.p95Ms);
      record("search rps", search.requestsPerSecond);
      record("blog p50", page.p50Ms);
      record("blog p95", page.p95Ms);
      record("blog rps", page.requestsPerSecond);
      record("search/blog rps", search.requestsPerSecond / page.requestsPerSecond);
      record("blog/search p50", page.p50Ms / search.p50Ms);
    }
  } finally {
    await server.stop();
  }
  return { ...seeded, pictures: settings.pictures, posts: settings.posts, queries };
}

/** The section's rows: the two with goals, then the figures reported. */
export function searchRows(result: SearchResult | null, values: (name: string) => number[], hasWrk: boolean): Row[] {
  if (!result) return [];
  const size = `${result.pictures} pictures + ${result.posts} posts, EN and DE`;
  const verdict = (value: number, meets: boolean) =>
    Number.isFinite(value) ? (meets ? "meets goal" : "MISSES goal") : "skipped (wrk missing)";
  const rows: Row[] = [];
  const p95 = median(values("search p95"));
  rows.push({
    figure: `Search at ${CONNECTIONS} connections (${result.queries.length} queries rotated), server time p95 (${size})`,
    measured: hasWrk
      ? `${describe(values("search p95"), "ms")}; p50 ${describe(values("search p50"), "ms")}; ${describe(values("search rps"), "req/s")}`
      : "n/a",
    goal: "≤ 30 ms",
    verdict: verdict(p95, p95 <= 30),
  });
  const ratio = median(values("search rps")) / median(values("blog rps"));
  rows.push({
    figure: `A search costs no more than an uncached \`/blog\` render: search req/s ÷ \`/blog\` req/s (${CONNECTIONS} connections)`,
    measured: hasWrk
      ? `${formatNumber(ratio)} (rounds ${range(values("search/blog rps"))}); /blog p50 ÷ search p50 ${formatNumber(median(values("blog/search p50")))} (rounds ${range(values("blog/search p50"))})`
      : "n/a",
    goal: "≥ 1.0",
    verdict: verdict(ratio, ratio >= 1),
  });
  rows.push({
    figure: `Uncached \`/blog\` at ${CONNECTIONS} connections (the yardstick)`,
    measured: hasWrk
      ? `p50 ${describe(values("blog p50"), "ms")}; p95 ${describe(values("blog p95"), "ms")}; ${describe(values("blog rps"), "req/s")}`
      : "n/a",
    goal: "reported",
    verdict: "reported",
  });
  rows.push({
    figure: "The rotation's queries (language: query, kind → the page's count of results)",
    measured: result.queries.map((entry) => `${entry.lang}: "${entry.q}", ${entry.kind} → ${entry.found}`).join("; "),
    goal: "reported",
    verdict: "reported",
  });
  rows.push({
    figure: "Search index on disk (SQLite dbstat: search_documents with its indexes + the FTS5 shadow tables)",
    measured: `${formatNumber(result.indexBytes / 1024 / 1024)} MB of a ${formatNumber(result.databaseBytes / 1024 / 1024)} MB database`,
    goal: "reported",
    verdict: "reported",
  });
  const items = Object.entries(result.indexed)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(", ");
  rows.push({
    figure: "Reindex everything (`reindexAll`, as `npm run cli -- search reindex`)",
    measured: `${describe(values("search reindex"), "s")} (${items})`,
    goal: "reported",
    verdict: "reported",
  });
  return rows;
}
