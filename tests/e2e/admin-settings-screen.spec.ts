import { openAsNewAdmin, toast } from "./admin-site-helpers.ts";
import { collectCspViolations } from "./csp-violations.ts";
import { expect, test, waitForHydration } from "./fixtures.ts";

// Nothing here is saved: the site-wide changes are in admin-settings.spec.ts, which runs after everything else.

test.beforeEach(async ({ page, makeUser, signInAs }) => {
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings");
});

test("every group has its own section, reachable from the list at the top", async ({ page }) => {
  const groups = [
    "Site identity",
    "Home page",
    "Page titles",
    "Footer",
    "Legal pages",
    "Watermark",
    "Search and social sharing",
  ];
  const nav = page.getByRole("navigation", { name: "Settings sections" });
  for (const group of groups) {
    await expect(page.getByRole("region", { name: group })).toBeVisible();
    await expect(
      page.getByRole("region", { name: group }).getByRole("button", { name: `Save ${group}` }),
    ).toBeVisible();
  }
  await nav.getByRole("link", { name: "Legal pages" }).click();
  await expect(page).toHaveURL(/#settings-legal$/);
  // English and German side by side.
  const legal = page.getByRole("region", { name: "Legal pages" });
  await expect(legal.getByLabel("Legal notice (English)", { exact: true })).toBeVisible();
  await expect(legal.getByLabel("Legal notice (German)", { exact: true })).toBeVisible();
});

test("a Markdown text previews by the public pages' safe rules", async ({ page }) => {
  const legal = page.getByRole("region", { name: "Legal pages" });
  await legal
    .getByLabel("Legal notice (English)", { exact: true })
    .fill("## Contact\n\n**Jo Example** <b>raw</b> [mail](mailto:jo@example.com) [bad](javascript:alert(1))");
  await legal.getByRole("button", { name: "Show preview" }).first().click();

  const preview = legal.getByRole("region", { name: "Preview: Legal notice (English)" });
  await expect(preview.getByRole("heading", { level: 2, name: "Contact" })).toBeVisible();
  await expect(preview.locator("strong")).toHaveText("Jo Example");
  await expect(preview).toContainText("<b>raw</b>");
  await expect(preview.getByRole("link", { name: "mail" })).toHaveAttribute("href", "mailto:jo@example.com");
  await expect(preview.getByRole("link", { name: "bad" })).toHaveCount(0);
});

test("the share preview follows the values being edited, with the page head's fallbacks", async ({ page }) => {
  const preview = page.getByTestId("share-preview");
  const sharing = page.getByRole("region", { name: "Search and social sharing" });
  await expect(preview).toContainText("Explore the latest in technology, innovation, and design");

  await page.getByRole("region", { name: "Site identity" }).getByLabel("Site name", { exact: true }).fill("Draft name");
  await expect(preview).toContainText("Draft name");
  await sharing.getByLabel("Title for search and sharing").fill("Shared title");
  await sharing.getByLabel("Description for search and sharing").fill("Shared description");
  await expect(preview).toContainText("Shared title");
  await expect(preview).not.toContainText("Draft name");
  await expect(preview).toContainText("Shared description");
  await sharing.getByLabel("Shared address of the home page").fill("https://photos.example.org/");
  await expect(preview).toContainText("photos.example.org");
  await sharing.getByLabel("Share image address").fill("https://cdn.example.org/card.png");
  await expect(preview).toContainText("Image from another site, not loaded here");
});

test("an invalid address is refused with a message at the field, and nothing is saved", async ({ page, database }) => {
  const identity = page.getByRole("region", { name: "Site identity" });
  await identity.getByLabel("Logo text", { exact: true }).fill("Not saved");
  const logo = identity.getByLabel("Logo image address");
  await logo.fill("javascript:alert(1)");
  await identity.getByRole("button", { name: "Save Site identity" }).click();

  await expect(toast(page, "Nothing was saved: fields to correct: 1.")).toBeVisible();
  await expect(logo).toHaveAttribute("aria-invalid", "true");
  await expect(identity.getByText("Not an address that can be used")).toBeVisible();
  const row = await database.db
    .selectFrom("site_settings")
    .select("value")
    .where("key", "=", "site_logo_text")
    .executeTakeFirst();
  expect(row?.value).toBe("Vitrine");
});

test("the admin site screens break no Content-Security-Policy rule, the preview included", async ({ page }) => {
  const violations = await collectCspViolations(page);
  await page.goto("/admin/settings");
  await waitForHydration(page);
  const home = page.getByRole("region", { name: "Home page" });
  await home.getByRole("button", { name: "Show preview" }).first().click();
  await expect(home.getByRole("region", { name: "Preview: Text (English)" })).toContainText("This is the home page");
  for (const path of ["/admin/invites", "/admin/users", "/admin/audit"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  expect(violations).toEqual([]);
});
