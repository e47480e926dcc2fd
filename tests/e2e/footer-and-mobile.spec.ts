import { publishInEveryMenuSection } from "./content-helpers.ts";
import { expect, test, waitForHydration } from "./fixtures.ts";

test.describe("footer", () => {
  test("shows the footer settings", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByText("Vitrine", { exact: true })).toBeVisible();
    await expect(footer.getByText("A personal site with a gallery, links, questions and videos.")).toBeVisible();
    await expect(footer.getByText(`© ${new Date().getUTCFullYear()} Vitrine`)).toBeVisible();
  });

  test("the imprint entry opens a dialog with its text and a link to the full page; Escape closes it", async ({
    page,
  }) => {
    await page.goto("/videos");
    await page.getByRole("contentinfo").getByRole("link", { name: "Legal notice" }).click();
    const dialog = page.getByRole("dialog", { name: "Legal notice" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading", { name: "Legal notice" })).toBeVisible();
    await expect(dialog.getByText("Responsible for this site:")).toBeVisible();
    await expect(dialog.getByText("add your name and postal address here.")).toBeVisible();
    await expect(page).toHaveURL("/videos");

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Videos" })).toBeVisible();

    // Open again and follow the link to the full page.
    await page.getByRole("contentinfo").getByRole("link", { name: "Legal notice" }).click();
    await expect(dialog).toBeVisible();
    const fullPage = dialog.getByRole("link", { name: "Read the full page" });
    await expect(fullPage).toHaveAttribute("href", "/legal-notice");
    await fullPage.click();
    await expect(page).toHaveURL("/legal-notice");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Legal notice" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Template: fill this in" })).toBeVisible();
  });

  test("the privacy entry opens a dialog; its close button closes it", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy" }).click();
    const dialog = page.getByRole("dialog", { name: "Privacy" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("This site sets only the cookies it needs")).toBeVisible();
    await expect(dialog.getByRole("link", { name: "Read the full page" })).toHaveAttribute("href", "/privacy");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy" }).click();
    await dialog.getByRole("link", { name: "Read the full page" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Privacy policy" })).toBeVisible();
  });

  test("the dialog is German in German", async ({ page }) => {
    await page.goto("/?lang=de");
    await waitForHydration(page);
    await page.getByRole("contentinfo").getByRole("link", { name: "Datenschutz" }).click();
    const dialog = page.getByRole("dialog", { name: "Datenschutz" });
    await expect(dialog.getByText("Diese Website setzt nur die nötigen Cookies")).toBeVisible();
    await dialog.getByRole("link", { name: "Ganze Seite lesen" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Datenschutzerklärung" })).toBeVisible();
  });
});

test.describe("mobile", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the menu button opens the navigation, and its links work", async ({ page, database }) => {
    await publishInEveryMenuSection(database.db);
    await page.goto("/");
    const menuButton = page.getByLabel("Open menu");
    await expect(menuButton).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Main" });
    // Closed: no navigation links are shown.
    await expect(nav.getByRole("link", { name: "FAQ" })).toBeHidden();

    await menuButton.click();
    for (const name of ["Gallery", "Home", "Links", "FAQ", "Videos"]) {
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole("link", { name: "Sign in" })).toBeVisible();

    await nav.getByRole("link", { name: "FAQ" }).click();
    await expect(page).toHaveURL("/faq");
    await expect(page.getByRole("heading", { level: 1, name: "Frequently asked questions" })).toBeVisible();
    // The menu closes after navigating.
    await expect(nav.getByRole("link", { name: "Links" })).toBeHidden();

    await menuButton.click();
    await nav.getByRole("link", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
  });

  test("a menu opened before the page's JavaScript has run stays open when it does", async ({ page, database }) => {
    await publishInEveryMenuSection(database.db);
    // The page's scripts wait until the menu is open: a phone on a slow line taps it before they have run.
    let release = () => {};
    const scriptsMayRun = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await scriptsMayRun;
      await route.continue();
    });
    await page.goto("/faq", { waitUntil: "commit" });
    await page.getByLabel("Open menu").click();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Links" })).toBeVisible();

    release();
    await waitForHydration(page);
    await expect(nav.getByRole("link", { name: "Links" })).toBeVisible();
    // It still closes after a navigation.
    await nav.getByRole("link", { name: "Links" }).click();
    await expect(page).toHaveURL("/links");
    await expect(nav.getByRole("link", { name: "FAQ" })).toBeHidden();
  });

  test("the toggles stay reachable on a narrow screen", async ({ page }) => {
    await page.goto("/home");
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await expect(page.locator("html")).toHaveClass("light");
    await page.getByRole("button", { name: "Auf Deutsch umschalten" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Hallo und willkommen" })).toBeVisible();
    // Nothing sticks out sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
