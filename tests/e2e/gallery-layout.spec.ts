import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { openDatabase } from "#app/db/database.server.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { expectNoViolations } from "./axe.ts";
import { E2E_DATA_DIR } from "./e2e-env.ts";
import { expect, setPreferences, test } from "./fixtures.ts";

// Pictures of three shapes in a category of their own; they are the newest, so the home page shows them too.
// In the `site-wide` project: a new category and new pictures would change what the other gallery specs count.

const SHAPES = [
  { title: "Tall tower", width: 800, height: 1200 },
  { title: "Long coast", width: 2400, height: 600 },
  { title: "Wide field", width: 1500, height: 1000 },
  { title: "Square yard", width: 1000, height: 1000 },
];
const CATEGORY_URL = "/?category=Shapes";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const database = openDatabase({ sqliteFile: path.join(E2E_DATA_DIR, "vitrine.sqlite") });
  try {
    for (const [index, shape] of SHAPES.entries()) {
      await createGalleryPicture(database.db, storageIn(E2E_DATA_DIR), {
        ...shape,
        category: "Shapes",
        category_de: "Formen",
        hue: index * 70,
        watermark: "© Vitrine",
      });
    }
  } finally {
    await database.close();
  }
});

/** Every picture of the list: its rendered box, its list item's box and its natural size, once its pixels are in. */
async function measure(list: Locator) {
  await expect
    .poll(() =>
      list.locator("img").evaluateAll((images) => images.every((image) => (image as HTMLImageElement).complete)),
    )
    .toBe(true);
  return list.locator("li").evaluateAll((items) =>
    items.map((item) => {
      const image = item.querySelector("img") as HTMLImageElement;
      const box = image.getBoundingClientRect();
      const itemBox = item.getBoundingClientRect();
      return {
        alt: image.alt,
        natural: image.naturalWidth / image.naturalHeight,
        shown: box.width / box.height,
        box: { left: box.left, top: box.top, right: box.right, bottom: box.bottom, height: box.height },
        item: { left: itemBox.left, top: itemBox.top, right: itemBox.right, bottom: itemBox.bottom },
        fit: getComputedStyle(image).objectFit,
      };
    }),
  );
}

/** Each picture whole: the box it is drawn in has its own shape, and its list item (which clips) cuts nothing. */
async function expectWhole(page: Page, list: Locator, titles: string[]) {
  const viewport = page.viewportSize()?.width ?? 0;
  const shown = await measure(list);
  for (const title of titles) {
    const picture = shown.find((entry) => entry.alt === title);
    expect(picture, title).toBeDefined();
    if (!picture) continue;
    expect(
      Math.abs(picture.shown / picture.natural - 1),
      `${title}: shown ${picture.shown}, natural ${picture.natural}`,
    ).toBeLessThan(0.01);
    expect(picture.fit, title).toBe("fill");
    for (const side of ["left", "top", "right", "bottom"] as const) {
      expect(Math.abs(picture.box[side] - picture.item[side]), `${title}: ${side} edge`).toBeLessThan(1.5);
    }
    expect(picture.box.right, `${title} fits the screen`).toBeLessThanOrEqual(viewport);
    expect(picture.box.left).toBeGreaterThanOrEqual(0);
  }
  // A row is one height: pictures side by side share their top and bottom.
  for (const a of shown) {
    for (const b of shown) {
      if (Math.abs(a.box.top - b.box.top) < 2)
        expect(Math.abs(a.box.bottom - b.box.bottom), `${a.alt} / ${b.alt}`).toBeLessThan(2);
    }
  }
  return shown;
}

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("the gallery shows portraits and panoramas whole, in justified rows, and tabs through them in visual order", async ({
      page,
    }) => {
      // Every layout shift is recorded from the first paint on.
      await page.addInitScript(() => {
        const shifts: number[] = [];
        (window as unknown as { shifts: number[] }).shifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
        }).observe({ type: "layout-shift", buffered: true });
      });
      await page.goto(CATEGORY_URL);
      const list = page.locator("main ul.picture-rows");
      await expect(list.locator("img")).toHaveCount(SHAPES.length);
      const shown = await expectWhole(page, list, ["Tall tower", "Long coast", "Wide field", "Square yard"]);
      // Not all on one line, and not one per line either on the wide screen: rows of several.
      if (width === 1280)
        expect(new Set(shown.map((entry) => Math.round(entry.box.top))).size).toBeLessThan(SHAPES.length);
      // Nothing moved as the pixels arrived: the sizes were known from the page.
      const shifted = await page.evaluate(() =>
        (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0),
      );
      expect(shifted).toBeLessThan(0.01);

      // The visual order (rows top to bottom, each left to right) is the DOM order and the Tab order.
      const visual = [...shown]
        .sort((a, b) => (Math.abs(a.box.top - b.box.top) < 2 ? a.box.left - b.box.left : a.box.top - b.box.top))
        .map((entry) => entry.alt);
      expect(shown.map((entry) => entry.alt)).toEqual(visual);
      await page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Shapes" }).focus();
      const reached: string[] = [];
      for (let step = 0; step < SHAPES.length; step++) {
        await page.keyboard.press("Tab");
        reached.push(await page.evaluate(() => document.activeElement?.querySelector("img")?.alt ?? ""));
      }
      expect(reached).toEqual(visual);
    });

    test("the home page's latest pictures use the same rows: each whole", async ({ page }) => {
      await page.goto("/home");
      const list = page.getByRole("region", { name: "Latest pictures" }).locator("ul.picture-rows");
      await expect(list.locator("img").first()).toBeVisible();
      await expectWhole(page, list, ["Tall tower", "Long coast", "Wide field", "Square yard"]);
    });

    for (const theme of ["light", "dark"] as const) {
      test(`axe finds nothing on the gallery and the home page with these pictures (${theme})`, async ({ page }) => {
        test.setTimeout(180_000);
        await setPreferences(page, { theme });
        for (const address of ["/", CATEGORY_URL, "/home"]) {
          await page.goto(address);
          await expect(page.locator("html")).toHaveClass(theme);
          await expect(page.locator("main ul.picture-rows img").first()).toBeVisible();
          await expectNoViolations(page, `${address} at ${width} px (${theme})`);
        }
      });
    }
  });
}
