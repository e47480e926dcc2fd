import path from "node:path";
import type { Page } from "@playwright/test";
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
    });
  } finally {
    await database.close();
  }
});

test("the watermark follows the settings: a link when a URL is set, gone when disabled", async ({ page, database }) => {
  const setSetting = (key: string, value: string) =>
    database.db.updateTable("site_settings").set({ value }).where("key", "=", key).execute();
  try {
    await setSetting("watermark_url", "https://example.com/photographer");
    await page.goto(`/?image=${pictureId}`);
    await waitForHydration(page);
    // Over the grid's pictures too, not only in the lightbox.
    await expect(page.locator("main ul.grid li").first().getByText("© Vitrine")).toBeVisible();
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
    await expect(page.locator("main ul.grid img").first()).toBeVisible();
    await expect(page.getByText("© Vitrine")).toHaveCount(0);
    await openLightbox(page);
    await expect(lightbox(page)).toBeVisible();
    await expect(lightbox(page).getByText("© Vitrine")).toHaveCount(0);
  } finally {
    await setSetting("watermark_url", "");
    await setSetting("watermark_enabled", "true");
  }
});
