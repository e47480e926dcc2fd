import type { Page } from "@playwright/test";
import type { AppDatabase } from "#app/db/database.server.ts";
import { testPhoto } from "#tests/support/gallery-factories.ts";
import { expectToastAfter, openAsNewAdmin, toast } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { expect, setPreferences, test } from "./fixtures.ts";

// One story in order: the pictures the first test uploads are the ones the later tests sort and tidy up.
test.describe.configure({ mode: "serial" });

const list = (page: Page) => page.getByRole("list", { name: "Pictures in display order" });
const row = (page: Page, title: string) =>
  list(page)
    .getByRole("listitem")
    .filter({ has: page.getByText(title, { exact: true }) });

/** The pictures' titles in their stored order. */
const storedOrder = async (database: AppDatabase) =>
  (await database.db.selectFrom("gallery_images").select("title").orderBy("sort_order").execute()).map(
    (entry) => entry.title,
  );

async function upload(page: Page, names: string[]) {
  const files = await Promise.all(
    names.map(async (name, index) => ({
      name,
      mimeType: "image/jpeg",
      buffer: await testPhoto({ width: 480, height: 320, hue: 40 + index * 70, label: name }),
    })),
  );
  const uploads = page.getByRole("list", { name: "Uploads" });
  const doneBefore = await uploads.locator('[data-state="done"]').count();
  await page.getByLabel("choose files").setInputFiles(files);
  await expect(uploads.locator('[data-state="done"]')).toHaveCount(doneBefore + names.length, { timeout: 45_000 });
}

test("uploads are titled after their file names, stay hidden unless published at once, and their alt text reaches visitors", async ({
  page,
  makeUser,
  signInAs,
  database,
  browser,
}) => {
  test.setTimeout(300_000);
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/gallery");
  await expect(page.getByLabel("Keep hidden until I publish")).toBeChecked();
  await expect(page.getByLabel("At the bottom of the gallery")).toBeChecked();

  // A numbering prefix is no part of a title.
  await upload(page, ["01-alpine-lake_02.jpg", "10 harbour-at-dawn.jpg"]);
  for (const title of ["Alpine lake 02", "Harbour at dawn"]) {
    await expect(row(page, title).getByText("Hidden", { exact: true })).toBeVisible();
  }
  const stored = await database.db
    .selectFrom("gallery_images")
    .select(["id", "title", "title_de", "published"])
    .where("title", "in", ["Alpine lake 02", "Harbour at dawn"])
    .orderBy("sort_order")
    .execute();
  expect(stored.map((entry) => [entry.title, entry.title_de, Boolean(entry.published)])).toEqual([
    // The German title stays empty until the owner writes one: German visitors see the English title meanwhile.
    ["Alpine lake 02", "", false],
    ["Harbour at dawn", "", false],
  ]);
  // At the bottom: after every picture there was.
  const last = await database.db
    .selectFrom("gallery_images")
    .select("title")
    .orderBy("sort_order", "desc")
    .executeTakeFirstOrThrow();
  expect(last.title).toBe("Harbour at dawn");

  // The alt text, in English and German, written in the picture's edit form.
  const lake = row(page, "Alpine lake 02");
  await lake.getByRole("button", { name: "Edit “Alpine lake 02”" }).click();
  const form = lake.getByRole("form");
  // No German title until the owner writes one (German visitors read the English one meanwhile).
  await expect(form.getByRole("group", { name: "German" }).getByLabel("Title")).toHaveValue("");
  await form.getByRole("group", { name: "English" }).getByLabel("Alt text").fill("A blue lake below snowy peaks");
  await form.getByRole("group", { name: "German" }).getByLabel("Alt text").fill("Ein blauer See unter Gipfeln");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "“Alpine lake 02” was saved.")).toBeVisible();
  await page.getByRole("button", { name: "Publish “Alpine lake 02”" }).click();
  await expect(toast(page, "“Alpine lake 02” is now published.")).toBeVisible();

  const lakeId = stored[0]?.id ?? "";
  const visitor = await browser.newPage();
  const publicAlt = async (lang: "en" | "de") => {
    await setPreferences(visitor, { lang });
    await visitor.goto(`/?image=${lakeId}`);
    return visitor.locator(`main ul.picture-rows a[id="thumb-${lakeId}"] img`).getAttribute("alt", { timeout: 2_000 });
  };
  // Shown once all its sizes exist.
  await expect.poll(() => publicAlt("en").catch(() => null), { timeout: 90_000 }).toBe("A blue lake below snowy peaks");
  await expect(visitor.getByRole("dialog").locator("figure img")).toHaveAttribute(
    "alt",
    "A blue lake below snowy peaks",
  );
  expect(await publicAlt("de")).toBe("Ein blauer See unter Gipfeln");
  await visitor.close();

  // Published at once, at the top, and that choice of place is remembered.
  await page.getByLabel("Publish at once").check();
  await page.getByLabel("At the top of the gallery").check();
  await upload(page, ["summit.jpg", "valley.jpg"]);
  await expect(list(page).getByRole("listitem").nth(0)).toContainText("Summit");
  await expect(list(page).getByRole("listitem").nth(1)).toContainText("Valley");
  await expect(row(page, "Summit").getByText("Published", { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("At the top of the gallery")).toBeChecked();
  await expect(page.getByLabel("Keep hidden until I publish")).toBeChecked();
});

