import type { Page } from "@playwright/test";
import { createGalleryPicture, storageIn, testPhoto } from "#tests/support/gallery-factories.ts";
import { openAsNewAdmin } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { E2E_DATA_DIR } from "./e2e-env.ts";
import { E2E_BASE_URL, expect, openLightbox, rawHtml, setPreferences, test, waitForHydration } from "./fixtures.ts";

// One story, in order: the admin's uploads are what the visitor then sees.
test.describe.configure({ mode: "serial" });

const PICTURES = [
  {
    file: "harbour.jpg",
    hue: 0,
    en: { title: "Red harbour", description: "Boats at dawn", category: "City" },
    de: { title: "Roter Hafen", description: "Boote im Morgengrauen", category: "Stadt" },
  },
  {
    file: "forest.jpg",
    hue: 120,
    en: { title: "Green forest", description: "Moss and ferns", category: "Nature" },
    de: { title: "Grüner Wald", description: "Moos und Farne", category: "Natur" },
  },
  {
    file: "lake.jpg",
    hue: 220,
    // German left empty: visitors reading German see the English text.
    en: { title: "Blue lake", description: "Still water", category: "Nature" },
    de: { title: "", description: "", category: "Natur" },
  },
];

/** The pictures of the grid, as their alternative texts, in the order shown. */
function gridAlts(page: Page) {
  return page
    .locator("main ul.picture-rows img")
    .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).alt));
}

const lightbox = (page: Page) => page.getByRole("dialog");

test("an admin uploads three pictures (and a refused SVG) and writes their captions in English and German", async ({
  page,
  makeUser,
  signInAs,
}) => {
  test.setTimeout(90_000);
  await signInAs(page, await makeUser({ admin: true }));
  await page.goto("/admin/gallery");
  await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toBeVisible();
  await waitForHydration(page);

  const files = await Promise.all(
    PICTURES.map(async (picture) => ({
      name: picture.file,
      mimeType: "image/jpeg",
      buffer: await testPhoto({ width: 1200, height: 800, hue: picture.hue, label: picture.en.title }),
    })),
  );
  const svg = {
    name: "holiday.svg",
    mimeType: "image/svg+xml",
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>'),
  };
  await page.getByLabel("Publish at once").check();
  await page.getByLabel("choose files").setInputFiles([...files, svg]);

  const uploads = page.getByRole("list", { name: "Uploads" });
  await expect(uploads.getByRole("listitem")).toHaveCount(4);
  await expect(uploads.locator('[data-state="done"]')).toHaveCount(3, { timeout: 45_000 });
  await expect(uploads.getByText("holiday.svg: not a supported image")).toBeVisible();

  const list = page.getByRole("list", { name: "Pictures in display order" });
  await expect(list.getByRole("listitem")).toHaveCount(3);

  for (const [index, picture] of PICTURES.entries()) {
    const row = list.getByRole("listitem").nth(index);
    await row.getByRole("button", { name: /^Edit/ }).click();
    const form = row.getByRole("form");
    for (const lang of ["en", "de"] as const) {
      const group = form.getByRole("group", { name: lang === "en" ? "English" : "German" });
      await group.getByLabel("Title").fill(picture[lang].title);
      await group.getByLabel("Description").fill(picture[lang].description);
      await group.getByLabel("Category").fill(picture[lang].category);
    }
    await form.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText(`“${picture.en.title}” was saved.`)).toBeVisible();
    await expect(row.getByText(picture.en.title, { exact: true })).toBeVisible();
  }
});

