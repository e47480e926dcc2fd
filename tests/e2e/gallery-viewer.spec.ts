import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { openDatabase } from "#app/db/database.server.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { expectNoViolations } from "./axe.ts";
import { E2E_DATA_DIR } from "./e2e-env.ts";
import { E2E_BASE_URL, expect, rawHtml, setPreferences, test, waitForHydration, waitForQuiet } from "./fixtures.ts";

// The lightbox's zoom, share and download. The download setting shows on every picture and these pictures join
// the gallery's count, so this spec runs in the `site-wide` project, after the others and one test at a time.

const lightbox = (page: Page) => page.getByRole("dialog");
/** The picture's box inside the lightbox, which the zoom transforms. */
const zoomBox = (page: Page) => lightbox(page).locator("figure > div");

let firstId = "";
let secondId = "";

test.beforeAll(async () => {
  const database = openDatabase({ sqliteFile: path.join(E2E_DATA_DIR, "vitrine.sqlite") });
  try {
    const storage = storageIn(E2E_DATA_DIR);
    // Wider than the screen: the lightbox shows the 1280 size, the zoom the 2560 one. Both go to the top of the
    // gallery (by the time this spec runs the other specs have added more than a page); "Grüner Hafen" first.
    secondId = await createGalleryPicture(database.db, storage, {
      title: "Blaue Bucht",
      width: 2560,
      height: 1440,
      hue: 210,
      watermark: "© Vitrine",
      placement: "top",
    });
    firstId = await createGalleryPicture(database.db, storage, {
      title: "Grüner Hafen",
      width: 2560,
      height: 1440,
      hue: 120,
      watermark: "© Vitrine",
      placement: "top",
    });
  } finally {
    await database.close();
  }
});

/** The zoom's scale and translation as the picture's box carries them (1, 0, 0 when not zoomed). */
async function zoomState(page: Page) {
  const transform = await zoomBox(page).evaluate((element) => (element as HTMLElement).style.transform);
  const scale = /scale\(([\d.]+)\)/.exec(transform);
  const translate = /translate\((-?[\d.]+)px, (-?[\d.]+)px\)/.exec(transform);
  return {
    scale: scale ? Number(scale[1]) : 1,
    x: translate ? Number(translate[1]) : 0,
    y: translate ? Number(translate[2]) : 0,
  };
}

/** Opens a picture by its shared address and waits for the lightbox's controls (they load with it). */
async function openPicture(page: Page, id: string, zoomIn = "Zoom in") {
  await page.goto(`/?image=${id}`);
  await waitForHydration(page);
  await page.waitForFunction(() => document.querySelector("dialog:modal") !== null);
  await expect(lightbox(page).getByRole("button", { name: zoomIn })).toBeVisible();
}

const imageParam = (page: Page) => new URL(page.url()).searchParams.get("image");
const LARGEST = /\/2560-[0-9a-f]{16}\.(avif|webp|jpg)$/;

test("the zoom's code loads with the lightbox, not with the gallery", async ({ page }) => {
  const scripts: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push(response.text());
  });
  // A string only the zoom's module has.
  const zoomLoaded = async () => (await Promise.all(scripts)).some((body) => body.includes("prefers-reduced-motion"));
  await page.goto("/");
  await waitForQuiet(page);
  expect(await zoomLoaded()).toBe(false);
  await page.locator(`#thumb-${firstId}`).click();
  await expect(lightbox(page).getByRole("button", { name: "Zoom in" })).toBeVisible();
  await expect.poll(zoomLoaded).toBe(true);
});

