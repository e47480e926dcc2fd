import type { Page } from "@playwright/test";
import type { SettingKey } from "#app/domains/settings/settings-defaults.ts";
import { settingDefaults } from "#app/domains/settings/settings-defaults.ts";
import { openAsNewAdmin, toast } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { addInAdmin, hideInAdmin, uniqueName } from "./content-helpers.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

// Both tests change what every page shows (settings, the FAQ's published entries): this spec runs in the
// "site-wide" project, after the others and one test at a time.
test.describe.configure({ mode: "serial" });

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

/** Axe on the page in both themes at 1280 and 390 px; `prepare` brings it into the state to check after a reload. */
async function expectNoViolationsEverywhere(page: Page, label: string, prepare: () => Promise<void>) {
  for (const theme of ["light", "dark"] as const) {
    for (const viewport of VIEWPORTS) {
      await setPreferences(page, { theme });
      await page.setViewportSize(viewport);
      await page.reload();
      await expect(page.locator("html")).toHaveClass(theme);
      await prepare();
      await expectNoViolations(page, `${label} (${theme}, ${viewport.width} px)`);
    }
  }
  await page.setViewportSize(VIEWPORTS[0] as { width: number; height: number });
}

test("a new admin sees the first-run checklist, each step links to its fix, and a fixed step leaves", async ({
  page,
  database,
  makeUser,
  signInAs,
}) => {
  // Axe runs four times (two themes, two widths), each taking up to 20 s on a loaded two-core machine.
  test.setTimeout(240_000);
  const shipped: SettingKey[] = [
    "imprint_content",
    "privacy_content",
    "home_content",
    "home_content_de",
    "meta_description",
    "watermark_text",
    "watermark_enabled",
  ];
  const restore = async () => {
    for (const key of shipped) {
      await database.db
        .updateTable("site_settings")
        .set({ value: settingDefaults[key] })
        .where("key", "=", key)
        .execute();
    }
  };
  await restore();
  try {
    const admin = await makeUser({ admin: true });
    await signInAs(page, admin);
    await page.goto("/admin");
    const checklist = page.getByRole("region", { name: "Before you share your site" });
    await expect(checklist).toBeVisible();
    for (const [title, link] of [
      ["Write your legal notice", "Edit the legal notice"],
      ["Write your privacy policy", "Edit the privacy policy"],
      ["Write your home page", "Edit the home page"],
      ["Describe your site for search and sharing", "Write the description"],
      ["Choose your watermark text", "Set the watermark"],
      ["Set up outgoing mail", "How mail is sent"],
      ["Turn on two-factor sign-in", "Set up two-factor sign-in"],
    ]) {
      const item = checklist.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
      await expect(item.getByRole("link", { name: link })).toBeVisible();
    }
    await expect(checklist.getByRole("link", { name: "Set up two-factor sign-in" })).toHaveAttribute(
      "href",
      "/account/two-factor",
    );
    await expect(checklist).toContainText(admin.email);
    await expectNoViolationsEverywhere(page, "/admin with the checklist", async () => {
      await expect(checklist).toBeVisible();
    });

    // The share description's link opens the settings at that section; saving a description there ends the step.
    await waitForHydration(page);
    await checklist.getByRole("link", { name: "Write the description" }).click();
    await expect(page).toHaveURL("/admin/settings?section=sharing");
    const sharing = page.getByRole("region", { name: "Search and social sharing" });
    await sharing
      .getByLabel("Description for search and sharing (English)")
      .fill("Landscapes and cities by a new owner");
    await sharing.getByRole("button", { name: "Save Search and social sharing" }).click();
    await expect(toast(page, "Saved.")).toBeVisible();
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Dashboard" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(checklist.getByRole("heading", { name: "Write your legal notice" })).toBeVisible();
    await expect(checklist.getByRole("heading", { name: "Describe your site for search and sharing" })).toHaveCount(0);
  } finally {
    await restore();
  }
});

test("an empty FAQ leaves the main menu until its first entry is published; the setting keeps it", async ({
  page,
  browser,
  database,
  makeUser,
  signInAs,
}) => {
  test.setTimeout(240_000);
  const showEmpty = (value: "true" | "false") =>
    database.db.updateTable("site_settings").set({ value }).where("key", "=", "menu_show_empty_sections").execute();
  await showEmpty("false");
  await database.db.deleteFrom("faq_entries").execute();
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  try {
    const visitorMenu = visitor.getByRole("navigation", { name: "Main" });
    await visitor.goto("/");
    await expect(visitorMenu.getByRole("link", { name: "Home", exact: true })).toBeVisible();
    await expect(visitorMenu.getByRole("link", { name: "FAQ", exact: true })).toHaveCount(0);
    // The page still answers, with its empty state, for anyone who has the address.
    await visitor.goto("/faq");
    await expect(visitor.getByText("No questions answered yet. Check back soon.")).toBeVisible();
    // Nor does the phone's menu offer it.
    await visitor.setViewportSize({ width: 390, height: 844 });
    await visitor.goto("/");
    await visitor.getByLabel("Open menu").click();
    await expect(visitorMenu.getByRole("link", { name: "Home", exact: true })).toBeVisible();
    await expect(visitorMenu.getByRole("link", { name: "FAQ", exact: true })).toHaveCount(0);

    // The admin publishes the first question: their own menu offers the FAQ at once, without a reload.
    await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/faq");
    const adminMenu = page.getByRole("banner").getByRole("navigation", { name: "Main" }).first();
    await expect(adminMenu.getByRole("link", { name: "FAQ", exact: true })).toHaveCount(0);
    const question = uniqueName("Which lens");
    await addInAdmin(
      page,
      "Add a question",
      { "Question (English)": question, "Answer (English)": "A 35 mm." },
      question,
    );
    await expect(adminMenu.getByRole("link", { name: "FAQ", exact: true })).toBeVisible();
    // A visitor's next page has it too (the kept copy of the page went with the write), on a phone as well.
    await visitor.goto("/");
    await visitor.getByLabel("Open menu").click();
    await visitorMenu.getByRole("link", { name: "FAQ", exact: true }).click();
    await expect(visitor.getByRole("heading", { level: 1, name: "Frequently asked questions" })).toBeVisible();
    await expect(visitor.getByText(question)).toBeVisible();
    await expectNoViolationsEverywhere(visitor, "/ with the menu open", async () => {
      const width = visitor.viewportSize()?.width ?? 1280;
      if (width < 768) await visitor.getByLabel("Open menu").click();
      await expect(visitorMenu.getByRole("link", { name: "FAQ", exact: true })).toBeVisible();
    });

    // Hidden again, it leaves the menu; "Show empty sections in the menu" brings it back.
    await hideInAdmin(page, "/admin/faq", question);
    await expect(adminMenu.getByRole("link", { name: "FAQ", exact: true })).toHaveCount(0);
    await page.goto("/admin/settings?section=pages");
    await waitForHydration(page);
    const pages = page.getByRole("region", { name: "Page titles" });
    await pages.getByLabel("Show empty sections in the menu").check();
    await pages.getByRole("button", { name: "Save Page titles" }).click();
    await expect(toast(page, "Saved.")).toBeVisible();
    await expect(adminMenu.getByRole("link", { name: "FAQ", exact: true })).toBeVisible();
    await visitor.setViewportSize({ width: 1280, height: 900 });
    await visitor.goto("/");
    await expect(visitorMenu.getByRole("link", { name: "FAQ", exact: true })).toBeVisible();
  } finally {
    await showEmpty("false");
    await visitorContext.close();
  }
});