test("a visitor sees them in order, filters, reads German, and browses in the lightbox by keyboard", async ({
  page,
  browser,
}) => {
  // Their other sizes are made after the uploads were answered, and only then are they shown: reload until
  // all three are there, as a visitor would.
  await expect
    .poll(
      async () => {
        await page.goto("/");
        return gridAlts(page);
      },
      { timeout: 30_000 },
    )
    .toEqual(["Red harbour", "Green forest", "Blue lake"]);
  // Space is reserved before the pixels arrive: the server's HTML gives every picture its size and a placeholder.
  const { html } = await rawHtml(page, "/");
  const served = html.match(/<img [^>]*>/g) ?? [];
  expect(served).toHaveLength(3);
  for (const tag of served) {
    expect(tag).toContain('width="1200"');
    expect(tag).toContain('height="800"');
    expect(tag).toMatch(/style="background-image:url\(&quot;data:image\/webp;base64,/);
  }
  const images = page.locator("main ul.picture-rows img");
  await expect(images.first()).toHaveAttribute("loading", "eager");

  const filters = page.getByRole("navigation", { name: "Categories" });
  await filters.getByRole("link", { name: "Nature" }).click();
  await expect(page).toHaveURL("/?category=Nature");
  await expect.poll(() => gridAlts(page)).toEqual(["Green forest", "Blue lake"]);
  await expect(filters.getByRole("link", { name: "Nature" })).toHaveAttribute("aria-current", "page");
  await filters.getByRole("link", { name: "All" }).click();
  await expect.poll(() => gridAlts(page)).toEqual(["Red harbour", "Green forest", "Blue lake"]);

  await waitForHydration(page);
  await page.getByRole("button", { name: "Auf Deutsch umschalten" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect.poll(() => gridAlts(page)).toEqual(["Roter Hafen", "Grüner Wald", "Blue lake"]);
  const kategorien = page.getByRole("navigation", { name: "Kategorien" });
  await expect(kategorien.getByRole("link")).toHaveText(["Alle", "Natur", "Stadt"]);

  // The lightbox: opened from the grid, moved with the arrow keys, closed with Escape.
  const thumbnails = page.locator("main ul.picture-rows a[id^='thumb-']");
  await openLightbox(page);
  await expect(lightbox(page)).toBeVisible();
  await expect(lightbox(page).getByRole("heading", { name: "Roter Hafen" })).toBeVisible();
  await expect(lightbox(page).getByText("Boote im Morgengrauen")).toBeVisible();
  await expect(lightbox(page).getByText("Bild 1 von 3")).toBeVisible();
  // The watermark is the text drawn into the large picture shown (1200 wide, the widest); no badge lies over it.
  await expect
    .poll(() =>
      lightbox(page)
        .locator("img")
        .evaluate((image) => (image as HTMLImageElement).currentSrc),
    )
    .toMatch(/\/1200-[0-9a-f]{16}\.(avif|webp|jpg)$/);
  await expect(lightbox(page).getByText("© Vitrine")).toHaveCount(0);
  await page.keyboard.press("ArrowRight");
  await expect(lightbox(page).getByRole("heading", { name: "Grüner Wald" })).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(lightbox(page).getByRole("heading", { name: "Blue lake" })).toBeVisible();
  await expect(lightbox(page).getByText("Still water")).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await expect(lightbox(page).getByRole("heading", { name: "Grüner Wald" })).toBeVisible();
  // Focus stays inside: tabbing around never lands on the page behind (past the last control it may rest on
  // the browser's own interface, which is the document body from the page's point of view).
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    const where = await page.evaluate(() => {
      const active = document.activeElement;
      return active === null || active === document.body ? "browser" : active.closest("dialog") ? "dialog" : "page";
    });
    expect(where).not.toBe("page");
  }
  const forestId = (await thumbnails.nth(1).getAttribute("id"))?.replace("thumb-", "") ?? "";
  await expect(page).toHaveURL(`/?image=${forestId}`);
  const shared = page.url();

  await page.keyboard.press("Escape");
  await expect(lightbox(page)).toBeHidden();
  await expect(thumbnails.nth(1)).toBeFocused();
  await expect(page).toHaveURL("/");

  // The shared address opens the same picture for someone else, from the server.
  const other = await browser.newPage();
  const response = await other.goto(shared);
  const sharedHtml = (await response?.text()) ?? "";
  expect(sharedHtml).toMatch(/<meta property="og:image" content="http:\/\/[^"]+\/media\/images\/[^"]+\.jpg"/);
  // The picture's own address, on BASE_URL, for search engines and link previews alike.
  expect(sharedHtml).toContain(`<link rel="canonical" href="${E2E_BASE_URL}/?image=${forestId}"/>`);
  expect(sharedHtml).toContain(`<meta property="og:url" content="${E2E_BASE_URL}/?image=${forestId}"/>`);
  await expect(other.getByRole("dialog").getByRole("heading", { name: "Green forest" })).toBeVisible();
  await other.close();
});

test("swiping moves through the pictures, also while they are still loading", async ({ page }) => {
  // Pictures held back for a while, as on a slow connection: the lightbox keeps their place and takes swipes.
  const release: Array<() => void> = [];
  await page.route("**/media/images/**", async (route) => {
    await new Promise<void>((resolve) => release.push(resolve));
    // A picture swiped away before it arrived was given up by the page; its request cannot go on.
    await route.continue().catch(() => undefined);
  });
  await page.goto("/", { waitUntil: "domcontentloaded" });
  await openLightbox(page);
  const image = lightbox(page).locator("figure img");
  await expect(lightbox(page).getByRole("heading", { name: "Red harbour" })).toBeVisible();
  const swipe = async (from: number, to: number) => {
    const box = await image.boundingBox();
    if (!box) throw new Error("the lightbox image has no box");
    // The stored 1200×800 shape, before a single pixel has arrived.
    expect(box.width / box.height).toBeCloseTo(1.5, 1);
    expect(box.width).toBeGreaterThan(300);
    expect(await image.evaluate((element) => (element as HTMLImageElement).complete)).toBe(false);
    await page.mouse.move(box.x + box.width * from, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * to, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
  };
  await swipe(0.8, 0.2);
  await expect(lightbox(page).getByRole("heading", { name: "Green forest" })).toBeVisible();
  await swipe(0.2, 0.8);
  await expect(lightbox(page).getByRole("heading", { name: "Red harbour" })).toBeVisible();

  // Once the pixels are in, the picture is exactly where its placeholder was.
  const before = await image.boundingBox();
  await page.unroute("**/media/images/**");
  for (const resolve of release) resolve();
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  expect(await image.boundingBox()).toEqual(before);
});

test("Back closes the lightbox and Forward opens it again, without asking the server for anything", async ({
  page,
}) => {
  await page.goto("/?category=Nature");
  await expect.poll(() => gridAlts(page)).toEqual(["Green forest", "Blue lake"]);
  const serverRequests: string[] = [];
  page.on("request", (request) => {
    const isData = new URL(request.url()).pathname.endsWith(".data");
    if (isData || request.resourceType() === "document") serverRequests.push(request.url());
  });
  await openLightbox(page);
  await expect(lightbox(page).getByRole("heading", { name: "Green forest" })).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(lightbox(page).getByRole("heading", { name: "Blue lake" })).toBeVisible();
  await expect(page).toHaveURL(/\/\?category=Nature&image=[\w-]+$/);
  const lakeUrl = page.url();

  // Moving inside the lightbox replaced the entry it opened with: one Back, and the grid is there again.
  await page.goBack();
  await expect(lightbox(page)).toBeHidden();
  await expect(page).toHaveURL("/?category=Nature");
  await expect(page.getByRole("heading", { name: "Gallery", level: 1 })).toBeVisible();
  await page.goForward();
  await expect(lightbox(page).getByRole("heading", { name: "Blue lake" })).toBeVisible();
  expect(page.url()).toBe(lakeUrl);

  // Escape steps back as well, so no entry with the picture stays behind Back; Forward reopens it.
  await page.keyboard.press("Escape");
  await expect(lightbox(page)).toBeHidden();
  await expect(page).toHaveURL("/?category=Nature");
  await page.goForward();
  await expect(lightbox(page).getByRole("heading", { name: "Blue lake" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL("/?category=Nature");
  expect(serverRequests).toEqual([]);
});

test("the statistics hear of each picture opened or stepped to in the lightbox, not of one the page was opened with", async ({
  page,
}) => {
  const seen: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/seen") seen.push(`${url.searchParams.get("picture")} ${url.searchParams.get("page")}`);
  });
  const imageOf = () => new URL(page.url()).searchParams.get("image") ?? "";
  await page.goto("/?category=Nature");
  await expect.poll(() => gridAlts(page)).toEqual(["Green forest", "Blue lake"]);
  await openLightbox(page);
  await expect(lightbox(page).getByRole("heading", { name: "Green forest" })).toBeVisible();
  const forest = imageOf();
  await expect.poll(() => seen).toEqual([`${forest} /`]);
  await page.keyboard.press("ArrowRight");
  await expect(lightbox(page).getByRole("heading", { name: "Blue lake" })).toBeVisible();
  const lake = imageOf();
  await expect.poll(() => seen).toEqual([`${forest} /`, `${lake} /`]);
  // Loaded with the picture in its address: the server counted that request, the page sends nothing more for it.
  await page.goto(page.url());
  await expect(lightbox(page).getByRole("heading", { name: "Blue lake" })).toBeVisible();
  await waitForHydration(page);
  await page.keyboard.press("ArrowLeft");
  await expect(lightbox(page).getByRole("heading", { name: "Green forest" })).toBeVisible();
  await expect.poll(() => seen).toEqual([`${forest} /`, `${lake} /`, `${forest} /`]);
});

test("a link to a picture that is gone shows the gallery, and the language switch still works there", async ({
  page,
}) => {
  await page.goto("/?image=00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "Gallery", level: 1 })).toBeVisible();
  await expect(lightbox(page)).toBeHidden();
  await waitForHydration(page);
  await page.getByRole("button", { name: "DE: Auf Deutsch umschalten" }).click();
  await expect(page.getByRole("heading", { name: "Galerie", level: 1 })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
});

for (const theme of ["light", "dark"] as const) {
  test(`axe-core finds nothing on the gallery, the open lightbox and the admin gallery (${theme})`, async ({
    page,
    makeUser,
    signInAs,
  }) => {
    await setPreferences(page, { theme });
    await page.goto("/");
    await expect(page.locator("html")).toHaveClass(theme);
    await expect(page.locator("main ul.picture-rows img")).toHaveCount(3);
    await expectNoViolations(page, `/ with pictures (${theme})`);

    await openLightbox(page);
    await expect(lightbox(page)).toBeVisible();
    await expectNoViolations(page, `the open lightbox (${theme})`);

    await signInAs(page, await makeUser({ admin: true }));
    await page.goto("/admin/gallery");
    await expect(page.getByRole("list", { name: "Pictures in display order" }).getByRole("listitem")).toHaveCount(3);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Edit “Red harbour”" }).click();
    await expect(page.getByRole("form")).toBeVisible();
    await expectNoViolations(page, `/admin/gallery with the editor open (${theme})`);
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filter, the shared picture and its neighbours are plain links", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "City" }).click();
    await expect(page).toHaveURL("/?category=City");
    await expect.poll(() => gridAlts(page)).toEqual(["Red harbour"]);
    await page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "All" }).click();
    await page.getByRole("link", { name: "Green forest" }).click();
    await expect(page).toHaveURL(/\/\?image=/);
    await expect(page.getByRole("dialog").getByRole("heading", { name: "Green forest" })).toBeVisible();
    await page.getByRole("link", { name: "Next picture" }).click();
    await expect(page.getByRole("dialog").getByRole("heading", { name: "Blue lake" })).toBeVisible();
    await page.getByRole("link", { name: "Close the picture" }).click();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("dialog")).toBeHidden();
  });
});

test("many pictures come a page at a time: Load more with JavaScript, next-page links without", async ({
  page,
  browser,
  database,
}) => {
  test.setTimeout(120_000);
  const storage = storageIn(E2E_DATA_DIR);
  const photo = await testPhoto({ width: 480, height: 320, hue: 40, label: "Bulk" });
  for (let index = 0; index < 24; index++) {
    await createGalleryPicture(database.db, storage, { title: `Bulk ${index + 1}`, category: "Bulk", photo });
  }
  await page.goto("/");
  await expect(page.locator("main ul.picture-rows img")).toHaveCount(24);
  // Below the first row, pictures load lazily.
  await expect(page.locator("main ul.picture-rows img").nth(3)).toHaveAttribute("loading", "lazy");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Load more pictures" }).click();
  await expect(page.locator("main ul.picture-rows img")).toHaveCount(27);
  await expect(page.getByRole("button", { name: "Load more pictures" })).toHaveCount(0);
  expect((await gridAlts(page)).slice(-3)).toEqual(["Bulk 22", "Bulk 23", "Bulk 24"]);

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(page.url());
  await expect(plain.locator("main ul.picture-rows img")).toHaveCount(24);
  await plain.getByRole("link", { name: "Next page" }).click();
  await expect(plain).toHaveURL(/\/\?page=2$/);
  await expect.poll(() => gridAlts(plain)).toEqual(["Bulk 22", "Bulk 23", "Bulk 24"]);
  await expect(plain.getByText("Page 2 of 2")).toBeVisible();
  await plain.getByRole("link", { name: "Previous page" }).click();
  await expect(plain.locator("main ul.picture-rows img")).toHaveCount(24);
  await noScript.close();

  // The lightbox goes on past the last loaded picture: the next page comes, and its first picture.
  await page.goto("/");
  await openLightbox(page, 23);
  await expect(lightbox(page).getByText("Picture 24 of 27")).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(lightbox(page).getByRole("heading", { name: "Bulk 22" })).toBeVisible();
  await expect(lightbox(page).getByText("Picture 25 of 27")).toBeVisible();
  await lightbox(page).getByRole("link", { name: "Next picture" }).click();
  await expect(lightbox(page).getByRole("heading", { name: "Bulk 23" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.locator("main ul.picture-rows img")).toHaveCount(27);

  // Forward to a picture of the second page after a reload, when only the first page is loaded: its page comes.
  await openLightbox(page, 25);
  await expect(lightbox(page).getByRole("heading", { name: "Bulk 23" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL("/");
  await page.reload();
  await expect(page.locator("main ul.picture-rows img")).toHaveCount(24);
  await waitForHydration(page);
  await page.goForward();
  await expect(lightbox(page).getByRole("heading", { name: "Bulk 23" })).toBeVisible();
  await expect(lightbox(page).getByText("Picture 26 of 27")).toBeVisible();
});

test("the admin drops a file, moves it up, hides it and deletes it with its files", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  test.setTimeout(60_000);
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/gallery");
  const list = page.getByRole("list", { name: "Pictures in display order" });
  const before = await list.getByRole("listitem").count();

  // A file dragged from the desktop onto the drop zone.
  const bytes = [...(await testPhoto({ width: 640, height: 480, hue: 300, label: "Drop" }))];
  const dataTransfer = await page.evaluateHandle((data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], "dropped.jpg", { type: "image/jpeg" }));
    return transfer;
  }, bytes);
  await page.getByLabel("Publish at once").check();
  const zone = page.getByText("Drag pictures here, or");
  await zone.dispatchEvent("dragover", { dataTransfer });
  await zone.dispatchEvent("drop", { dataTransfer });
  await expect(page.getByRole("list", { name: "Uploads" }).locator('[data-state="done"]')).toHaveCount(1, {
    timeout: 30_000,
  });
  await expect(list.getByRole("listitem")).toHaveCount(before + 1);

  // Titled after its file name.
  const row = list.getByRole("listitem").last();
  await row.getByRole("button", { name: "Edit “Dropped”" }).click();
  await expect(row.getByRole("group", { name: "English" }).getByLabel("Title")).toHaveValue("Dropped");
  await row.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("“Dropped” was saved.")).toBeVisible();

  const order = async () =>
    (await database.db.selectFrom("gallery_images").select("title").orderBy("sort_order").execute()).map(
      (entry) => entry.title,
    );
  const lastBefore = (await order()).at(-2);
  await page.getByRole("button", { name: "Move “Dropped” up" }).click();
  await expect(page.getByText("Order saved.")).toBeVisible();
  await expect.poll(async () => (await order()).slice(-2)).toEqual(["Dropped", lastBefore]);

  await page.getByRole("button", { name: "Hide “Dropped”" }).click();
  await expect(page.getByText("“Dropped” is now hidden.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Publish “Dropped”" })).toBeVisible();
  const hidden = await database.db
    .selectFrom("gallery_images")
    .select(["id", "published", "image_id"])
    .where("title", "=", "Dropped")
    .executeTakeFirstOrThrow();
  expect(Boolean(hidden.published)).toBe(false);
  expect((await rawHtml(page, "/?page=2")).html).not.toContain("Dropped");

  const image = await database.db
    .selectFrom("images")
    .select(["original_key", "variants"])
    .where("id", "=", hidden.image_id)
    .executeTakeFirstOrThrow();
  const keys = [image.original_key, ...JSON.parse(image.variants).map((variant: { key: string }) => variant.key)];
  const storage = storageIn(E2E_DATA_DIR);
  for (const key of keys) expect(await storage.stat(key), key).not.toBeNull();

  await page.getByRole("button", { name: "Delete “Dropped”" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete “Dropped”?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("“Dropped” was deleted.")).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(before);
  expect(await database.db.selectFrom("gallery_images").select("id").where("id", "=", hidden.id).execute()).toEqual([]);
  for (const key of keys) expect(await storage.stat(key), key).toBeNull();
});
