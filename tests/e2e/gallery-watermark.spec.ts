import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { openDatabase } from "#app/db/database.server.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { E2E_DATA_DIR } from "./e2e-env.ts";
import { expect, openLightbox, test, waitForHydration } from "./fixtures.ts";

// The watermark settings show on every gallery picture, so this spec runs in the `site-wide` project,
// after the others and one test at a time.

const lightbox = (page: Page) => page.getByRole("dialog");

let pictureId = "";

test.beforeAll(async () => {
  const database = openDatabase({ sqliteFile: path.join(E2E_DATA_DIR, "vitrine.sqlite") });
  try {
    pictureId = await createGalleryPicture(database.db, storageIn(E2E_DATA_DIR), {
      title: "Wide harbour",
      width: 1600,
      height: 900,
      watermark: "© Vitrine",
      // First in the gallery: by the time this spec runs, the other specs have added more than a page.
      placement: "top",
    });
  } finally {
    await database.close();
  }
});

/** The widths a `<picture>` offers (every source's srcset). */
const offeredWidths = (picture: Locator) =>
  picture
    .locator("source, img")
    .evaluateAll((elements) =>
      elements.flatMap((element) =>
        [...(element.getAttribute("srcset") ?? "").matchAll(/ (\d+)w/g)].map((match) => Number(match[1])),
      ),
    );

/** Elements showing the text on screen (a name only screen readers get, one pixel wide, does not count). */
const shownTexts = (scope: Locator, text: string) =>
  scope.locator("*").evaluateAll(
    (elements, wanted) =>
      elements.filter((element) => {
        const own = [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent?.trim() === wanted);
        const box = element.getBoundingClientRect();
        return own && box.width > 2 && box.height > 2;
      }).length,
    text,
  );

test("the watermark is seen once: a badge over the clean thumbnails, the drawn text alone in the lightbox", async ({
  page,
  database,
}) => {
  const setSetting = (key: string, value: string) =>
    database.db.updateTable("site_settings").set({ value }).where("key", "=", key).execute();
  try {
    await setSetting("watermark_text", "© Vitrine");
    await setSetting("watermark_url", "https://example.com/photographer");
    for (const address of ["/", "/home"]) {
      await page.goto(address);
      const item = page
        .locator("main ul.picture-rows li")
        .filter({ has: page.getByRole("img", { name: "Wide harbour" }) });
      // The badge once, over widths whose pixels carry no text (the drawn copy starts at 1280 and at the widest).
      await expect.poll(() => shownTexts(item, "© Vitrine"), address).toBe(1);
      expect(await offeredWidths(item.locator("picture")), address).toEqual([
        320, 640, 960, 320, 640, 960, 320, 640, 960,
      ]);
      await expect
        .poll(() => item.locator("img").evaluate((image) => (image as HTMLImageElement).currentSrc))
        .toMatch(/\/(320|640|960)-[0-9a-f]{16}\.(avif|webp|jpg)$/);
    }

    await page.goto(`/?image=${pictureId}`);
    await waitForHydration(page);
    const picture = lightbox(page).locator("img");
    await expect
      .poll(() => picture.evaluate((image) => (image as HTMLImageElement).currentSrc))
      .toMatch(/\/1(280|600)-/);
    // Only the drawn text: nothing written over the picture...
    expect(await shownTexts(lightbox(page), "© Vitrine")).toBe(0);
    // ...whose corner is the link to the owner's page, over the drawn text, inside the picture.
    const link = lightbox(page).getByRole("link", { name: "© Vitrine" });
    await expect(link).toHaveAttribute("href", "https://example.com/photographer");
    const [linkBox, pictureBox] = [await link.boundingBox(), await picture.boundingBox()];
    if (!linkBox || !pictureBox) throw new Error("no boxes");
    expect(Math.abs(linkBox.x + linkBox.width - (pictureBox.x + pictureBox.width))).toBeLessThan(1.5);
    expect(Math.abs(linkBox.y + linkBox.height - (pictureBox.y + pictureBox.height))).toBeLessThan(1.5);
    expect(linkBox.width).toBeLessThan(pictureBox.width / 2);
    expect(linkBox.height).toBeLessThan(pictureBox.height / 4);
    await link.focus();
    await expect(link).toBeFocused();
  } finally {
    await setSetting("watermark_text", "");
    await setSetting("watermark_url", "");
  }
});

test("the watermark follows the settings: a link when a URL is set, gone when disabled", async ({ page, database }) => {
  const setSetting = (key: string, value: string) =>
    database.db.updateTable("site_settings").set({ value }).where("key", "=", key).execute();
  try {
    // Written out: left empty it follows the site name, which admin-settings.spec.ts (same project) changes.
    await setSetting("watermark_text", "© Vitrine");
    await setSetting("watermark_url", "https://example.com/photographer");
    await page.goto(`/?image=${pictureId}`);
    await waitForHydration(page);
    // Over the grid's pictures (as a badge), and in the lightbox (the link over the drawn text).
    await expect(page.locator("main ul.picture-rows li").first().getByText("© Vitrine")).toBeVisible();
    const link = lightbox(page).getByRole("link", { name: "© Vitrine" });
    await expect(link).toHaveAttribute("href", "https://example.com/photographer");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
    // The lightbox offers only the large variants, the ones with the watermark in their pixels.
    const offered = await lightbox(page)
      .locator("picture source, picture img")
      .evaluateAll((elements) => elements.map((element) => element.getAttribute("srcset") ?? ""));
    const widths = offered.flatMap((srcset) => [...srcset.matchAll(/ (\d+)w/g)].map((match) => Number(match[1])));
    expect(widths.length).toBeGreaterThan(0);
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(1280);

    await setSetting("watermark_enabled", "false");
    await page.goto("/");
    await expect(page.locator("main ul.picture-rows img").first()).toBeVisible();
    await expect(page.getByText("© Vitrine")).toHaveCount(0);
    await openLightbox(page);
    await expect(lightbox(page)).toBeVisible();
    await expect(lightbox(page).getByText("© Vitrine")).toHaveCount(0);
  } finally {
    await setSetting("watermark_text", "");
    await setSetting("watermark_url", "");
    await setSetting("watermark_enabled", "true");
  }
});