test("keys zoom in and out, the largest size loads, and zoomed the arrow keys move the picture", async ({ page }) => {
  await openPicture(page, firstId);
  const picture = lightbox(page).locator("img");
  await expect.poll(() => picture.evaluate((image) => (image as HTMLImageElement).currentSrc)).toMatch(/\/1280-/);

  const largest = page.waitForRequest((request) => LARGEST.test(new URL(request.url()).pathname));
  await page.keyboard.press("+");
  expect((await zoomState(page)).scale).toBeCloseTo(1.5, 5);
  await largest;
  await expect.poll(() => picture.evaluate((image) => (image as HTMLImageElement).currentSrc)).toMatch(LARGEST);
  // Steps glide (no reduced motion asked for).
  expect(await zoomBox(page).evaluate((element) => (element as HTMLElement).style.transition)).toContain("transform");

  await page.keyboard.press("+");
  const zoomed = await zoomState(page);
  expect(zoomed.scale).toBeCloseTo(2.25, 5);
  // Zoomed, the arrow keys move the picture and stay on it.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowDown");
  const moved = await zoomState(page);
  expect(moved.x).toBeLessThan(zoomed.x);
  expect(moved.y).toBeLessThan(zoomed.y);
  expect(imageParam(page)).toBe(firstId);

  await page.keyboard.press("-");
  expect((await zoomState(page)).scale).toBeCloseTo(1.5, 5);
  await page.keyboard.press("0");
  expect(await zoomState(page)).toEqual({ scale: 1, x: 0, y: 0 });
  // Not zoomed, they go to the next picture as before.
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => imageParam(page)).toBe(secondId);
  // Each picture starts unzoomed, at the screen's size.
  expect(await zoomState(page)).toEqual({ scale: 1, x: 0, y: 0 });
});

test("with reduced motion the zoom steps do not glide", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await openPicture(page, firstId);
  await lightbox(page).getByRole("button", { name: "Zoom in" }).click();
  expect((await zoomState(page)).scale).toBeCloseTo(1.5, 5);
  expect(await zoomBox(page).evaluate((element) => (element as HTMLElement).style.transition)).toBe("none");
  await lightbox(page).getByRole("button", { name: "Zoom out" }).click();
  expect((await zoomState(page)).scale).toBe(1);
});

test("the wheel zooms around the pointer, a drag pans, a double click toggles", async ({ page }) => {
  await openPicture(page, firstId);
  const box = await zoomBox(page).boundingBox();
  if (!box) throw new Error("no picture box");
  // A point left of and above the centre: after zooming, the same spot of the picture is still under it.
  const at = { x: box.x + box.width * 0.3, y: box.y + box.height * 0.4 };
  await page.mouse.move(at.x, at.y);
  await page.mouse.wheel(0, -200);
  await expect.poll(async () => (await zoomState(page)).scale).toBeGreaterThan(1.5);
  const { scale, x, y } = await zoomState(page);
  // The layout box does not move; the point 30 %/40 % into the picture lies at box + translate + share × scale.
  // (Within a pixel or two: the browser hands the wheel's position over in whole pixels.)
  expect(Math.abs(box.x + x + box.width * 0.3 * scale - at.x)).toBeLessThan(2);
  expect(Math.abs(box.y + y + box.height * 0.4 * scale - at.y)).toBeLessThan(2);

  // A drag moves the zoomed picture and does not count as a swipe to the next one.
  await page.mouse.down();
  await page.mouse.move(at.x + 120, at.y + 60, { steps: 5 });
  await page.mouse.up();
  const dragged = await zoomState(page);
  expect(Math.abs(dragged.x - (x + 120))).toBeLessThan(2);
  expect(Math.abs(dragged.y - (y + 60))).toBeLessThan(2);
  expect(imageParam(page)).toBe(firstId);

  await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
  expect(await zoomState(page)).toEqual({ scale: 1, x: 0, y: 0 });
  await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
  // Up to the largest size shown at its own pixels (2560 wide), at most three times the fitted size.
  const doubled = (await zoomState(page)).scale;
  expect(doubled).toBeGreaterThan(2);
  expect(doubled).toBeLessThanOrEqual(Math.min(3, 2560 / box.width) + 0.001);
});

