import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
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
  // The pictures load lazily: a long gallery's lower rows load only once scrolled to (CI's phone run waited for
  // pixels that were never asked for). Each is brought into view, then the page goes back to the top.
  for (const image of await list.locator("img").all()) await image.scrollIntoViewIfNeeded();
  await list.page().evaluate(() => window.scrollTo(0, 0));
  await expect
    .poll(() =>
      list.locator("img").evaluateAll((images) => images.every((image) => (image as HTMLImageElement).complete)),
    )
    .toBe(true);
  return list.locator(":scope > li").evaluateAll((items) =>
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

type Shown = Awaited<ReturnType<typeof measure>>;

/** The pictures grouped into rows by their top edge, each row left to right. */
function rowsOf(shown: Shown) {
  const rows: Shown[] = [];
  for (const entry of [...shown].sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left)) {
    const row = rows.at(-1);
    if (row && Math.abs((row[0]?.box.top ?? 0) - entry.box.top) < 2) row.push(entry);
    else rows.push([entry]);
  }
  return rows;
}

/** Every row but the last spans the list from edge to edge: no row ends short, no picture stands alone in a gap. */
async function expectFullRows(list: Locator, shown: Shown) {
  const edges = await list.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return { left: box.left, right: box.right };
  });
  const rows = rowsOf(shown);
  for (const row of rows.slice(0, -1)) {
    const names = row.map((entry) => entry.alt).join(", ");
    expect(Math.abs((row[0]?.box.left ?? 0) - edges.left), `row ${names} starts at the edge`).toBeLessThan(1.5);
    expect(Math.abs((row.at(-1)?.box.right ?? 0) - edges.right), `row ${names} ends at the edge`).toBeLessThan(1.5);
  }
  return rows;
}

const setSetting = (db: AppDatabase["db"], key: string, value: string) =>
  db.updateTable("site_settings").set({ value }).where("key", "=", key).execute();

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
      // Rows fill the width; the portrait shares its row (on a phone it stood alone at half width).
      const rows = await expectFullRows(list, shown);
      expect(rows.find((row) => row.some((entry) => entry.alt === "Tall tower"))?.length).toBeGreaterThan(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
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

test.describe("on a phone (390 × 844)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("every row of the whole gallery is full, whatever the mix of shapes, and nothing sticks out sideways", async ({
    page,
  }) => {
    await page.goto("/");
    const list = page.locator("main ul.picture-rows");
    await expect(list.locator("img").first()).toBeVisible();
    const shown = await measure(list);
    expect(shown.length).toBeGreaterThanOrEqual(SHAPES.length);
    await expectFullRows(list, shown);
    // A portrait never stands alone in a row (the last row may end short, at its planned height).
    for (const row of rowsOf(shown).slice(0, -1)) {
      if (row.length === 1) expect(row[0]?.natural, `${row[0]?.alt} alone`).toBeGreaterThan(1);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});

