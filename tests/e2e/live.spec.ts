import type { Page } from "@playwright/test";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { openAsNewAdmin } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { addInAdmin, uniqueName } from "./content-helpers.ts";
import { E2E_DATA_DIR } from "./e2e-env.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

// Issue 19 in a browser: the live connection's states, one connection per browser, and what updates live.

/** Waits until the page's live connection is up (the provider marks <html data-live>). */
async function waitForLive(page: Page, state = "connected") {
  await expect(page.locator("html")).toHaveAttribute("data-live", state, { timeout: 15_000 });
}

/** Counts the live streams a page's browser context opens. */
function countStreams(page: Page) {
  const opened: string[] = [];
  page.context().on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/events") opened.push(request.url());
  });
  return opened;
}

test("an admin's save in one browser shows in another admin's open list within a second", async ({
  browser,
  page,
  makeUser,
  signInAs,
}) => {
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/links");
  await waitForLive(page);
  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await openAsNewAdmin(otherPage, { makeUser, signInAs }, "/admin/links");
    await waitForLive(otherPage);
    const name = uniqueName("Live link");
    await addInAdmin(
      otherPage,
      "Add a link",
      { "Title (English)": name, "Address (URL)": "https://example.com/live" },
      name,
    );
    // No reload, no click: the first admin's list has it.
    await expect(page.getByRole("main").getByText(name, { exact: true }).first()).toBeVisible({ timeout: 1_500 });
  } finally {
    await other.close();
  }
});

test("two tabs share one connection, and the other takes over when the first closes", async ({
  page,
  makeUser,
  signInAs,
}) => {
  const opened = countStreams(page);
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/links");
  await waitForLive(page);
  const second = await page.context().newPage();
  await second.goto("/admin/faq");
  await waitForHydration(second);
  await waitForLive(second);
  expect(opened).toHaveLength(1);
  await page.close();
  // The second tab holds the connection now (it opens one of its own, resuming where the first left off).
  await expect.poll(() => opened.length, { timeout: 10_000 }).toBe(2);
  await waitForLive(second);
  expect(new URL(opened[1] ?? "").pathname).toBe("/api/events");
});

test("a tab left hidden closes the connection, and showing it again reopens it", async ({ page }) => {
  await page.addInitScript(() => {
    (globalThis as { __vitrineLiveHiddenCloseMs?: number }).__vitrineLiveHiddenCloseMs = 300;
  });
  await page.goto("/");
  await waitForHydration(page);
  await waitForLive(page);
  const setVisibility = (state: "hidden" | "visible") =>
    page.evaluate((value) => {
      Object.defineProperty(document, "visibilityState", { value, configurable: true });
      Object.defineProperty(document, "hidden", { value: value === "hidden", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    }, state);
  await setVisibility("hidden");
  await waitForLive(page, "disconnected");
  await setVisibility("visible");
  await waitForLive(page);
});

test("a visitor's open gallery offers new pictures without moving the page, and shows them on request", async ({
  page,
  database,
}) => {
  for (const theme of ["light", "dark"] as const) {
    await setPreferences(page, { theme });
    await page.goto("/");
    await waitForHydration(page);
    await waitForLive(page);
    await page.evaluate(() => window.scrollTo(0, 200));
    const before = await page.evaluate(() => window.scrollY);
    const title = uniqueName("Fresh picture");
    await createGalleryPicture(database.db, storageIn(E2E_DATA_DIR), { title, published: true, placement: "top" });
    const offer = page.getByRole("button", { name: "New pictures — Show" });
    await expect(offer).toBeVisible({ timeout: 5_000 });
    // Offered, not forced: the page has not moved, the picture is not in it yet, and the offer is announced.
    expect(await page.evaluate(() => window.scrollY)).toBe(before);
    await expect(page.getByRole("img", { name: title })).toHaveCount(0);
    await expect(page.getByRole("status").filter({ has: offer })).toHaveCount(1);
    await expectNoViolations(page, `the gallery's new pictures offer (${theme})`);
    await offer.click();
    await expect(page.getByRole("img", { name: title }).first()).toBeVisible();
    await expect(offer).toBeHidden();
  }
});

test("a visitor's open blog offers a post published meanwhile, and shows it on request", async ({ page, database }) => {
  const publish = async (title: string) => {
    const post = await createPost(database.db, testAdmin, { title, body: "Written while the page was open." });
    if (!post.ok) throw new Error("the post was refused");
    await setPostStatus(database.db, testAdmin, post.post.id, { status: "published" });
  };
  // One post already there, so the list is the blog's, not its empty state.
  await publish(uniqueName("Earlier post"));
  await page.goto("/blog");
  await waitForHydration(page);
  await waitForLive(page);
  const title = uniqueName("Fresh post");
  await publish(title);
  const offer = page.getByRole("button", { name: "A new post — Show" });
  await expect(offer).toBeVisible({ timeout: 5_000 });
  // Offered, not forced: the list does not hold it until the visitor asks.
  await expect(page.getByRole("link", { name: title })).toHaveCount(0);
  await expect(page.getByRole("status").filter({ has: offer })).toHaveCount(1);
  await offer.click();
  await expect(page.getByRole("link", { name: title }).first()).toBeVisible();
  await expect(offer).toBeHidden();
});

test.describe("while the stream is refused", () => {
  test.use({ allowedBrowserErrors: [/the server responded with a status of 503/] });

  test("the admin's quiet indicator says when the connection is not up, and passes axe in both themes", async ({
    page,
    makeUser,
    signInAs,
  }) => {
    // The stream is refused (the server is stopping, say): the client keeps trying and says so.
    await page.route("**/api/events", (route) =>
      route.fulfill({ status: 503, headers: { "Retry-After": "60" }, body: "stopping" }),
    );
    await signInAs(page, await makeUser({ admin: true }));
    for (const theme of ["light", "dark"] as const) {
      await setPreferences(page, { theme });
      await page.goto("/admin/links");
      await waitForHydration(page);
      const status = page.getByTestId("live-status");
      await expect(status).toHaveText("Live updates: connecting…", { timeout: 15_000 });
      await expect(status).toBeVisible();
      await expectNoViolations(page, `the admin's live indicator (${theme})`);
    }
  });
});
