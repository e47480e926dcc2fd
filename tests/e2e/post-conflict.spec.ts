import type { Page } from "@playwright/test";
import { leavePresence, notePresence } from "#app/domains/posts/post-presence.server.ts";
import { type AdminFixtures, openAsNewAdmin } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { uniqueName } from "./content-helpers.ts";
import { expect, test, waitForHydration } from "./fixtures.ts";

// Issue 19, editing together: a save made elsewhere while a post is edited is announced and never silently
// overwritten; the admin chooses: keep mine, take theirs, or see both.

const english = (page: Page) => page.getByRole("tabpanel", { name: "English" });
const bodyOf = (page: Page) => english(page).getByLabel("Text (Markdown)");
const banner = (page: Page) => page.getByRole("region", { name: "Saved elsewhere while you were editing" });

async function saveDraft(page: Page) {
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Saved.", { exact: true }).first()).toBeVisible();
}

/** A new admin writes a new post and saves it as a draft: its id. */
async function writeNewPost(page: Page, fixtures: AdminFixtures, title: string, body: string): Promise<string> {
  await openAsNewAdmin(page, fixtures, "/admin/posts/new");
  await english(page).getByLabel("Title").fill(uniqueName(title));
  await bodyOf(page).fill(body);
  await saveDraft(page);
  await expect(page).toHaveURL(/\/admin\/posts\/[0-9a-f-]{36}\?done=save$/);
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}

test("a save made elsewhere is announced; the admin sees both, takes theirs, or keeps theirs out", async ({
  browser,
  page,
  makeUser,
  signInAs,
  database,
}) => {
  test.setTimeout(120_000);
  // Admin A writes a draft.
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/posts/new");
  const title = uniqueName("Shared post");
  await english(page).getByLabel("Title").fill(title);
  await bodyOf(page).fill("First text.");
  await saveDraft(page);
  await expect(page).toHaveURL(/\/admin\/posts\/[^/]+\?done=save$/);
  const postId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
  const stored = async () =>
    (await database.db.selectFrom("posts").select("body").where("id", "=", postId).executeTakeFirstOrThrow()).body;

  const other = await browser.newContext();
  try {
    // Admin B opens the same post and starts typing.
    const b = await other.newPage();
    await openAsNewAdmin(b, { makeUser, signInAs }, `/admin/posts/${postId}`);
    await expect(b.locator("html")).toHaveAttribute("data-live", "connected", { timeout: 15_000 });
    await expect(page.locator("html")).toHaveAttribute("data-live", "connected", { timeout: 15_000 });
    // Each sees that the other has the post open (A learns of B's arrival from the stream, B from its own check).
    await expect(page.getByRole("status").filter({ hasText: "Also open in the editor:" })).toBeVisible({
      timeout: 5_000,
    });
    await expect(b.getByRole("status").filter({ hasText: "Also open in the editor:" })).toBeVisible();
    await bodyOf(b).fill("B's text.");

    // A saves meanwhile: B is told at once, nothing of B's is lost and nothing is saved for B by itself.
    await bodyOf(page).fill("A's text.");
    await saveDraft(page);
    await expect(banner(b)).toBeVisible({ timeout: 5_000 });
    await expect(banner(b).getByRole("alert")).toContainText("Nothing of yours was lost");
    await expect(bodyOf(b)).toHaveValue("B's text.");
    await b.waitForTimeout(4_000); // longer than the draft's own save waits
    expect(await stored()).toBe("A's text.");

    // See both: the differing field, side by side.
    await banner(b).getByRole("button", { name: "See both" }).click();
    await expect(banner(b).getByRole("button", { name: "See both" })).toHaveAttribute("aria-expanded", "true");
    const comparison = banner(b).getByRole("definition");
    await expect(comparison).toHaveCount(1);
    await expect(comparison).toContainText("B's text.");
    await expect(comparison).toContainText("A's text.");
    // In both themes (the switch keeps the page and its unsaved text).
    const dark = async () => (await b.locator("html").getAttribute("class"))?.includes("dark") ?? false;
    const first = await dark();
    await expectNoViolations(b, `the post editor's conflict choice (${first ? "dark" : "light"})`);
    await b.getByRole("button", { name: /^Switch to (light|dark) theme$/ }).click();
    await expect.poll(dark).toBe(!first);
    await expectNoViolations(b, `the post editor's conflict choice (${first ? "light" : "dark"})`);
    await expect(bodyOf(b)).toHaveValue("B's text.");

    // Take theirs: B's editor holds A's text, and has nothing unsaved.
    await banner(b).getByRole("button", { name: "Take theirs" }).click();
    await expect(banner(b)).toBeHidden();
    await expect(bodyOf(b)).toHaveValue("A's text.");

    // Again, and this time B keeps theirs out: B's save replaces A's.
    await bodyOf(b).fill("B's second text.");
    await bodyOf(page).fill("A's second text.");
    await saveDraft(page);
    await expect(banner(b)).toBeVisible({ timeout: 5_000 });
    await banner(b).getByRole("button", { name: "Keep mine" }).click();
    await expect(banner(b)).toBeHidden();
    await saveDraft(b);
    await expect.poll(stored).toBe("B's second text.");
    // A had nothing unsaved: its open editor takes B's text in place, without a banner or a reload.
    await expect(bodyOf(page)).toHaveValue("B's second text.", { timeout: 5_000 });
    await expect(banner(page)).toHaveCount(0);
    // B closes the post: A's note says so without waiting for the timeout.
    await b.close();
    await expect(page.getByRole("status").filter({ hasText: "Also open in the editor:" })).toHaveCount(0, {
      timeout: 5_000,
    });
  } finally {
    await other.close();
  }
});