test("two fingers pinch the picture larger and smaller without moving to another picture", async ({ page }) => {
  await openPicture(page, firstId);
  const box = await zoomBox(page).boundingBox();
  if (!box) throw new Error("no picture box");
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  /** Touch pointers as a phone sends them: two fingers down, apart by `from`, then by `to`, then up. */
  const pinch = (from: number, to: number) =>
    page.locator("dialog figure").evaluate(
      (figure, { centre, from, to }) => {
        const send = (type: string, id: number, x: number) =>
          figure.dispatchEvent(
            new PointerEvent(type, {
              pointerId: id,
              pointerType: "touch",
              isPrimary: id === 1,
              clientX: x,
              clientY: centre.y,
              bubbles: true,
              cancelable: true,
            }),
          );
        send("pointerdown", 1, centre.x - from / 2);
        send("pointerdown", 2, centre.x + from / 2);
        for (let step = 1; step <= 5; step++) {
          const gap = from + ((to - from) * step) / 5;
          send("pointermove", 1, centre.x - gap / 2);
          send("pointermove", 2, centre.x + gap / 2);
        }
        send("pointerup", 1, centre.x - to / 2);
        send("pointerup", 2, centre.x + to / 2);
      },
      { centre, from, to },
    );
  await pinch(100, 200);
  expect((await zoomState(page)).scale).toBeCloseTo(2, 1);
  await pinch(200, 100);
  expect((await zoomState(page)).scale).toBe(1);
  expect(imageParam(page)).toBe(firstId);
});

