import type { Page } from "@playwright/test";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { createPost, deletePost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import { expectNoViolations } from "./axe.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

/*
 * The site search in the browser (issue 22): the header's type-ahead by keyboard alone, what a screen reader hears,
 * axe in both themes, the German wording, the narrow screen, and `/search` without JavaScript. Each test searches
 * for a word of its own, so posts that other tests publish meanwhile never change its results.
 */

type TestPost = { word: string; title: string; titleDe: string; slug: string };

/**
 * A word no other content holds: letters only, so that no stemmer or tokenizer splits or shortens it. Random from
 * its first letter: words made from the clock shared their first eight letters when two tests started together, and
 * the type-ahead, searching as the word was typed, rightly listed both posts (a CI run failed on that).
 */
function uniqueWord(): string {
  const letters = [...crypto.getRandomValues(new Uint8Array(12))].map((byte) => String.fromCharCode(97 + (byte % 26)));
  return `zq${letters.join("")}`;
}

const withPost = test.extend<{ post: TestPost }>({
  /** A published post in both languages holding a word of its own; deleted (and so gone from the index) afterwards. */
  post: async ({ database, makeUser }, use) => {
    const word = uniqueWord();
    const admin = await makeUser({ admin: true });
    const actor = { id: admin.id, email: admin.email };
    const created = await createPost(database.db, actor, {
      title: `Lighthouse ${word}`,
      title_de: `Leuchtturm ${word}`,
      body: `Notes of the ${word} keeper, written at the lighthouse.`,
      body_de: `Notizen des Wärters von ${word}, geschrieben am Leuchtturm.`,
      tags: "search",
    });
    if (!created.ok) throw new Error("The post was not created");
    const published = await setPostStatus(database.db, actor, created.id, { status: "published" });
    if (!published.ok) throw new Error("The post was not published");
    await use({ word, title: `Lighthouse ${word}`, titleDe: `Leuchtturm ${word}`, slug: created.post.slug });
    await removePost(database.db, actor, created.id);
  },
});

async function removePost(db: Kysely<Database>, actor: { id: string; email: string }, id: string) {
  const removed = await deletePost(db, actor, id);
  if (!removed.ok) throw new Error("The post was not deleted");
}

/** The header's field, once the type-ahead has taken it over (it is a plain search field until focused). */
const combobox = (page: Page, name = "Search the site") =>
  page.getByRole("banner").getByRole("combobox", { name, exact: true });

/** Focuses the header's field with `/`, as a keyboard user would, and types the word. */
async function typeInHeader(page: Page, text: string, name?: string) {
  await waitForHydration(page);
  await page.keyboard.press("/");
  await expect(combobox(page, name)).toBeFocused();
  await page.keyboard.type(text);
}

withPost(
  "the type-ahead works with the keyboard alone: /, type, the arrows, Escape and Enter",
  async ({ page, post }) => {
    const { word } = post;
    await page.goto("/home");
    const asked = page.waitForRequest((request) => new URL(request.url()).pathname === "/search.data");
    await typeInHeader(page, word);
    // It asks only for the hits it shows (the page's first ones), not the page's twenty.
    expect(new URL((await asked).url()).searchParams.get("suggest")).toBe("1");
    const field = combobox(page);
    const list = page.getByRole("listbox", { name: "First results" });
    const options = list.getByRole("option");
    // The hit (its kind and title) and, last, the way to all results.
    await expect(options).toHaveCount(2);
    await expect(options.first()).toContainText(post.title);
    await expect(options.first()).toContainText("Post");
    await expect(options.last()).toHaveText("See all results");
    await expect(field).toHaveAttribute("aria-expanded", "true");
    await expect(field).toHaveAttribute("aria-controls", (await list.getAttribute("id")) ?? "no list");
    // The matching word is marked in the snippet.
    await expect(options.first().locator("mark").first()).toHaveText(new RegExp(word, "i"));
    // Announced politely to a screen reader.
    await expect(page.getByRole("status").filter({ hasText: "1 result." })).toHaveAttribute("aria-live", "polite");
    await expect(field).not.toHaveAttribute("aria-activedescendant");

    const chosen = async (index: number) => {
      const option = options.nth(index);
      await expect(option).toHaveAttribute("aria-selected", "true");
      await expect(field).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id")) ?? "no id");
    };
    await page.keyboard.press("ArrowDown");
    await chosen(0);
    await page.keyboard.press("ArrowDown");
    await chosen(1);
    await page.keyboard.press("ArrowDown");
    await chosen(0);
    await page.keyboard.press("ArrowUp");
    await chosen(1);
    await page.keyboard.press("Home");
    await chosen(0);
    await page.keyboard.press("End");
    await chosen(1);
    // The focus never left the field (the combobox pattern).
    await expect(field).toBeFocused();

    // Escape closes the list and keeps the text; Down opens it again.
    await page.keyboard.press("Escape");
    await expect(field).toHaveAttribute("aria-expanded", "false");
    await expect(list).toBeHidden();
    await expect(field).toHaveValue(word);
    await page.keyboard.press("ArrowDown");
    await expect(field).toHaveAttribute("aria-expanded", "true");
    await chosen(0);

    // Enter on the hit opens it.
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/blog/${post.slug}$`));
    await expect(page.getByRole("heading", { level: 1, name: post.title })).toBeVisible();
    await expect(list).toBeHidden();
  },
);

withPost("Enter without a chosen hit, and “See all results”, lead to /search", async ({ page, post }) => {
  const { word } = post;
  await page.goto("/faq");
  await typeInHeader(page, word);
  await expect(page.getByRole("option", { name: post.title })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/search?q=${word}`);
  await expect(page.getByRole("main").getByRole("link", { name: post.title })).toBeVisible();

  // A `/` typed in a field is text, not the shortcut.
  const pageField = page.getByRole("main").getByRole("searchbox");
  await pageField.fill("");
  await pageField.pressSequentially("a/b");
  await expect(pageField).toHaveValue("a/b");
  await expect(pageField).toBeFocused();

  await page.goto("/home");
  await typeInHeader(page, word);
  await page.keyboard.press("End");
  await expect(page.getByRole("option", { name: "See all results" })).toHaveAttribute("aria-selected", "false");
  await page.keyboard.press("ArrowUp");
  await expect(page.getByRole("option", { name: "See all results" })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/search?q=${word}`);
  await expect(page.getByRole("main").getByRole("link", { name: post.title })).toBeVisible();
});

withPost("a search that finds nothing says so, to the eye and to a screen reader", async ({ page, post: { word } }) => {
  await page.goto("/home");
  await typeInHeader(page, `${word}x${word}`);
  const field = combobox(page);
  await expect(page.getByRole("banner").locator("p", { hasText: `No results for “${word}x${word}”.` })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "No results for" })).toHaveAttribute("aria-live", "polite");
  // No list to move into: Down does nothing, Enter searches on /search.
  await expect(field).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("ArrowDown");
  await expect(field).not.toHaveAttribute("aria-activedescendant");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/search?q=${word}x${word}`);
});

