import { createPost } from "#app/domains/posts/post-admin.server.ts";
import { previewSecretOf, signPreviewLink } from "#app/domains/posts/preview-link.server.ts";
import { expectNoViolations } from "./axe.ts";
import { collectCspViolations } from "./csp-violations.ts";
import { E2E_SECRET } from "./e2e-env.ts";
import { clientNavigate, expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

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

test("a post's code is highlighted in both themes, readable, with heading links, and breaks no policy", async ({
  page,
  database,
  makeUser,
}) => {
  const violations = await collectCspViolations(page);
  // A draft seen through its preview link: nothing of it reaches the other tests' lists.
  const author = await makeUser({ admin: true });
  const created = await createPost(
    database.db,
    { id: author.id, email: author.email },
    {
      title: `Code sample ${Date.now()}`,
      body: [
        "## First steps",
        "Some text.",
        '```ts\n// A comment\nexport const answer: number = 42;\nconst text = "quoted";\n```',
        "### Then",
        "```\nplain text block\n```",
      ].join("\n\n"),
    },
  );
  if (!created.ok) throw new Error(JSON.stringify(created));
  const link = signPreviewLink(created.id, { secret: previewSecretOf(E2E_SECRET) });
  try {
    for (const theme of ["light", "dark"] as const) {
      await setPreferences(page, { theme });
      await page.goto(link);
      const article = page.getByRole("main");
      await expect(article.getByRole("heading", { level: 2, name: "First steps", exact: true })).toBeVisible();
      // The anchor link beside the heading leads to it.
      const anchor = article.getByRole("link", { name: "Link to this section: First steps" });
      await expect(anchor).toHaveAttribute("href", "#first-steps");
      const keyword = article.locator("pre.shiki span", { hasText: /^export$/ });
      const expected = theme === "light" ? "rgb(207, 34, 46)" : "rgb(255, 123, 114)";
      await expect(keyword).toHaveCSS("color", expected);
      await expect(article.locator("pre.shiki").first()).toHaveCSS(
        "background-color",
        theme === "light" ? "rgb(255, 255, 255)" : "rgb(13, 17, 23)",
      );
      await expectNoViolations(page, `post preview (${theme})`);
    }
  } finally {
    await database.db.deleteFrom("posts").where("id", "=", created.id).execute();
  }
  expect(violations).toEqual([]);
});