test("several pictures are published, hidden, given a category and deleted at once", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  test.setTimeout(240_000);
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/gallery");
  await upload(page, ["glacier.jpg", "moraine.jpg", "scree.jpg"]);
  const bulk = page.getByRole("region", { name: "Actions for the selected pictures" });
  const select = (title: string) => page.getByRole("checkbox", { name: `Select “${title}”` });
  const published = async () =>
    Object.fromEntries(
      (
        await database.db
          .selectFrom("gallery_images")
          .select(["title", "published", "category", "category_de"])
          .where("title", "in", ["Glacier", "Moraine", "Scree"])
          .execute()
      ).map((entry) => [entry.title, [Boolean(entry.published), entry.category, entry.category_de]]),
    );

  // Nothing selected: nothing to do.
  await expect(bulk.getByRole("button", { name: "Publish" })).toBeDisabled();
  await select("Glacier").check();
  await select("Moraine").check();
  await expect(bulk.getByText("Selected: 2")).toBeVisible();
  await bulk.getByRole("button", { name: "Publish" }).click();
  await expect(toast(page, /Published: .*“Glacier”/)).toBeVisible();
  await expect(bulk.getByText("Selected: 0")).toBeVisible();
  await expect(row(page, "Moraine").getByText("Published", { exact: true })).toBeVisible();
  expect(await published()).toMatchObject({ Glacier: [true, "", ""], Moraine: [true, "", ""], Scree: [false, "", ""] });

  await select("Moraine").check();
  await bulk.getByRole("button", { name: "Hide" }).click();
  await expect(toast(page, "Hidden: “Moraine”")).toBeVisible();
  await expect(row(page, "Moraine").getByText("Hidden", { exact: true })).toBeVisible();

  // A category picked for several pictures; the one-off German label follows from a picture that has it.
  await row(page, "Scree").getByRole("button", { name: "Edit “Scree”" }).click();
  const form = row(page, "Scree").getByRole("form");
  await form.getByRole("group", { name: "English" }).getByLabel("Category").fill("Ice");
  await form.getByRole("group", { name: "German" }).getByLabel("Category").fill("Eis");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "“Scree” was saved.")).toBeVisible();
  await expect(row(page, "Scree").getByText(/^Ice \/ Eis/)).toBeVisible();
  // The existing categories are offered to pick from.
  const offered = await bulk
    .getByLabel("Category for the selected pictures")
    .evaluate((input) => [...((input as HTMLInputElement).list?.options ?? [])].map((option) => option.value));
  expect(offered).toContain("Ice");
  await select("Glacier").check();
  await select("Moraine").check();
  await bulk.getByLabel("Category for the selected pictures").fill("Ice");
  await bulk.getByRole("button", { name: "Set category" }).click();
  await expect(toast(page, /Category “Ice” set for: /)).toBeVisible();
  expect(await published()).toEqual({
    Glacier: [true, "Ice", "Eis"],
    Moraine: [false, "Ice", "Eis"],
    Scree: [false, "Ice", "Eis"],
  });

  // Select all, then all off again.
  const total = await list(page).getByRole("listitem").count();
  await bulk.getByLabel("Select all").check();
  await expect(bulk.getByText(`Selected: ${total}`)).toBeVisible();
  await bulk.getByLabel("Select all").uncheck();
  await expect(bulk.getByText("Selected: 0")).toBeVisible();

  // Delete asks once, naming the count.
  for (const title of ["Glacier", "Moraine", "Scree"]) await select(title).check();
  await bulk.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete the selected pictures (3)?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, /Deleted: /)).toBeVisible();
  await expect(list(page).getByRole("listitem")).toHaveCount(total - 3);
  expect(await published()).toEqual({});
  const audit = await database.db
    .selectFrom("audit_log")
    .select("target")
    .where("action", "=", "gallery.delete")
    .where("target", "in", ["Glacier", "Moraine", "Scree"])
    .execute();
  expect(audit).toHaveLength(3);
});

