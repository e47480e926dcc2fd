import { clientNavigate, expect, PUBLIC_PAGES, test } from "./fixtures.ts";

test.describe("every route renders", () => {
  for (const { path, heading } of PUBLIC_PAGES.filter((p) => p.path !== "/no-such-page")) {
    test(`${path} answers 200 with its heading`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      // Header and footer frame every page.
      await expect(page.getByRole("link", { name: "Vitrine, home" })).toBeVisible();
      await expect(page.getByRole("contentinfo")).toContainText(`© ${new Date().getUTCFullYear()} Vitrine`);
    });
  }

  test("the page subtitles come from the settings defaults", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByText("A selection of recent pictures.")).toBeVisible();
    await page.goto("/home");
    await expect(page.getByText("Pictures, notes and links from my corner of the web.")).toBeVisible();
    await expect(page.getByRole("main").getByText("Thanks for stopping by.")).toBeVisible();
    await page.goto("/links");
    await expect(page.getByText("Find me elsewhere on the web.")).toBeVisible();
    await page.goto("/faq");
    await expect(page.getByText("Answers to what people ask most.")).toBeVisible();
    await page.goto("/videos");
    await expect(page.getByText("Moving pictures, watched when you choose.")).toBeVisible();
    await page.goto("/legal-notice");
    await expect(page.getByRole("heading", { level: 2, name: "Template: fill this in" })).toBeVisible();
  });

  test("/admin sends a visitor to the sign-in page", async ({ page }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin$/);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
  });

  test("an unknown path answers 404 with the not-found page", async ({ page }) => {
    const response = await page.goto("/this/page/does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.getByText("There is nothing at this address.")).toBeVisible();
    await page.getByRole("link", { name: "Back to the start page" }).click();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toBeVisible();
  });

  test("an unknown path reached by client-side navigation also shows the not-found page", async ({ page }) => {
    await page.goto("/");
    await clientNavigate(page, "/missing-page");
    await expect(page).toHaveURL("/missing-page");
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  });
});

test.describe("friendly empty states", () => {
  const emptyStates = [{ path: "/", text: "No pictures yet. Once the owner publishes some, they appear here." }];
  for (const { path, text } of emptyStates) {
    test(`${path} says it has nothing yet`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("main").getByText(text)).toBeVisible();
    });
  }

  test("the empty states are German in German", async ({ page }) => {
    await page.goto("/?lang=de");
    await expect(page.getByText("Noch keine Bilder.", { exact: false })).toBeVisible();
  });

  // Here, on the site nothing has been added to yet (this spec runs before the others fill these tables).
  test("with nothing added, the links, FAQ and video pages say so, in English and German", async ({ page }) => {
    const emptyStates = [
      { path: "/links", en: "No links yet. Check back soon.", de: "Noch keine Links. Schauen Sie bald wieder vorbei." },
      {
        path: "/faq",
        en: "No questions answered yet. Check back soon.",
        de: "Noch keine Fragen beantwortet. Schauen Sie bald wieder vorbei.",
      },
      {
        path: "/videos",
        en: "No videos yet. Check back soon.",
        de: "Noch keine Videos. Schauen Sie bald wieder vorbei.",
      },
    ];
    for (const { path, en, de } of emptyStates) {
      await page.goto(path);
      await expect(page.getByRole("main").getByText(en)).toBeVisible();
      await page.goto(`${path}?lang=de`);
      await expect(page.getByRole("main").getByText(de)).toBeVisible();
      await page.goto(`${path}?lang=en`);
    }
  });
});

test("header navigation moves between the pages on the client", async ({ page, database }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  // On a site without links, questions or videos, the menu offers only the gallery and the home page.
  await expect(nav.getByRole("link", { name: "Home", exact: true })).toBeVisible();
  for (const name of ["Links", "FAQ", "Videos"])
    await expect(nav.getByRole("link", { name, exact: true })).toHaveCount(0);

  // With "Show empty sections in the menu" on, it offers all five, and each is reached on the client.
  const showEmpty = (value: "true" | "false") =>
    database.db.updateTable("site_settings").set({ value }).where("key", "=", "menu_show_empty_sections").execute();
  await showEmpty("true");
  try {
    await page.reload();
    for (const { name, heading } of [
      { name: "Home", heading: "Hello, and welcome" },
      { name: "Links", heading: "Links" },
      { name: "FAQ", heading: "Frequently asked questions" },
      { name: "Videos", heading: "Videos" },
      { name: "Gallery", heading: "Gallery" },
    ]) {
      await nav.getByRole("link", { name, exact: true }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
    }
  } finally {
    await showEmpty("false");
  }
});
