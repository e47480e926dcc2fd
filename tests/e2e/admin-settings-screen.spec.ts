import { openAsNewAdmin, openSettingsSection, toast } from "./admin-site-helpers.ts";
import { collectCspViolations } from "./csp-violations.ts";
import { E2E_BASE_URL } from "./e2e-env.ts";
import { expect, test, waitForHydration, waitForQuiet } from "./fixtures.ts";

// Nothing here is saved: the site-wide changes are in admin-settings.spec.ts, which runs after everything else.

test.beforeEach(async ({ page, makeUser, signInAs }) => {
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings");
});

test("every group is a section of its own, one at a time, chosen from the list beside it", async ({ page }) => {
  const groups = [
    "Site identity",
    "Home page",
    "Page titles",
    "Footer",
    "Legal pages",
    "Watermark",
    "Search and social sharing",
    "Contact form",
    "Statistics",
    "Security",
  ];
  const nav = page.getByRole("navigation", { name: "Settings sections" });
  await expect(nav.getByRole("link")).toHaveText(groups);
  // The first section opens by itself; the others are not on the page until chosen.
  await expect(nav.getByRole("link", { name: "Site identity" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("region", { name: "Footer" })).toHaveCount(0);
  for (const group of groups) {
    const region = await openSettingsSection(page, group);
    await expect(region.getByRole("button", { name: `Save ${group}` })).toBeVisible();
    await expect(nav.getByRole("link", { name: group })).toHaveAttribute("aria-current", "page");
    await expect(page.locator("section[id^='settings-']")).toHaveCount(1);
  }
  await openSettingsSection(page, "Legal pages");
  await expect(page).toHaveURL(/\/admin\/settings\?section=legal$/);
  // English and German side by side.
  const legal = page.getByRole("region", { name: "Legal pages" });
  await expect(legal.getByLabel("Legal notice (English)", { exact: true })).toBeVisible();
  await expect(legal.getByLabel("Legal notice (German)", { exact: true })).toBeVisible();
  // The list stays in view beside a long section.
  await page.mouse.wheel(0, 1500);
  await expect(nav.getByRole("link", { name: "Legal pages" })).toBeInViewport();
});

test("the section list works from the keyboard", async ({ page }) => {
  const nav = page.getByRole("navigation", { name: "Settings sections" });
  await nav.getByRole("link", { name: "Site identity" }).focus();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(nav.getByRole("link", { name: "Page titles" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("region", { name: "Page titles" })).toBeVisible();
  await expect(page).toHaveURL(/\?section=pages$/);
});

test("an old link to a section's anchor opens that section", async ({ page }) => {
  await page.goto("/admin/settings#settings-watermark");
  await expect(page.getByRole("region", { name: "Watermark" })).toBeVisible();
  await expect(page).toHaveURL(/\?section=watermark$/);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the sections are a select, by pointer and by keyboard", async ({ page }) => {
    const nav = page.getByRole("navigation", { name: "Settings sections" });
    await expect(nav.getByRole("link", { name: "Footer" })).toBeHidden();
    const select = nav.getByLabel("Section");
    await select.selectOption({ label: "Footer" });
    await expect(page.getByRole("region", { name: "Footer" })).toBeVisible();
    await expect(page).toHaveURL(/\?section=footer$/);
    await select.focus();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("region", { name: "Legal pages" })).toBeVisible();
    await expect(select).toHaveValue("legal");
  });
});

test("leaving a section with unsaved changes asks first: stay keeps the text, discard leaves", async ({ page }) => {
  const identity = page.getByRole("region", { name: "Site identity" });
  const logoText = identity.getByLabel("Logo text", { exact: true });
  await logoText.fill("Half-typed logo text");
  const dialog = page.getByRole("alertdialog", { name: "You have unsaved changes" });

  // Another admin screen: asked, and staying keeps the page and the text.
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Invite codes" }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Stay" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(logoText).toHaveValue("Half-typed logo text");

  // Another section: asked too.
  await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Footer" }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Stay" }).click();
  await expect(logoText).toHaveValue("Half-typed logo text");

  // Discarding leaves, and the edit is gone when the admin comes back.
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Invite codes" }).click();
  await dialog.getByRole("button", { name: "Discard changes" }).click();
  await expect(page).toHaveURL(/\/admin\/invites$/);
  await page.goBack();
  await expect(
    page.getByRole("region", { name: "Site identity" }).getByLabel("Logo text", { exact: true }),
  ).toHaveValue("");

  // Nothing edited: no question.
  await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Footer" }).click();
  await expect(page.getByRole("region", { name: "Footer" })).toBeVisible();
  await expect(dialog).toHaveCount(0);
});

test("closing the tab with unsaved changes asks the browser's question", async ({ page }) => {
  await page.getByRole("region", { name: "Site identity" }).getByLabel("Logo text", { exact: true }).fill("Unsaved");
  const questions: string[] = [];
  page.on("dialog", (dialog) => {
    questions.push(dialog.type());
    void dialog.accept();
  });
  const closed = page.waitForEvent("close");
  await page.close({ runBeforeUnload: true });
  await closed;
  expect(questions).toEqual(["beforeunload"]);
});