test("a picture moves to the top or the bottom from the keyboard, and a drag is saved once", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  test.setTimeout(240_000);
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/gallery");
  const order = () => storedOrder(database);

  await page.getByRole("button", { name: "Move “Harbour at dawn” to the top" }).focus();
  await expectToastAfter(
    page,
    "Order saved.",
    () => page.keyboard.press("Enter"),
    async () => {
      await expect.poll(async () => (await order())[0]).toBe("Harbour at dawn");
      await expect(list(page).getByRole("listitem").first()).toContainText("Harbour at dawn");
      // At the top its "to the top" button is off: the focus stays on a button of the same picture, also once
      // the save's answer has re-rendered the list.
      await expect(page.getByRole("button", { name: "Move “Harbour at dawn” down" })).toBeFocused();
    },
  );

  await page.getByRole("button", { name: "Move “Summit” to the bottom" }).focus();
  await expectToastAfter(page, "Order saved.", () => page.keyboard.press("Enter"));
  await expect.poll(async () => (await order()).at(-1)).toBe("Summit");
  await expect(list(page).getByRole("listitem").last()).toContainText("Summit");

  // "Valley" dragged down over several rows in many steps: one save, one toast.
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/admin/gallery")) {
      posts.push(request.url());
    }
  });
  const before = await order();
  const from = before.indexOf("Valley");
  const to = Math.min(from + 3, before.length - 1);
  const target = list(page).getByRole("listitem").nth(to);
  const handle = page.getByRole("img", { name: "Drag to reorder “Valley”" });
  // A person lets go over a row they can see. Where the earlier steps left the page scrolled, the row three below
  // Valley's could lie past the window's bottom edge (CI let go at y 723 of a 720 px window, over nothing): Valley's
  // row goes near the top first, so that the target is on screen and away from the edge where a drag scrolls.
  await handle.evaluate((element) => {
    const row = element.closest("li");
    if (row) window.scrollBy(0, row.getBoundingClientRect().top - 100);
  });
  await handle.hover();
  await page.mouse.down();
  const box = await target.boundingBox();
  if (!box) throw new Error("no box for the drop target");
  const windowHeight = page.viewportSize()?.height ?? 0;
  expect(
    box.y + box.height / 2,
    "the drop target's middle, inside the window and above its scrolling edge",
  ).toBeLessThan(windowHeight - 80);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 12 });
  await page.mouse.up();
  await expect(toast(page, "Order saved.")).toHaveCount(1);
  await expect.poll(async () => (await order()).indexOf("Valley")).toBe(to);
  // Still one, after the dust settles.
  await page.waitForTimeout(1_000);
  await expect(toast(page, "Order saved.")).toHaveCount(1);
  expect(posts).toHaveLength(1);
  await toast(page, "Order saved.").getByRole("button", { name: "Close toast" }).click();

  // A hurried hand: released the moment the pointer enters a row, before the page has drawn the drag; the row under
  // the pointer when it is let go takes the picture. Three times, as the moment is a matter of timing. The row aimed
  // at is the fourth, but the place is read where the pointer was let go: CI once saw the picture land third, the
  // page having moved under the pointer between the box's reading and the release (a row above changing height, or
  // the page scrolling), and the picture then rightly took the row the pointer was over.
  for (let attempt = 0; attempt < 3; attempt++) {
    const first = (await order())[0] ?? "";
    let landed = -1;
    await expectToastAfter(page, "Order saved.", async () => {
      await page.getByRole("img", { name: `Drag to reorder “${first}”` }).hover();
      // Read after the hover, which may have scrolled the page to bring the handle into view.
      const rowBox = await list(page).getByRole("listitem").nth(3).boundingBox();
      if (!rowBox) throw new Error("no box for the drop target");
      const point = { x: rowBox.x + rowBox.width / 2, y: rowBox.y + rowBox.height / 2 };
      await page.mouse.down();
      await page.mouse.move(point.x, rowBox.y + 5, { steps: 4 });
      await page.mouse.move(point.x, point.y, { steps: 4 });
      await page.mouse.up();
      // The dropped picture's row is now the one under the pointer: its place in the list.
      landed = await list(page).evaluate((element, { x, y }) => {
        const row = document.elementFromPoint(x, y)?.closest("li");
        return row ? [...element.children].indexOf(row) : -1;
      }, point);
    });
    expect(landed, "the pointer was let go over a row a few below the first").toBeGreaterThanOrEqual(2);
    await expect(list(page).getByRole("listitem").nth(landed)).toContainText(first);
    await expect.poll(async () => (await order()).indexOf(first)).toBe(landed);
  }
});