withPost("the type-ahead and /search speak German", async ({ page, post }) => {
  const { word } = post;
  await page.goto("/search?lang=de");
  await expect(page.getByRole("heading", { level: 1, name: "Suche" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("search", { name: "Website durchsuchen" })).toBeVisible();
  await typeInHeader(page, word, "Website durchsuchen");
  const list = page.getByRole("listbox", { name: "Erste Ergebnisse" });
  await expect(list.getByRole("option").first()).toContainText(post.titleDe);
  await expect(list.getByRole("option").first()).toContainText("Beitrag");
  await expect(list.getByRole("option").last()).toHaveText("Alle Ergebnisse anzeigen");
  await expect(page.getByRole("status").filter({ hasText: "1 Ergebnis." })).toBeAttached();
  // The language goes along in its cookie (set by `?lang=de`), as on every link of the site.
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/search?q=${word}`);
  await expect(page.getByRole("heading", { level: 1, name: "Suche" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: post.titleDe })).toBeVisible();
});

withPost(
  "the type-ahead's code loads when the field is first focused, and takes the field over in place",
  async ({ page, post: { word } }) => {
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.goto("/home");
    await waitForHydration(page);
    // The plain field is a search box inside a search landmark, named by its label.
    const plain = page.getByRole("banner").getByRole("searchbox", { name: "Search the site" });
    await expect(plain).toBeVisible();
    expect(scripts.filter((url) => url.includes("/assets/search-typeahead-"))).toEqual([]);
    await plain.focus();
    await expect.poll(() => scripts.filter((url) => url.includes("/assets/search-typeahead-")).length).toBe(1);
    // It takes over the field in place, keeping the focus.
    await expect(combobox(page)).toBeFocused();
    await page.keyboard.type(word);
    await expect(page.getByRole("option", { name: "See all results" })).toBeVisible();
  },
);

for (const theme of ["light", "dark"] as const) {
  withPost(
    `axe finds nothing on /search with results and in the open type-ahead (${theme})`,
    async ({ page, post }) => {
      const { word } = post;
      await setPreferences(page, { theme });
      await page.goto(`/search?q=${word}`);
      await expect(page.locator("html")).toHaveClass(theme);
      await expect(page.getByRole("main").getByRole("link", { name: post.title })).toBeVisible();
      await expectNoViolations(page, `/search with results (${theme})`);

      await typeInHeader(page, word);
      await expect(page.getByRole("option", { name: "See all results" })).toBeVisible();
      await page.keyboard.press("ArrowDown");
      await expect(page.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
      await expectNoViolations(page, `the open type-ahead (${theme})`);
    },
  );
}

test.describe("on a narrow screen", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  withPost("the field is in the menu; / opens it, and a chosen hit or a search closes it", async ({ page, post }) => {
    const { word } = post;
    await page.goto("/home");
    await expect(page.getByLabel("Open menu")).toBeVisible();
    await typeInHeader(page, word);
    const option = page.getByRole("option", { name: post.title });
    await expect(option).toBeVisible();
    // The list fits the screen: nothing sticks out sideways.
    const box = await page.getByRole("listbox").boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await option.click();
    await expect(page.getByRole("heading", { level: 1, name: post.title })).toBeVisible();
    await expect(page.getByRole("banner").getByRole("combobox")).toBeHidden();

    // A search from the menu closes it too, also from /search to /search (only the query changes).
    for (const query of [word, word.slice(0, -1)]) {
      await page.keyboard.press("/");
      await expect(combobox(page)).toBeFocused();
      await page.keyboard.type(query);
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(`/search?q=${query}`);
      await expect(page.getByRole("main").getByRole("link", { name: post.title })).toBeVisible();
      await expect(page.getByRole("banner").getByRole("combobox")).toBeHidden();
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  withPost("the header's field searches on /search, which lists the results", async ({ page, post }) => {
    const { word } = post;
    await page.goto("/home");
    const field = page.getByRole("banner").getByRole("searchbox", { name: "Search the site" });
    await field.fill(word);
    await field.press("Enter");
    await expect(page).toHaveURL(`/search?q=${word}`);
    const hit = page.getByRole("main").getByRole("link", { name: post.title });
    await expect(hit).toBeVisible();
    await hit.click();
    await expect(page.getByRole("heading", { level: 1, name: post.title })).toBeVisible();
  });
});