test("closing the tab with nothing edited asks nothing", async ({ page }) => {
  const questions: string[] = [];
  page.on("dialog", (dialog) => {
    questions.push(dialog.type());
    void dialog.accept();
  });
  const closed = page.waitForEvent("close");
  await page.close({ runBeforeUnload: true });
  await closed;
  expect(questions).toEqual([]);
});

test("a Markdown field's label has the font of every other label; only its text area is monospaced", async ({
  page,
}) => {
  const legal = await openSettingsSection(page, "Legal pages");
  const fontOf = (text: string) =>
    legal
      .locator("label")
      .filter({ hasText: new RegExp(`^${text}$`) })
      .evaluate((label) => getComputedStyle(label).fontFamily);
  const markdownLabel = await fontOf("Legal notice \\(English\\)");
  const plainLabel = await fontOf("Legal notice title \\(English\\)");
  expect(markdownLabel).toBe(plainLabel);
  expect(markdownLabel).not.toMatch(/mono/i);
  const area = legal.getByLabel("Legal notice (English)", { exact: true });
  expect(await area.evaluate((element) => getComputedStyle(element).fontFamily)).toMatch(/mono/i);
});

test("a Markdown text previews by the public pages' safe rules", async ({ page }) => {
  const legal = await openSettingsSection(page, "Legal pages");
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
  const identity = page.getByRole("region", { name: "Site identity" });
  const siteName = await identity.getByLabel("Site name", { exact: true }).inputValue();
  // The brand texts left empty follow the name as it is typed: their placeholders say so.
  await identity.getByLabel("Site name", { exact: true }).fill("Draft name");
  await expect(identity.getByLabel("Logo text", { exact: true })).toHaveAttribute("placeholder", "Draft name");
  await identity.getByLabel("Site name", { exact: true }).fill(siteName);

  const footer = await openSettingsSection(page, "Footer");
  const year = new Date().getUTCFullYear();
  await expect(footer.getByLabel("Copyright line (English)")).toHaveAttribute("placeholder", `© ${year} ${siteName}`);
  await expect(footer.getByLabel("Footer name (German)")).toHaveAttribute("placeholder", siteName);
  const watermark = await openSettingsSection(page, "Watermark");
  await expect(watermark.getByLabel("Watermark text")).toHaveAttribute("placeholder", `© ${siteName}`);

  const sharing = await openSettingsSection(page, "Search and social sharing");
  const preview = page.getByTestId("share-preview");
  // Without a description of the owner's, the card shows the footer's description of the site.
  await expect(preview).toContainText("A personal site with a gallery, links, questions and videos.");
  await sharing.getByLabel("Title for search and sharing").fill("Shared title");
  await sharing.getByLabel("Description for search and sharing (English)").fill("Shared description");
  await expect(preview).toContainText("Shared title");
  await expect(preview).toContainText("Shared description");
  // The card names the home page's one address, on BASE_URL, as its canonical link and og:url do; the form shows
  // that address read-only where the retired "shared address" field was.
  await expect(preview).toContainText(new URL(E2E_BASE_URL).host);
  const address = sharing.getByLabel("Address search engines and share cards use");
  await expect(address).toHaveValue(`${E2E_BASE_URL}/`);
  await expect(address).toHaveAttribute("readonly", "");
  await expect(sharing.getByLabel("Shared address of the home page")).toHaveCount(0);
  await sharing.getByText("Share image address: enter an address instead").click();
  await sharing.getByLabel("Share image address").fill("https://cdn.example.org/card.png");
  await expect(preview).toContainText("Image from another site, not loaded here");
});

test("an invalid address is refused with a message at the field, and nothing is saved", async ({ page, database }) => {
  const identity = page.getByRole("region", { name: "Site identity" });
  await identity.getByLabel("Logo text", { exact: true }).fill("Not saved");
  // The image is shown as a thumbnail; its address is folded away for the rare hand-made case.
  const logo = identity.getByLabel("Logo image address");
  await expect(logo).toBeHidden();
  await identity.getByText("Logo image address: enter an address instead").click();
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
  // Still as shipped: empty, following the site name.
  expect(row?.value).toBe("");
});

test("the admin site screens break no Content-Security-Policy rule, the preview included", async ({ page }) => {
  const violations = await collectCspViolations(page);
  await page.goto("/admin/settings");
  await waitForHydration(page);
  const home = await openSettingsSection(page, "Home page");
  await home.getByRole("button", { name: "Show preview" }).first().click();
  await expect(home.getByRole("region", { name: "Preview: Text (English)" })).toContainText("Thanks for stopping by.");
  for (const path of ["/admin/invites", "/admin/users", "/admin/audit"]) {
    await page.goto(path);
    await waitForQuiet(page);
  }
  expect(violations).toEqual([]);
});