test("a drag near the window's edge scrolls a long list; Escape cancels it, and the drop lands where the pointer is let go", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  await page.setViewportSize({ width: 1280, height: 500 });
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/gallery");
  const before = await storedOrder(database);
  const scrollY = () => page.evaluate(() => window.scrollY);
  const handles = list(page).getByRole("img", { name: /^Drag to reorder/ });
  const lastHandle = handles.last();
  await lastHandle.scrollIntoViewIfNeeded();
  const startY = await scrollY();
  expect(startY).toBeGreaterThan(200);
  await lastHandle.hover();
  await page.mouse.down();
  // Held near the top edge of the window, over the list.
  const listBox = await list(page).boundingBox();
  const x = (listBox?.x ?? 0) + 200;
  await page.mouse.move(x, 120, { steps: 5 });
  await page.mouse.move(x, 10, { steps: 5 });
  await expect.poll(scrollY, { timeout: 5_000 }).toBeLessThan(startY - 150);
  await page.keyboard.press("Escape");
  await page.mouse.up();
  // Cancelled: no line left, nothing saved.
  await page.waitForTimeout(500);
  await expect(list(page).locator("li.opacity-50")).toHaveCount(0);
  expect(await storedOrder(database)).toEqual(before);

  // The first picture, held at the bottom edge until the page reached its end, then let go over the last row.
  await page.evaluate(() => window.scrollTo(0, 0));
  await handles.first().hover();
  await page.mouse.down();
  await page.mouse.move(x, 490, { steps: 5 });
  await expect
    .poll(() => page.evaluate(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1), {
      timeout: 10_000,
    })
    .toBe(true);
  const lastBox = await list(page).getByRole("listitem").last().boundingBox();
  if (!lastBox) throw new Error("no box for the last row");
  await expectToastAfter(page, "Order saved.", async () => {
    await page.mouse.move(x, lastBox.y + lastBox.height / 2, { steps: 3 });
    await page.mouse.up();
  });
  await expect.poll(async () => (await storedOrder(database)).at(-1)).toBe(before[0]);
});

test.describe("on a phone", () => {
  test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });

  test("a finger on a picture's handle drags it to another place, and the page does not scroll instead", async ({
    page,
    makeUser,
    signInAs,
    database,
  }) => {
    await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/gallery");
    const before = await storedOrder(database);
    const moving = before[0] ?? "";
    const handle = page.getByRole("img", { name: `Drag to reorder “${moving}”` });
    // The row between the handle and the target in the middle of the screen: both away from the edges, where a
    // held drag scrolls the page.
    await list(page)
      .getByRole("listitem")
      .nth(1)
      .evaluate((element) => element.scrollIntoView({ block: "center" }));
    const from = await handle.boundingBox();
    const target = await list(page).getByRole("listitem").nth(2).boundingBox();
    if (!from || !target) throw new Error("no box for the handle or the target");
    for (const y of [from.y, target.y + target.height]) expect(y).toBeGreaterThan(80);
    for (const y of [from.y, target.y + target.height]) expect(y).toBeLessThan(844 - 80);
    const startY = await page.evaluate(() => window.scrollY);
    // Touch through the browser's own input pipeline: Playwright's touchscreen only taps.
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: "touchStart" | "touchMove" | "touchEnd", x: number, y: number) =>
      cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y }] });
    const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
    const end = { x: target.x + target.width / 2, y: target.y + target.height / 2 };
    await expectToastAfter(page, "Order saved.", async () => {
      await touch("touchStart", start.x, start.y);
      for (let step = 1; step <= 8; step++) {
        await touch("touchMove", start.x + ((end.x - start.x) * step) / 8, start.y + ((end.y - start.y) * step) / 8);
      }
      await touch("touchEnd", end.x, end.y);
      expect(await page.evaluate(() => window.scrollY)).toBe(startY);
    });
    await expect.poll(async () => (await storedOrder(database)).indexOf(moving)).toBe(2);
  });
});

for (const theme of ["light", "dark"] as const) {
  for (const width of [1280, 390]) {
    test(`axe-core finds nothing on the admin gallery with a selection and the editor open (${theme}, ${width} px)`, async ({
      page,
      makeUser,
      signInAs,
    }) => {
      await setPreferences(page, { theme });
      await page.setViewportSize({ width, height: 900 });
      await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/gallery");
      await expect(page.locator("html")).toHaveClass(theme);
      await page.getByRole("checkbox", { name: "Select “Valley”" }).check();
      await page.getByRole("button", { name: "Edit “Valley”" }).click();
      await expect(row(page, "Valley").getByRole("form")).toBeVisible();
      await expectNoViolations(page, `/admin/gallery (${theme}, ${width} px)`);
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  }
}
