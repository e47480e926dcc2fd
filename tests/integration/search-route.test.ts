import { describe, expect, it } from "vitest";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { SearchLimiter } from "#app/domains/search/search-limit.server.ts";
import { loader as searchLoader } from "#app/routes/search.tsx";
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
