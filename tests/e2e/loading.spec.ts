import type { Page } from "@playwright/test";
import { publishInEveryMenuSection } from "./content-helpers.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

/** The longest a held request waits for its release (a test that fails before releasing must not hang). */
const HOLD_MAX_MS = 15_000;

/**
 * Holds back matching requests until `release()`, so a client-side navigation waits for them as long as the test
 * looks at the placeholder: a fixed delay ran out on a loaded machine before the checks were done.
 */
async function holdBack(page: Page, pattern: string) {
  const seen: string[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(pattern, async (route) => {
    seen.push(route.request().url());
    await Promise.race([released, new Promise((resolve) => setTimeout(resolve, HOLD_MAX_MS))]);
    await route.continue().catch(() => {});
  });
  return { seen, release };
}

async function expectPulsingPlaceholder(page: Page, text: string) {
  const placeholder = page.getByRole("status").filter({ hasText: text });
  await expect(placeholder).toBeVisible();
  await expect(placeholder).toHaveText(text);
  await expect(placeholder).toHaveCSS("animation-name", "pulse");
  return placeholder;
}

test("a navigation waiting for slow data shows the pulsing 'Loading...' placeholder, then the page", async ({
  page,
  database,
}) => {
  await publishInEveryMenuSection(database.db);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toBeVisible();
  await waitForHydration(page);
  // React Router's single-fetch data request for /links is GET /links.data.
  const held = await holdBack(page, "**/links.data*");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Links" }).click();
  const placeholder = await expectPulsingPlaceholder(page, "Loading...");
  // The old page is gone while waiting.
  await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toHaveCount(0);
  held.release();

  await expect(page.getByRole("heading", { level: 1, name: "Links" })).toBeVisible();
  await expect(placeholder).toHaveCount(0);
  await expect(page).toHaveURL("/links");
  expect(held.seen.some((url) => new URL(url).pathname === "/links.data")).toBe(true);
});

test("in German the placeholder reads 'Lädt...'", async ({ page, database }) => {
  await publishInEveryMenuSection(database.db);
  await setPreferences(page, { lang: "de" });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Galerie" })).toBeVisible();
  await waitForHydration(page);
  const held = await holdBack(page, "**/faq.data*");

  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "FAQ" }).click();
  const placeholder = await expectPulsingPlaceholder(page, "Lädt...");
  held.release();
  await expect(page.getByRole("heading", { level: 1, name: "Häufige Fragen" })).toBeVisible();
  await expect(placeholder).toHaveCount(0);
});

test("a navigation waiting for the route's own code shows the placeholder too", async ({ page, database }) => {
  await publishInEveryMenuSection(database.db);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toBeVisible();
  await waitForHydration(page);
  // Each route's code is its own lazily loaded chunk, e.g. /assets/videos-<hash>.js.
  const held = await holdBack(page, "**/assets/videos-*.js");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Videos" }).click();
  await expectPulsingPlaceholder(page, "Loading...");
  held.release();
  await expect(page.getByRole("heading", { level: 1, name: "Videos" })).toBeVisible();
  expect(held.seen.length).toBeGreaterThan(0);
});

test("a fast navigation does not leave the placeholder behind", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Hello, and welcome" })).toBeVisible();
  await expect(page.getByText("Loading...")).toHaveCount(0);
});
