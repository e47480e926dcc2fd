import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page, Route } from "@playwright/test";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { setPictureAccess } from "#app/domains/gallery/gallery-access.server.ts";
import { deleteGalleryEntry, setGalleryPublished } from "#app/domains/gallery/gallery-admin.server.ts";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import { createUser, insertLinkRow } from "#tests/support/factories.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { freePort, startServer } from "#tests/support/server-process.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
import { type AdminFixtures, inContext, openAsNewAdmin } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { addInAdmin, uniqueName } from "./content-helpers.ts";
import { E2E_DATA_DIR, E2E_SECRET } from "./e2e-env.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

// Issue 19 in a browser: the live connection's states, one connection per browser, and what updates live.

/** Waits until the page's live connection is up (the provider marks <html data-live>). */
async function waitForLive(page: Page, state = "connected", timeout = 15_000) {
  await expect(page.locator("html")).toHaveAttribute("data-live", state, { timeout });
}

/** Counts the live streams a page's browser context opens. */
function countStreams(page: Page) {
  const opened: string[] = [];
  page.context().on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/events") opened.push(request.url());
  });
  return opened;
}

/**
 * A new admin's links screen, live, after links titled `titles` were added at the bottom of the list (as another
 * admin's save would add them) and shown there: the list and their ids.
 */
async function openLinksLive(
  page: Page,
  fixtures: AdminFixtures & { database: AppDatabase },
  titles: string[],
): Promise<{ list: Locator; ids: string[] }> {
  await openAsNewAdmin(page, fixtures, "/admin/links");
  await waitForLive(page);
  const list = page.getByRole("list", { name: "Links in display order" });
  const ids = await addLinksAtTheBottom(fixtures.database, titles);
  await expect(list.getByRole("listitem").last()).toContainText(titles.at(-1) ?? "");
  return { list, ids };
}

/** Links written straight into the table (as another admin's save would), below every link there is, in order. */
async function addLinksAtTheBottom(database: AppDatabase, titles: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const title of titles) {
    const sortOrder = await bottomSortOrder(database);
    const id = await insertLinkRow(database.db, { title, active: true });
    await database.db.updateTable("links").set({ sort_order: sortOrder }).where("id", "=", id).execute();
    ids.push(id);
  }
  return ids;
}

