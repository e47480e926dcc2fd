import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import { expect, test, waitForQuiet } from "./fixtures.ts";

/** Gzipped JavaScript a visitor's page may load (React, the router and the page's own code). */
const JS_BUDGET_KIB = 125;
/** Of that, the site's own code: everything but the framework chunk (React and React Router, vite.config.ts). */
const APP_CODE_BUDGET_KIB = 15;
const FRAMEWORK_CHUNK = /\/assets\/framework-[\w-]+\.js$/;
/**
 * The live updates' code (issue 19), loaded only once the page is idle (root.tsx, `LivePublic`): not part of
 * the first load the budgets above are for, and held to a budget of its own.
 */
const LIVE_CHUNK = /\/assets\/live-[\w-]+\.js$/;
const LIVE_BUDGET_KIB = 5;
/**
 * The header's search type-ahead (issue 22), loaded when the search field is first focused (search-field.tsx): in
 * no page's load at all until then, and held to a budget of its own.
 */
const TYPEAHEAD_CHUNK = /\/assets\/search-typeahead-[\w-]+\.js$/;
const TYPEAHEAD_BUDGET_KIB = 5;

const publicPaths = [
  "/",
  "/home",
  "/links",
  "/faq",
  "/videos",
  "/blog",
  "/legal-notice",
  "/privacy",
  "/account-deleted",
];
// The sign-in form and the forgotten-password page: auth-form code is theirs, the budget holds all the same.
const authPaths = ["/auth", "/auth/forgot"];

// Strings that only exist in the sign-in/sign-up form, the toast library and the admin screens.
const forbiddenMarkers = ["inviteCode", "data-sonner-toaster", "admin.section.settings", "current-password"];

/** Loads the page and expects its JavaScript within the budgets, and (but for the auth pages) no foreign code. */
async function expectWithinBudget(page: Page, path: string) {
  // Bodies are awaited after the page settles: a handler that stored each body when it arrived could
  // miss the biggest file (the framework chunk) if its body came last.
  const bodies = new Map<string, Promise<Buffer>>();
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") bodies.set(response.url(), response.body());
  });
  const response = await page.goto(path);
  // The first load is what the page's HTML names (its module preloads and imports): the live code is not in it. It
  // was, once, while site.js imported helpers that the bundler had put in the live file.
  const firstLoad = await response?.text();
  expect(firstLoad, `the first load of ${path}`).not.toContain("/assets/live-");
  expect(firstLoad, `the first load of ${path}`).not.toContain("/assets/search-typeahead-");
  // The live connection's code loads once the page is idle (issue 19): it counts towards the budget, so the page
  // is measured after it has run.
  await expect(page.locator("html")).toHaveAttribute("data-live", /.+/, { timeout: 15_000 });
  await waitForQuiet(page);
  const scripts = new Map(await Promise.all([...bodies].map(async ([url, body]) => [url, await body] as const)));
  expect(scripts.size).toBeGreaterThan(0);
  // Nobody focused the search field: its type-ahead did not load, not even once the page was idle.
  expect([...scripts.keys()].filter((url) => TYPEAHEAD_CHUNK.test(url))).toEqual([]);
  for (const [url, body] of scripts) {
    for (const marker of authPaths.includes(path) ? [] : forbiddenMarkers) {
      expect(body.includes(marker), `${url} contains "${marker}"`).toBe(false);
    }
  }
  const all = [...scripts].map(([url, body]) => ({ url, kib: gzipSync(body).length / 1024 }));
  const live = all.filter((file) => LIVE_CHUNK.test(file.url));
  const liveTotal = live.reduce((sum, file) => sum + file.kib, 0);
  // It did load (after idle), so the first-load figures below are not missing anything by accident.
  expect(live.map((file) => new URL(file.url).pathname)).toContainEqual(expect.stringContaining("/assets/live-"));
  expect(liveTotal, `the live code on ${path}`).toBeLessThanOrEqual(LIVE_BUDGET_KIB);
  const gzipped = all.filter((file) => !LIVE_CHUNK.test(file.url));
  const total = gzipped.reduce((sum, file) => sum + file.kib, 0);
  console.log(
    `JavaScript loaded by ${path}: ${gzipped.length} files, ${total.toFixed(1)} KiB gzipped, and ${liveTotal.toFixed(1)} KiB of live code once idle (${gzipped
      .sort((a, b) => b.kib - a.kib)
      .map((file) => `${new URL(file.url).pathname.replace("/assets/", "")} ${file.kib.toFixed(1)}`)
      .join(", ")})`,
  );
  // React and the router are most of it; a development build of React alone would be over this.
  expect(total).toBeLessThanOrEqual(JS_BUDGET_KIB);
  expect(gzipped.filter((file) => FRAMEWORK_CHUNK.test(file.url))).toHaveLength(1);
  const appCode = gzipped.filter((file) => !FRAMEWORK_CHUNK.test(file.url)).reduce((sum, file) => sum + file.kib, 0);
  expect(appCode, `the site's own code on ${path}`).toBeLessThanOrEqual(APP_CODE_BUDGET_KIB);
}

