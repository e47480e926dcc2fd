import type { Page } from "@playwright/test";
import { publishInEveryMenuSection } from "./content-helpers.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

const DELAY_MS = 1_500;

/** Holds back matching requests, so a client-side navigation has to wait for them. */
async function slowDown(page: Page, pattern: string) {
  const seen: string[] = [];
  await page.route(pattern, async (route) => {
    seen.push(route.request().url());
    await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
    await route.continue().catch(() => {});
  });
  return seen;
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
  const seen = await slowDown(page, "**/links.data*");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Links" }).click();
  const placeholder = await expectPulsingPlaceholder(page, "Loading...");
  // The old page is gone while waiting.
  await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toHaveCount(0);

  await expect(page.getByRole("heading", { level: 1, name: "Links" })).toBeVisible({ timeout: DELAY_MS + 5_000 });
  await expect(placeholder).toHaveCount(0);
  await expect(page).toHaveURL("/links");
  expect(seen.some((url) => new URL(url).pathname === "/links.data")).toBe(true);
});

test("in German the placeholder reads 'Lädt...'", async ({ page, database }) => {
  await publishInEveryMenuSection(database.db);
  await setPreferences(page, { lang: "de" });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Galerie" })).toBeVisible();
  await waitForHydration(page);
  await slowDown(page, "**/faq.data*");

  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "FAQ" }).click();
  const placeholder = await expectPulsingPlaceholder(page, "Lädt...");
  await expect(page.getByRole("heading", { level: 1, name: "Häufige Fragen" })).toBeVisible({
    timeout: DELAY_MS + 5_000,
  });
  await expect(placeholder).toHaveCount(0);
});

test("a navigation waiting for the route's own code shows the placeholder too", async ({ page, database }) => {
  await publishInEveryMenuSection(database.db);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toBeVisible();
  await waitForHydration(page);
  // Each route's code is its own lazily loaded chunk, e.g. /assets/videos-<hash>.js.
  const seen = await slowDown(page, "**/assets/videos-*.js");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Videos" }).click();
  await expectPulsingPlaceholder(page, "Loading...");
  await expect(page.getByRole("heading", { level: 1, name: "Videos" })).toBeVisible({ timeout: DELAY_MS + 5_000 });
  expect(seen.length).toBeGreaterThan(0);
});

test("a fast navigation does not leave the placeholder behind", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Hello, and welcome" })).toBeVisible();
  await expect(page.getByText("Loading...")).toHaveCount(0);
});