/** A place below every link there is. */
async function bottomSortOrder(database: AppDatabase): Promise<number> {
  const { last } = await database.db
    .selectFrom("links")
    .select((eb) => eb.fn.max("sort_order").as("last"))
    .executeTakeFirstOrThrow();
  return Number(last ?? 0) + 1;
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

test("a save made while a live reload is on its way is not undone by that reload's older answer", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  // Two links at the bottom of the list: the second is moved to the top below.
  const [first, moving] = [uniqueName("Stays"), uniqueName("Moves")];
  const { list, ids } = await openLinksLive(page, { makeUser, signInAs, database }, [first, moving]);

  // The reload a change elsewhere starts is held on its way, as a slow network or a busy server would hold it: it
  // reads the list before the save below and answers after it.
  let held: Route | undefined;
  let heldArrived = () => {};
  const arrived = new Promise<void>((resolve) => {
    heldArrived = resolve;
  });
  await page.route(
    (url) => url.pathname.endsWith(".data"),
    async (route) => {
      if (held || route.request().method() !== "GET") return route.fallback();
      held = route;
      heldArrived();
    },
  );
  // Another admin's change that moves nothing: the older answer has the list as it was before the save.
  await database.db
    .updateTable("links")
    .set({ title_de: uniqueName("Bleibt") })
    .where("id", "=", ids[0] ?? "")
    .execute();
  await arrived;

  const saved = page.waitForResponse(
    (response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/admin/links"),
  );
  await page.getByRole("button", { name: `Move “${moving}” to the top` }).focus();
  await page.keyboard.press("Enter");
  await saved;
  await expect(list.getByRole("listitem").first()).toContainText(moving);
  await expect(page.getByRole("button", { name: `Move “${moving}” down` })).toBeFocused();

  // The held answer, older than the save, is let through (or was given up by the page meanwhile).
  const request = held?.request();
  await held?.continue().catch(() => undefined);
  await request?.response().catch(() => null);
  // What the page does with it takes a moment after its last byte: no event marks "nothing more will change".
  await page.waitForTimeout(1_000);
  await expect(list.getByRole("listitem").first()).toContainText(moving);
  await expect(list.getByRole("listitem").last()).not.toContainText(moving);
  await expect(page.getByRole("button", { name: `Move “${moving}” down` })).toBeFocused();
});

test("a change read live that moves the focused link to the end leaves the focus on that link's other button", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  const names = [uniqueName("Ahead"), uniqueName("Focused"), uniqueName("Behind")];
  const { list, ids } = await openLinksLive(page, { makeUser, signInAs, database }, names);
  const down = page.getByRole("button", { name: `Move “${names[1]}” down` });
  await down.focus();

  // Another admin puts it last: its "down" button is switched off under the keyboard user's focus.
  await database.db
    .updateTable("links")
    .set({ sort_order: await bottomSortOrder(database) })
    .where("id", "=", ids[1] ?? "")
    .execute();
  await expect(list.getByRole("listitem").last()).toContainText(names[1] ?? "");
  await expect(down).toBeDisabled();
  await expect(page.getByRole("button", { name: `Move “${names[1]}” up` })).toBeFocused();
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

test("a Family member's open gallery offers a new Family picture; a member outside the group is offered nothing", async ({
  page,
  browser,
  database,
  makeUser,
  signInAs,
}) => {
  const db = database.db;
  const group = crypto.randomUUID();
  await db
    .insertInto("member_groups")
    .values({ id: group, name: uniqueName("Family"), created_at: new Date() })
    .execute();
  const [relative, outsider] = [await makeUser(), await makeUser()];
  await db.insertInto("user_groups").values({ user_id: relative.id, group_id: group }).execute();
  const storage = storageIn(E2E_DATA_DIR);
  let picture: string | null = null;
  try {
    await inContext(browser, async (other) => {
      await signInAs(page, relative);
      await signInAs(other, outsider);
      for (const open of [page, other]) {
        await open.goto("/");
        await waitForHydration(open);
        await waitForLive(open);
      }
      // Uploaded hidden, made Family-only, then published: as an admin's upload into a Family album does.
      const title = uniqueName("Family picture");
      picture = await createGalleryPicture(db, storage, { title, published: false, placement: "top" });
      const access = await setPictureAccess(db, storage, testAdmin, picture, {
        visibility: "groups",
        group_ids: group,
      });
      expect(access.ok).toBe(true);
      await setGalleryPublished(db, testAdmin, picture, true);
      const offer = page.getByRole("button", { name: "New pictures — Show" });
      await expect(offer).toBeVisible({ timeout: 5_000 });
      await offer.click();
      await expect(page.getByRole("img", { name: title }).first()).toBeVisible();
      // The outsider's page was told nothing: no offer, and a reload does not show the picture either.
      await expect(other.getByRole("button", { name: "New pictures — Show" })).toHaveCount(0);
      await other.reload();
      await expect(other.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(other.getByRole("img", { name: title })).toHaveCount(0);
    });
  } finally {
    if (picture) await deleteGalleryEntry(db, testAdmin, picture, storage);
    await db.deleteFrom("member_groups").where("id", "=", group).execute();
  }
});

test("a visitor's open blog and home page offer a post published meanwhile, and show it on request", async ({
  page,
  database,
}) => {
  const publish = async (title: string) => {
    const post = await createPost(database.db, testAdmin, { title, body: "Written while the page was open." });
    if (!post.ok) throw new Error("the post was refused");
    await setPostStatus(database.db, testAdmin, post.post.id, { status: "published" });
  };
  // One post already there, so the lists are the blog's, not an empty state.
  await publish(uniqueName("Earlier post"));
  for (const address of ["/blog", "/home"]) {
    await page.goto(address);
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
  }
});

test("after a server restart the page connects again by itself and shows what was written while it was down", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  // A server of the test's own, as the project's server cannot be restarted under the other tests.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-e2e-restart-"));
  const options = { dataDir, authSecret: E2E_SECRET, port: await freePort() };
  let server = await startServer(options);
  const database = openDatabase({ sqliteFile: path.join(dataDir, "vitrine.sqlite") });
  const context = await browser.newContext({ baseURL: server.origin });
  try {
    const admin = await createUser(database.db, { admin: true });
    const cookie = await createSessionCookie(database.db, admin.id, E2E_SECRET);
    await context.addCookies([{ ...cookie, url: server.origin, httpOnly: true, sameSite: "Lax" }]);
    const page = await context.newPage();
    const resumedFrom: (string | undefined)[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/events") resumedFrom.push(request.headers()["last-event-id"]);
    });
    await page.goto("/admin/links");
    await waitForLive(page);
    const main = page.getByRole("main");

    // A change the page receives while connected: its event's id is where the stream resumes after the restart.
    const before = uniqueName("Before the restart");
    await insertLinkRow(database.db, { title: before, active: true });
    await expect(main.getByText(before, { exact: true })).toBeVisible({ timeout: 5_000 });
    const head = await database.db
      .selectFrom("change_events")
      .select((eb) => eb.fn.max("seq").as("seq"))
      .executeTakeFirstOrThrow();

    await server.stop("SIGTERM");
    await expect(page.locator("html")).not.toHaveAttribute("data-live", "connected", { timeout: 10_000 });
    // Written while no server runs (as the CLI does): only the table keeps it.
    const during = uniqueName("While the server was down");
    await insertLinkRow(database.db, { title: during, active: true });
    await expect(main.getByText(during, { exact: true })).toHaveCount(0);

    server = await startServer(options);
    // The backoff is capped at 30 s; the downtime was a few seconds, so the next attempt comes well within this.
    await waitForLive(page, "connected", 45_000);
    await expect(main.getByText(during, { exact: true })).toBeVisible({ timeout: 5_000 });
    // The stream was resumed from the last event the page had, not opened afresh.
    expect(resumedFrom.at(-1)).toBe(String(head.seq));
    // The quiet indicator has nothing to say again.
    await expect(page.getByTestId("live-status")).toHaveText("");
  } finally {
    await context.close();
    await server.stop("SIGTERM");
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
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