test("an own save whose reload comes after a save made elsewhere shows theirs in place, with no conflict", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  const postId = await writeNewPost(page, { makeUser, signInAs }, "Overtaken post", "First.");
  await expect(page.locator("html")).toHaveAttribute("data-live", "connected", { timeout: 15_000 });

  // The page's reload after the next save is held on its way (a busy server, a slow line), and another admin
  // saves meanwhile: the reload answers with their post, newer than this page's own save.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    void page.route(
      (url) => url.pathname === `/admin/posts/${postId}.data`,
      async (route) => {
        if (route.request().method() !== "GET") return route.fallback();
        await page.unroute((url) => url.pathname === `/admin/posts/${postId}.data`);
        const go = new Promise<void>((done) => {
          release = done;
        });
        resolve();
        await go;
        await route.fallback();
      },
    );
  });
  const saved = page.waitForResponse(
    (response) => response.request().method() === "POST" && response.url().includes(`/admin/posts/${postId}`),
  );
  await bodyOf(page).fill("Mine, saved.");
  await page.getByRole("button", { name: "Save draft" }).click();
  expect((await saved).ok()).toBe(true);
  await held;
  await database.db
    .updateTable("posts")
    .set({ body: "Theirs, later.", updated_at: new Date(Date.now() + 1_000) })
    .where("id", "=", postId)
    .execute();
  release();

  // Nothing here was unsaved: the editor takes their text in place.
  await expect(bodyOf(page)).toHaveValue("Theirs, later.", { timeout: 5_000 });
  await expect(banner(page)).toHaveCount(0);
});

test("an older answer about who is there does not bring back an editor who has left", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  const postId = await writeNewPost(page, { makeUser, signInAs }, "Presence post", "Text.");
  await expect(page.locator("html")).toHaveAttribute("data-live", "connected", { timeout: 15_000 });
  const note = page.getByRole("status").filter({ hasText: "Also open in the editor:" });
  // Another admin's editor, as its heartbeat would note it: this page is told live and shows it.
  const other = { postId, tab: `other-${Date.now()}`, userId: (await makeUser({ admin: true })).id };
  await notePresence(database.db, other);
  await expect(note).toBeVisible({ timeout: 5_000 });

  // The editor's next "I am here" (its own save opens it afresh) is answered while the other is there, and that
  // answer is held on its way (a busy server, a slow line) until the other has left and the page was told so.
  const address = `/admin/posts/${postId}/presence`;
  let release = () => {};
  const answered = new Promise<void>((resolve) => {
    void page.route(
      (url) => url.pathname === address,
      async (route) => {
        if (route.request().method() !== "POST" || !route.request().postData()?.includes("here")) {
          return route.fallback();
        }
        await page.unroute((url) => url.pathname === address);
        const response = await route.fetch();
        const go = new Promise<void>((done) => {
          release = done;
        });
        resolve();
        await go;
        await route.fulfill({ response });
      },
    );
  });
  await bodyOf(page).fill("Text, saved again.");
  await saveDraft(page);
  await answered;
  await leavePresence(database.db, other);
  await expect(note).toHaveCount(0, { timeout: 5_000 });
  release();
  // The held answer, older than the one that said the other left, changes nothing.
  await page.waitForTimeout(1_000);
  await expect(note).toHaveCount(0);
});

test.describe("without the live stream", () => {
  test.use({ allowedBrowserErrors: [/net::ERR_FAILED \(http:\/\/[^)]+\/api\/events\)/] });

  test("a save from a page that does not know of the newer post is refused by the server, not applied", async ({
    page,
    makeUser,
    signInAs,
    database,
  }) => {
    const postId = await writeNewPost(page, { makeUser, signInAs }, "Stale post", "Mine.");
    // Saved by the command line, a restore or a stream this page missed: no live event reaches it.
    await page.route("**/api/events", (route) => route.abort());
    await page.reload();
    // Typed before the editor is hydrated, the text would be the page's, not the editor's (a loaded CI machine
    // filled the field mid-hydration and saw "Mine, later.Mine.").
    await waitForHydration(page);
    await database.db
      .updateTable("posts")
      .set({ body: "Theirs.", updated_at: new Date(Date.now() + 1_000) })
      .where("id", "=", postId)
      .execute();
    await bodyOf(page).fill("Mine, later.");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Not saved: this post was saved elsewhere meanwhile.").first()).toBeVisible();
    await expect(banner(page)).toBeVisible();
    await expect(bodyOf(page)).toHaveValue("Mine, later.");
    expect(
      (await database.db.selectFrom("posts").select("body").where("id", "=", postId).executeTakeFirstOrThrow()).body,
    ).toBe("Theirs.");
  });
});
