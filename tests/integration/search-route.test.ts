import { describe, expect, it } from "vitest";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { createPost } from "#app/domains/posts/post-admin.server.ts";
import { SearchLimiter } from "#app/domains/search/search-limit.server.ts";
import { SEARCH_SUGGESTIONS } from "#app/domains/search/search-suggestions.ts";
import { loader as searchLoader, shouldRevalidate } from "#app/routes/search.tsx";
import { createUser } from "../support/factories.ts";
import { outcomeOf, routeArgs, statusOf, useRouteRuntime } from "../support/route-context.ts";
import { idOfAccepted, testAdmin } from "../support/service-actor.ts";
import { databaseKinds } from "../support/test-database.ts";

/** The data a loader outcome carries (plain data, or `data()`'s). */
function dataOf(outcome: unknown): Record<string, unknown> {
  const value = outcome as { type?: string; data?: unknown };
  return (value?.type === "DataWithResponseInit" ? value.data : outcome) as Record<string, unknown>;
}

// `/search`'s loader called in-process (tests/support/route-context.ts): the data the page and the type-ahead get.
describe.each(databaseKinds)("the search loader, called in-process (%s)", (kind) => {
  const current = useRouteRuntime(kind);

  it("answers { query, result, error }: nothing searched, a result, a refusal in the visitor's language", async () => {
    const { runtime, database } = current();
    idOfAccepted(
      await faqService.create(database.db, testAdmin, {
        question: "Owl sightings?",
        answer: "At night.",
        active: true,
      }),
    );
    const none = dataOf(await searchLoader(routeArgs(runtime, null, "/search")));
    expect(none).toMatchObject({ query: "", result: null, error: null });

    const found = dataOf(await searchLoader(routeArgs(runtime, null, "/search?q=%20%20owls%20")));
    expect(found.query).toBe("owls");
    expect(found.error).toBeNull();
    expect(found.result).toMatchObject({ query: "owls", total: 1, page: 1, pageCount: 1 });
    expect((found.result as { hits: { title: string }[] }).hits.map((hit) => hit.title)).toEqual(["Owl sightings?"]);

    const long = "x".repeat(201);
    const english = dataOf(await searchLoader(routeArgs(runtime, null, `/search?q=${long}`)));
    expect(english).toMatchObject({ result: null, error: "Please shorten your search to at most 200 characters." });
    expect(english.query).toHaveLength(200);
    const german = dataOf(await searchLoader(routeArgs(runtime, null, `/search?q=${long}&lang=de`)));
    expect(german.error).toBe("Bitte kürzen Sie Ihre Suche auf höchstens 200 Zeichen.");
  });

  it("answers the type-ahead's `suggest=1` with the first hits of page 1 only, and the page's count", async () => {
    const { runtime, database } = current();
    for (let index = 0; index < SEARCH_SUGGESTIONS + 3; index++) {
      idOfAccepted(
        await faqService.create(database.db, testAdmin, {
          question: `Heron question ${index}?`,
          answer: "By the river.",
          active: true,
        }),
      );
    }
    type Result = { total: number; capped: boolean; page: number; hits: { id: string }[] };
    const resultOf = async (address: string) =>
      dataOf(await searchLoader(routeArgs(runtime, null, address))).result as Result;
    const page = await resultOf("/search?q=heron");
    expect(page.hits).toHaveLength(SEARCH_SUGGESTIONS + 3);
    const suggested = await resultOf("/search?q=heron&suggest=1");
    expect(suggested).toMatchObject({ total: SEARCH_SUGGESTIONS + 3, capped: false, page: 1 });
    expect(suggested.hits.map((hit) => hit.id)).toEqual(page.hits.slice(0, SEARCH_SUGGESTIONS).map((hit) => hit.id));
    // Always page 1's first hits: the type-ahead never pages.
    const paged = await resultOf("/search?q=heron&suggest=1&page=2");
    expect(paged.hits.map((hit) => hit.id)).toEqual(suggested.hits.map((hit) => hit.id));
    // Any other value is the page's own answer.
    expect((await resultOf("/search?q=heron&suggest=yes")).hits).toHaveLength(SEARCH_SUGGESTIONS + 3);
  });

  it("answers 429 with the wait once an address has searched too often, and counts no empty visit", async () => {
    const { runtime } = current();
    const before = runtime.searchLimiter;
    runtime.searchLimiter = new SearchLimiter(2);
    try {
      await searchLoader(routeArgs(runtime, null, "/search"));
      for (let count = 0; count < 2; count++) {
        expect(statusOf(await outcomeOf(() => searchLoader(routeArgs(runtime, null, "/search?q=owl"))))).toBe(200);
      }
      const refused = await outcomeOf(() => searchLoader(routeArgs(runtime, null, "/search?q=owl&lang=de")));
      expect(statusOf(refused)).toBe(429);
      expect(dataOf(refused)).toMatchObject({ result: null, query: "owl" });
      expect(String(dataOf(refused).error)).toMatch(
        /^Zu viele Suchen von Ihrer Adresse\. Bitte warten Sie \d+ Sekunden/,
      );
    } finally {
      runtime.searchLimiter = before;
    }
  });
});

describe.each(databaseKinds)("the admin's search, called in-process (%s)", (kind) => {
  const current = useRouteRuntime(kind);

  it("finds drafts for an admin who asks for ?scope=admin, and never for anyone else", async () => {
    const { runtime, database } = current();
    const admin = await createUser(database.db, { admin: true });
    const member = await createUser(database.db);
    const draft = await createPost(database.db, admin, { title: "Lynx tracks" });
    if (!draft.ok) throw new Error("refused");
    const titles = (outcome: unknown) =>
      ((dataOf(outcome).result as { hits: { title: string; url: string }[] }).hits ?? []).map((hit) => [
        hit.title,
        hit.url,
      ]);
    const path = "/search?q=lynx&scope=admin";
    expect(titles(await searchLoader(routeArgs(runtime, admin, path)))).toEqual([
      ["Lynx tracks", `/admin/posts/${draft.id}`],
    ]);
    expect(titles(await searchLoader(routeArgs(runtime, member, path)))).toEqual([]);
    expect(titles(await searchLoader(routeArgs(runtime, null, path)))).toEqual([]);
    expect(titles(await searchLoader(routeArgs(runtime, admin, "/search?q=lynx")))).toEqual([]);
  });
});

describe("the search route's revalidation", () => {
  const args = (formMethod?: string) =>
    ({
      currentUrl: new URL("http://site.test/search?q=alpen"),
      nextUrl: new URL("http://site.test/search?q=alpen"),
      currentParams: {},
      nextParams: {},
      formMethod,
      defaultShouldRevalidate: true,
    }) as Parameters<typeof shouldRevalidate>[0];

  it("does not search again after an action elsewhere (each search counts against the limit), but does otherwise", () => {
    expect(shouldRevalidate(args("POST"))).toBe(false);
    expect(shouldRevalidate(args("post"))).toBe(false);
    expect(shouldRevalidate(args("GET"))).toBe(true);
    expect(shouldRevalidate(args())).toBe(true);
  });
});
