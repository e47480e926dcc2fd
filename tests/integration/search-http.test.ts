import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { SEARCH_QUERY_MAX } from "#app/domains/search/search-schema.ts";
import { startServerOnFreshDatabase, stopServerAndDatabase, visibleText } from "#tests/support/admin-server.ts";
import { request, type ServerProcess } from "#tests/support/server-process.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * Issue 22 over HTTP against the real server: /search works without JavaScript, is never indexed nor cached, and
 * no query — every FTS5 and tsquery operator, quotes, NUL, 10,000 characters, emoji, right-to-left text — gets a
 * server error or a stack; a refused one gets a clear message. Each request comes from its own client address
 * (127.0.0.x), so that the limit per address is met only where it is tested.
 */

const HOSTILE_QUERIES = [
  '"',
  '""',
  '"unclosed',
  "*",
  "photo*",
  "NEAR(alpine hut)",
  "NEAR",
  "alpine AND hut",
  "alpine OR",
  "NOT alpine",
  "-alpine",
  "alpine -hut",
  "title:alpine",
  "{title}: alpine",
  "^alpine",
  "(alpine",
  "alpine)",
  "alpine & hut",
  "alpine | hut",
  "!alpine",
  "alpine <-> hut",
  "alpine <2> hut",
  "alpine:*",
  "alpine:A",
  "'alpine'",
  "\\",
  "\\'",
  "+alpine",
  "alpine\u0000hut",
  "\u0000",
  "😀",
  "😀 alpine 🏔️",
  "مرحبا بالعالم",
  "שלום alpine",
  "\u202Eevil\u202C",
  "%",
  "_",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  " ",
];

describe.each(databaseKinds)("search over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let address = 10;
  /** A GET from a client address of its own (see above). */
  const get = (path: string, headers: Record<string, string> = {}) =>
    request(server.url(path), { headers, localAddress: `127.0.0.${address++}` });

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    idOfAccepted(
      await faqService.create(database.db, testAdmin, {
        question: "Where is the alpine hut?",
        question_de: "Wo ist die Alpenhütte?",
        answer: "Above the lake, with <b>photography</b> of the glacier.",
        answer_de: "Über dem See, mit Fotografien vom Gletscher.",
        active: true,
      }),
    );
  }, 60_000);

  afterAll(() => stopServerAndDatabase(server, database));

  it("answers a search without JavaScript: a labelled GET form, the results with marked words, noindex", async () => {
    const response = await get("/search?q=photographs");
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toBe("private, no-store");
    const form = response.body.match(/<form[^>]*role="search"[^>]*>/)?.[0] ?? "";
    expect(form).toContain('action="/search"');
    expect(form).toContain('method="get"');
    expect(response.body).toMatch(/<label[^>]*for="search-page-query"/);
    expect(response.body).toMatch(/<meta name="robots" content="noindex/);
    expect(response.headers["x-robots-tag"]).toBe("noindex");
    expect(response.body).toMatch(/hrefLang="de" href="[^"]*\/search\?q=photographs&amp;lang=de"/);
    expect(response.body).toContain('href="/faq#faq-');
    expect(response.body).toMatch(/<mark[^>]*>photography<\/mark>/);
    // The answer's text is text: its "<b>" reaches the page escaped.
    expect(response.body).toContain("&lt;b&gt;");
    expect(visibleText(response.body)).toContain("1 result for “photographs”");
  });

  it("searches in German with ?lang=de: stems, umlauts and compounds", async () => {
    const response = await get(`/search?q=${encodeURIComponent("huette fotografie")}&lang=de`);
    expect(response.status).toBe(200);
    expect(visibleText(response.body)).toContain("Wo ist die Alpenhütte?");
    expect(response.body).toMatch(/<mark[^>]*>Fotografien<\/mark>/);
  });

  it("suggests what to try when nothing is found", async () => {
    const response = await get("/search?q=volcano");
    expect(response.status).toBe(200);
    expect(visibleText(response.body)).toContain("Nothing found for “volcano”");
    expect(visibleText(response.body)).toContain("Try fewer or other words");
  });

  it("gives the type-ahead the same data (.data, as a fetcher loads it), never cached nor indexed", async () => {
    const response = await get("/search.data?q=alpine");
    expect(response.status).toBe(200);
    expect(response.body).toContain("Where is the alpine hut?");
    expect(response.headers["cache-control"]).toBe("private, no-store");
    expect(response.headers["x-robots-tag"]).toBe("noindex");
    // After an action only the root's data is loaded again (the route's shouldRevalidate): no search runs, and
    // still nothing may keep the answer, or a page cache would hold one per query.
    const rootOnly = await get("/search.data?q=alpine&_routes=root");
    expect(rootOnly.status).toBe(200);
    expect(rootOnly.body).not.toContain("Where is the alpine hut?");
    expect(rootOnly.headers["cache-control"]).toBe("private, no-store");
    expect(rootOnly.headers["x-robots-tag"]).toBe("noindex");
  });

  it.each(HOSTILE_QUERIES.map((query) => [query]))("answers %j without a server error or a stack", async (query) => {
    const response = await get(`/search?q=${encodeURIComponent(query)}`);
    expect(response.status).toBe(200);
    expect(response.body).not.toMatch(/\bat \S+ \(|SqliteError|error: syntax|fts5|tsquery/i);
  });

  it("refuses 10,000 characters with a clear message in the visitor's language", async () => {
    const long = encodeURIComponent("alpine ".repeat(1500).slice(0, 10_000));
    const english = await get(`/search?q=${long}`);
    expect(english.status).toBe(200);
    expect(english.body).toMatch(
      new RegExp(`role="alert"[^>]*>Please shorten your search to at most ${SEARCH_QUERY_MAX} characters.<`),
    );
    const german = await get(`/search?q=${long}&lang=de`);
    expect(german.body).toContain(`Bitte kürzen Sie Ihre Suche auf höchstens ${SEARCH_QUERY_MAX} Zeichen.`);
  });

  it("answers raw bytes that are no UTF-8, and paging past the end, without a server error", async () => {
    for (const path of ["/search?q=%FF%FE", "/search?q=%ED%A0%80", "/search?q=alpine&page=999999", "/search?page=-1"]) {
      expect((await get(path)).status, path).toBe(200);
    }
  });

  it("limits searches per address: 429 with Retry-After and a clear message", async () => {
    const from = "127.0.0.250";
    let last = await request(server.url("/search?q=alpine"), { localAddress: from });
    for (let count = 1; count <= 120 && last.status === 200; count++) {
      last = await request(server.url("/search?q=alpine"), { localAddress: from });
    }
    expect(last.status).toBe(429);
    expect(Number(last.headers["retry-after"])).toBeGreaterThan(0);
    expect(last.body).toMatch(/role="alert"[^>]*>Too many searches from your address\. Please wait \d+ seconds/);
    expect(last.headers["cache-control"]).toBe("private, no-store");
    // The type-ahead's fetcher is refused the same way.
    const typeAhead = await request(server.url("/search.data?q=alpine"), { localAddress: from });
    expect(typeAhead.status).toBe(429);
    expect(Number(typeAhead.headers["retry-after"])).toBeGreaterThan(0);
    expect(typeAhead.headers["cache-control"]).toBe("private, no-store");
    // Another address is not held back.
    expect((await get("/search?q=alpine")).status).toBe(200);
  }, 60_000);
});