for (const path of [...publicPaths, ...authPaths]) {
  test(`a visitor's page ${path} stays within the JavaScript budget${authPaths.includes(path) ? "" : " and loads no auth-form, toast or admin code"}`, async ({
    page,
  }) => {
    await expectWithinBudget(page, path);
  });
}

test("a blog post's page stays within the JavaScript budget and loads no auth-form, toast or admin code", async ({
  page,
  database,
  makeUser,
}) => {
  const admin = await makeUser({ admin: true });
  const actor = { id: admin.id, email: admin.email };
  const body = ["## Code", "```ts\nconst answer: number = 42;\n```", "## More", "Text.", "## End", "Bye."].join("\n\n");
  const created = await createPost(database.db, actor, { title: `Budget post ${Date.now()}`, body, tags: "budget" });
  if (!created.ok) throw new Error("The post was not created");
  const published = await setPostStatus(database.db, actor, created.id, { status: "published" });
  if (!published.ok) throw new Error("The post was not published");
  await expectWithinBudget(page, `/blog/${created.post.slug}`);
});

test("the search type-ahead loads when the field is first focused, within its own budget", async ({ page }) => {
  const bodies = new Map<string, Promise<Buffer>>();
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") bodies.set(response.url(), response.body());
  });
  await page.goto("/home");
  await waitForQuiet(page);
  const typeahead = () => [...bodies.keys()].filter((url) => TYPEAHEAD_CHUNK.test(url));
  expect(typeahead()).toEqual([]);
  await page.getByRole("banner").getByRole("searchbox", { name: "Search the site" }).focus();
  await expect(page.getByRole("banner").getByRole("combobox", { name: "Search the site" })).toBeFocused();
  expect(typeahead()).toHaveLength(1);
  const body = await bodies.get(typeahead()[0] ?? "");
  const kib = gzipSync(body ?? Buffer.alloc(0)).length / 1024;
  console.log(`The search type-ahead: ${kib.toFixed(1)} KiB gzipped`);
  expect(kib).toBeGreaterThan(0);
  expect(kib).toBeLessThanOrEqual(TYPEAHEAD_BUDGET_KIB);
  // Only the search's types and constants reach the browser, not the query schema's validation library (zod).
  for (const [url, script] of bodies) expect((await script).includes("ZodError"), url).toBe(false);
});

test("the auth page loads the toast library only when it has something to say", async ({ page }) => {
  const scripts: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push(response.text());
  });
  await page.goto("/auth");
  await waitForQuiet(page);
  const hasToaster = async () => (await Promise.all(scripts)).some((body) => body.includes("data-sonner-toaster"));
  expect(await hasToaster()).toBe(false);
  const panel = page.getByRole("tabpanel");
  await panel.getByLabel("E-mail").fill("nobody@example.com");
  await panel.getByLabel("Password").fill("wrong password 123");
  await panel.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Sign in failed" })).toBeVisible();
  await expect.poll(hasToaster).toBe(true);
});

test("the auth page does load its form code (the check above can see it)", async ({ page }) => {
  const bodies: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") bodies.push(response.text());
  });
  await page.goto("/auth");
  await waitForQuiet(page);
  expect((await Promise.all(bodies)).some((body) => body.includes("inviteCode"))).toBe(true);
});