for (const width of [1280, 390]) {
  test.describe(`thumbnails at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("the thumbnail mark is small and whole on every tile, a long text wrapping inside the picture", async ({
      page,
      database,
    }) => {
      test.setTimeout(120_000);
      const long = "© Lena Krause-Oberwiesenthal Photography";
      try {
        await setSetting(database.db, "watermark_text", long);
        for (const address of [CATEGORY_URL, "/home"]) {
          await page.goto(address);
          const list = page.locator("main ul.picture-rows").first();
          await expect(list.locator("img").first()).toBeVisible();
          const marks = await list.locator(":scope > li").evaluateAll((items) =>
            items.map((item) => {
              const mark = item.querySelector(".watermark-mark") as HTMLElement | null;
              const picture = (item.querySelector("img") as HTMLImageElement).getBoundingClientRect();
              if (!mark) return null;
              const box = mark.getBoundingClientRect();
              const shownText = [...mark.children]
                .filter((part) => getComputedStyle(part).display !== "none")
                .map((part) => part.textContent)
                .join("");
              return {
                text: shownText,
                hidden: mark.getAttribute("aria-hidden"),
                fontSize: Number.parseFloat(getComputedStyle(mark).fontSize),
                clipped: mark.scrollWidth > mark.clientWidth || mark.scrollHeight > mark.clientHeight,
                inside:
                  box.left >= picture.left &&
                  box.right <= picture.right &&
                  box.top >= picture.top &&
                  box.bottom <= picture.bottom,
              };
            }),
          );
          expect(marks.length).toBeGreaterThan(0);
          // The whole text where the tile has room for it; "©" alone on a tile too narrow (the portrait).
          expect(marks.filter((mark) => mark?.text === long).length, address).toBeGreaterThan(0);
          for (const mark of marks) {
            expect(mark, address).not.toBeNull();
            expect([long, "©"]).toContain(mark?.text);
            expect(mark?.clipped, `${address}: the mark is cut`).toBe(false);
            expect(mark?.inside, `${address}: the mark leaves its picture`).toBe(true);
            expect(mark?.fontSize).toBeLessThanOrEqual(11);
            // The same text on every tile: decoration for screen readers (the footer and the lightbox name it).
            expect(mark?.hidden).toBe("true");
          }
        }
        // Off by the setting: no mark over the thumbnails at all.
        await setSetting(database.db, "thumbnail_watermark", "false");
        for (const address of [CATEGORY_URL, "/home"]) {
          await page.goto(address);
          await expect(page.locator("main ul.picture-rows img").first()).toBeVisible();
          await expect(page.locator("main .watermark-mark")).toHaveCount(0);
          await expect(page.getByText(long)).toHaveCount(0);
        }
      } finally {
        await setSetting(database.db, "watermark_text", "");
        await setSetting(database.db, "thumbnail_watermark", "true");
      }
    });

    test("titles under the thumbnails, when the owner shows them: whole, below each picture, rows still full", async ({
      page,
      database,
    }) => {
      // Two axe runs, each up to 20 s on a loaded machine; the setting must be put back before the database closes.
      test.setTimeout(180_000);
      try {
        await page.goto(CATEGORY_URL);
        await expect(page.locator("main .picture-caption")).toHaveCount(0);
        await setSetting(database.db, "thumbnail_titles", "true");
        await page.goto(CATEGORY_URL);
        const list = page.locator("main ul.picture-rows");
        await expect(list.locator("img").first()).toBeVisible();
        await expect(list.locator(".picture-caption")).toHaveCount(await list.locator("img").count());
        for (const shape of SHAPES) {
          const item = list
            .locator(":scope > li")
            .filter({ has: page.getByRole("img", { name: shape.title }) })
            .first();
          const caption = item.locator(".picture-caption");
          await expect(caption).toHaveText(shape.title);
          const [picture, text] = await Promise.all([item.locator("img").boundingBox(), caption.boundingBox()]);
          expect(text?.y ?? 0).toBeGreaterThanOrEqual((picture?.y ?? 0) + (picture?.height ?? 0));
          expect(await caption.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
        }
        // The picture's name is its title already (no alt text): the caption is not read a second time.
        await expect(page.getByRole("link", { name: "Tall tower", exact: true }).first()).toBeVisible();
        await expectFullRows(list, await measure(list));
        for (const theme of ["light", "dark"] as const) {
          await setPreferences(page, { theme });
          await page.goto(CATEGORY_URL);
          await expect(page.locator("html")).toHaveClass(theme);
          await expect(list.locator(".picture-caption").first()).toBeVisible();
          await expectNoViolations(page, `captions at ${width} px (${theme})`);
        }
      } finally {
        await setSetting(database.db, "thumbnail_titles", "false");
      }
    });

    test("a long site name wraps in the header instead of being cut, and the menu still works", async ({
      page,
      database,
    }) => {
      const name = "Lena Krause-Oberwiesenthal — Fotografie aus Berlin, Brandenburg und der Uckermark";
      try {
        await setSetting(database.db, "site_name", name);
        await page.goto("/home");
        const header = page.getByRole("banner");
        const shown = header.locator(".site-name");
        await expect(shown).toHaveText(name);
        const box = await shown.evaluate((element) => {
          const rect = element.getBoundingClientRect();
          return {
            whole: element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight,
            right: rect.right,
            lines: Math.round(rect.height / Number.parseFloat(getComputedStyle(element).lineHeight)),
          };
        });
        expect(box.whole, "the site name is cut").toBe(true);
        expect(box.lines).toBeGreaterThan(1);
        // Beside it, not under it: the theme switch starts where the name ends.
        const toggle = await header.getByRole("button", { name: /Switch to (dark|light) theme/ }).boundingBox();
        expect(box.right).toBeLessThanOrEqual(toggle?.x ?? 0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
          0,
        );
        if (width === 390) {
          await page.getByLabel("Open menu").click();
          const nav = page.getByRole("navigation", { name: "Main" });
          await expect(nav.getByRole("link", { name: "Gallery", exact: true })).toBeInViewport();
          // The menu opens below the (taller) header, not over the name.
          const [menu, banner] = await Promise.all([nav.boundingBox(), header.boundingBox()]);
          expect(menu?.y ?? 0).toBeGreaterThanOrEqual((banner?.y ?? 0) + (banner?.height ?? 0) - 1);
          await nav.getByRole("link", { name: "Gallery", exact: true }).click();
          await expect(page).toHaveURL("/");
        }
        await expectNoViolations(page, `long site name at ${width} px`);
      } finally {
        await setSetting(database.db, "site_name", "Vitrine");
      }
    });
  });
}
