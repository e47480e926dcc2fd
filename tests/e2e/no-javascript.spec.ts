import { publishInEveryMenuSection } from "./content-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.use({ javaScriptEnabled: false });

test("the home page reads without JavaScript", async ({ page }) => {
  await page.goto("/home");
  await expect(page.getByRole("heading", { level: 1, name: "Hello, and welcome" })).toBeVisible();
  await expect(page.getByText("Pictures, notes and links from my corner of the web.")).toBeVisible();
  await expect(page.getByText("Thanks for stopping by.")).toBeVisible();
  // The home text's Markdown is rendered on the server: its links to the site's own pages work without scripts.
  await expect(page.getByRole("main").getByRole("link", { name: "links", exact: true })).toHaveAttribute(
    "href",
    "/links",
  );
  await expect(page.getByRole("contentinfo")).toContainText(`© ${new Date().getUTCFullYear()} Vitrine`);
});

test("plain links move between pages without JavaScript", async ({ page, database }) => {
  await publishInEveryMenuSection(database.db);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "FAQ" }).click();
  await expect(page).toHaveURL("/faq");
  await expect(page.getByRole("heading", { level: 1, name: "Frequently asked questions" })).toBeVisible();
  // The footer entries are plain links to the full pages.
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy" }).click();
  await expect(page).toHaveURL("/privacy");
  await expect(page.getByRole("heading", { level: 1, name: "Privacy policy" })).toBeVisible();
});

test("the theme and language switches work as plain form posts", async ({ page }) => {
  await page.goto("/home");
  await expect(page.locator("html")).toHaveClass("dark");
  await page.getByRole("button", { name: "Switch to light theme" }).click();
  await expect(page).toHaveURL("/home");
  await expect(page.locator("html")).toHaveClass("light");
  await expect(page.getByRole("heading", { level: 1, name: "Hello, and welcome" })).toBeVisible();

  await page.getByRole("button", { name: "Auf Deutsch umschalten" }).click();
  await expect(page).toHaveURL("/home");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1, name: "Hallo und willkommen" })).toBeVisible();

  await page.goto("/links");
  await expect(page.locator("html")).toHaveClass("light");
  await expect(page.getByRole("heading", { level: 1, name: "Links" })).toBeVisible();
  await expect(page.getByText("Hier finden Sie mich sonst noch im Netz.")).toBeVisible();
});

test("sign-up messages show without JavaScript", async ({ page }) => {
  await page.goto("/auth?mode=sign-up");
  const panel = page.getByRole("tabpanel");
  await expect(panel.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
  await panel.getByLabel("E-mail").fill("nojs@example.test");
  await panel.getByLabel("Password").fill("A-long-enough-passphrase");
  await panel.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("alert")).toContainText("Invite code required");
  await expect(page.getByRole("alert")).toContainText("Please enter a valid invite code to register.");
});