test("without a share sheet the picture's link is copied, in the visitor's language, and said so", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E_BASE_URL });
  await openPicture(page, firstId);
  await lightbox(page).getByRole("button", { name: "Copy link" }).click();
  await expect(lightbox(page).getByRole("status")).toHaveText("Link copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${E2E_BASE_URL}/?image=${firstId}`);

  await setPreferences(page, { lang: "de" });
  await openPicture(page, firstId, "Vergrößern");
  await lightbox(page).getByRole("button", { name: "Link kopieren" }).click();
  await expect(lightbox(page).getByRole("status")).toHaveText("Link kopiert");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${E2E_BASE_URL}/?image=${firstId}&lang=de`);
});

test("with the browser's share sheet, Share hands it the picture's title and address", async ({ page }) => {
  await page.addInitScript(() => {
    const shared: ShareData[] = [];
    Object.assign(window, { sharedData: shared });
    Object.defineProperty(navigator, "share", {
      value: async (data: ShareData) => {
        shared.push(data);
      },
    });
  });
  await openPicture(page, firstId);
  await lightbox(page).getByRole("button", { name: "Share" }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { sharedData: ShareData[] }).sharedData))
    .toEqual([{ title: "Grüner Hafen", url: `${E2E_BASE_URL}/?image=${firstId}` }]);
  await expect(lightbox(page).getByRole("button", { name: "Copy link" })).toHaveCount(0);
});

test("downloads only when the owner allows them, and then the largest served size, never the original", async ({
  page,
  database,
}) => {
  const setDownload = (value: string) =>
    database.db.updateTable("site_settings").set({ value }).where("key", "=", "gallery_allow_download").execute();
  const download = () => lightbox(page).getByRole("link", { name: /^Download/ });
  // Off by default: no download control at all, with or without JavaScript.
  await openPicture(page, firstId);
  await expect(download()).toHaveCount(0);
  expect((await rawHtml(page, `/?image=${firstId}`)).html).not.toContain(" download=");

  try {
    await setDownload("true");
    await openPicture(page, firstId);
    const link = download();
    await expect(link).toHaveAccessibleName("Download “Grüner Hafen” (largest size, JPEG)");
    await expect(link).toHaveAttribute("download", "gruener-hafen.jpg");
    const href = (await link.getAttribute("href")) ?? "";
    // The picture's stored image (its own id) in its widest served size, as a JPEG.
    const imageId = /^\/media\/images\/([\w-]+)\/2560-[0-9a-f]{16}\.jpg$/.exec(href)?.[1] ?? "";
    expect(imageId, href).not.toBe("");
    // Without JavaScript too: the link is in the page as the server sends it.
    expect((await rawHtml(page, `/?image=${firstId}`)).html).toContain('download="gruener-hafen.jpg"');

    const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(file.suggestedFilename()).toBe("gruener-hafen.jpg");
    const saved = fs.readFileSync((await file.path()) ?? "");
    const served = Buffer.from(await (await page.request.get(href)).body());
    expect(saved.equals(served)).toBe(true);
    expect(await sharp(saved).metadata()).toMatchObject({ format: "jpeg", width: 2560, height: 1440 });
    // The private original is another file, and no address serves it without the site's own signature.
    const original = fs.readFileSync(path.join(E2E_DATA_DIR, "storage", "private", "originals", `${imageId}.jpg`));
    expect(saved.equals(original)).toBe(false);
    for (const address of [
      `/media-private/originals/${imageId}.jpg`,
      `/media/originals/${imageId}.jpg`,
      `/media/private/originals/${imageId}.jpg`,
      `/media/images/../../private/originals/${imageId}.jpg`,
      `/media/images/%2e%2e/%2e%2e/private/originals/${imageId}.jpg`,
    ]) {
      const response = await page.request.get(address, { maxRedirects: 0 });
      expect([400, 403, 404], address).toContain(response.status());
    }
  } finally {
    await setDownload("false");
  }
});

test("the lightbox with its new controls has no accessibility problems in either theme", async ({ page, database }) => {
  const setDownload = (value: string) =>
    database.db.updateTable("site_settings").set({ value }).where("key", "=", "gallery_allow_download").execute();
  try {
    await setDownload("true");
    for (const theme of ["light", "dark"] as const) {
      await setPreferences(page, { theme });
      await openPicture(page, firstId);
      await expect(lightbox(page).getByRole("link", { name: /^Download/ })).toBeVisible();
      await lightbox(page).getByRole("button", { name: "Zoom in" }).focus();
      await expectNoViolations(page, `the lightbox (${theme})`);
    }
  } finally {
    await setDownload("false");
  }
});

test.describe("the owner's setting", () => {
  // The settings form works without JavaScript; so does the download link it adds.
  test.use({ javaScriptEnabled: false });

  test("ticking the download setting offers the download in the lightbox; unticking takes it away", async ({
    page,
    makeUser,
    signInAs,
  }) => {
    await signInAs(page, await makeUser({ admin: true }));
    const section = () => page.getByRole("region", { name: "Watermark" });
    const box = () =>
      section().getByRole("checkbox", {
        name: "Visitors may download pictures (the largest size shown, with the watermark when it is on; never the original)",
      });
    const download = () => page.getByRole("dialog").getByRole("link", { name: /^Download/ });
    try {
      await page.goto("/admin/settings?section=watermark");
      await expect(box()).not.toBeChecked();
      await box().check();
      await section().getByRole("button", { name: "Save Watermark" }).click();
      await expect(page.getByText("Saved. Settings changed: 1.")).toBeVisible();
      await page.goto(`/?image=${firstId}`);
      await expect(download()).toHaveAttribute("download", "gruener-hafen.jpg");

      // In German, the setting and the link speak German.
      await setPreferences(page, { lang: "de" });
      await page.goto("/admin/settings?section=watermark");
      await expect(
        page.getByRole("checkbox", {
          name: "Besucher dürfen Bilder herunterladen (die größte gezeigte Größe, mit Wasserzeichen, wenn es an ist; nie das Original)",
        }),
      ).toBeChecked();
      await page.goto(`/?image=${firstId}`);
      await expect(
        page.getByRole("dialog").getByRole("link", { name: "Herunterladen: „Grüner Hafen“ (größte Größe, JPEG)" }),
      ).toHaveText("Herunterladen");
      await setPreferences(page, { lang: "en" });

      await page.goto("/admin/settings?section=watermark");
      await box().uncheck();
      await section().getByRole("button", { name: "Save Watermark" }).click();
      await expect(page.getByText("Saved. Settings changed: 1.")).toBeVisible();
      await page.goto(`/?image=${firstId}`);
      await expect(page.getByRole("dialog")).toBeVisible();
      await expect(download()).toHaveCount(0);
    } finally {
      await page.context().clearCookies();
    }
  });
});
