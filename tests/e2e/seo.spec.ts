import { collectCspViolations } from "./csp-violations.ts";
import { clientNavigate, expect, test, waitForHydration } from "./fixtures.ts";

/** The JSON-LD types in the document's head as the browser has it now (after any client navigation). */
async function jsonLdTypes(page: import("@playwright/test").Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('script[type="application/ld+json"]')].flatMap((script) => {
      const data = JSON.parse(script.textContent ?? "null") as { "@type"?: string; "@graph"?: { "@type": string }[] };
      return data["@graph"] ? data["@graph"].map((node) => node["@type"]) : [String(data["@type"])];
    }),
  );
}

// The shared picture's ImageObject and the post's BlogPosting are checked over HTTP (tests/integration/*seo-http*):
// here, that such data blocks in the head break nothing of the policy, on a first load and after navigation.
test("structured data and feed links reach the browser without breaking the Content-Security-Policy", async ({
  page,
}) => {
  const violations = await collectCspViolations(page);

  // Loaded directly: the server's rendering (a kept page allows its scripts by hash; data blocks need nothing).
  await page.goto("/home");
  expect(await jsonLdTypes(page)).toEqual(["WebSite", "Person"]);
  await expect(page.locator('head link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute(
    "href",
    /\/blog\/feed\.xml$/,
  );
  await expect(page.locator('head link[rel="alternate"][type="application/atom+xml"]')).toHaveAttribute(
    "href",
    /\/blog\/atom\.xml$/,
  );

  // In German, the German feeds.
  await page.goto("/links?lang=de");
  await expect(page.locator('head link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute(
    "href",
    /\/blog\/feed\.xml\?lang=de$/,
  );
  await page.goto("/links?lang=en");

  // After client-side navigation the head follows the page: the home page's data goes and comes back.
  await page.goto("/home");
  await waitForHydration(page);
  await clientNavigate(page, "/links");
  await expect(page).toHaveURL(/\/links$/);
  await expect.poll(() => jsonLdTypes(page)).toEqual([]);
  await clientNavigate(page, "/home");
  await expect.poll(() => jsonLdTypes(page)).toEqual(["WebSite", "Person"]);

  // The feeds and the sitemap answer as XML.
  for (const [path, type] of [
    ["/blog/feed.xml", "application/rss+xml"],
    ["/blog/atom.xml?lang=de", "application/atom+xml"],
    ["/sitemap.xml", "application/xml"],
  ] as const) {
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(200);
    expect(response.headers()["content-type"], path).toContain(type);
  }

  expect(violations).toEqual([]);
});
