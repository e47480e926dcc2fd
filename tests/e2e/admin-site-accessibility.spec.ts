import { expectNoViolations } from "./axe.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

for (const theme of ["light", "dark"] as const) {
  test.describe(`admin site screens, axe-core, ${theme} theme`, () => {
    test.beforeEach(async ({ page, makeUser, signInAs, makeInvite }) => {
      await setPreferences(page, { theme });
      await signInAs(page, await makeUser({ admin: true }));
      await makeInvite();
    });

    test("the settings screen, with a Markdown preview open and a refused field", async ({ page }) => {
      // Five axe runs over long forms.
      test.slow();
      await page.goto("/admin/settings");
      await waitForHydration(page);
      await expect(page.locator("html")).toHaveClass(theme);
      await expectNoViolations(page, `/admin/settings (${theme})`);

      const identity = page.getByRole("region", { name: "Site identity" });
      await identity.getByText("Favicon address: enter an address instead").click();
      await identity.getByLabel("Favicon address").fill("javascript:alert(1)");
      await identity.getByRole("button", { name: "Save Site identity" }).click();
      await expect(identity.getByText("Not an address that can be used")).toBeVisible();
      await expectNoViolations(page, `/admin/settings with an error (${theme})`);
      // The question before leaving with unsaved changes.
      await page
        .getByRole("navigation", { name: "Settings sections" })
        .getByRole("link", { name: "Legal pages" })
        .click();
      const dialog = page.getByRole("alertdialog", { name: "You have unsaved changes" });
      await expect(dialog).toBeVisible();
      await expectNoViolations(page, `/admin/settings unsaved-changes dialog (${theme})`);
      await dialog.getByRole("button", { name: "Discard changes" }).click();

      const legal = page.getByRole("region", { name: "Legal pages" });
      await legal.getByRole("button", { name: "Show preview" }).first().click();
      await expect(legal.getByRole("region", { name: "Preview: Legal notice (English)" })).toContainText("Template");
      await expectNoViolations(page, `/admin/settings with preview (${theme})`);
      await page.goto("/admin/settings?section=sharing");
      await expect(page.getByRole("region", { name: "Search and social sharing" })).toBeVisible();
      await expectNoViolations(page, `/admin/settings sharing (${theme})`);
    });

    test("the menu's order in the settings, after a move", async ({ page }) => {
      await page.goto("/admin/settings?section=pages");
      await waitForHydration(page);
      await expect(page.locator("html")).toHaveClass(theme);
      // Moved once: the announcement and the focus after a move included; nothing is saved.
      await page.getByRole("button", { name: "Move “Blog” up" }).click();
      await expect(page.getByText("Blog: 5 / 8")).toBeAttached();
      await expectNoViolations(page, `/admin/settings pages with the menu's order (${theme})`);
    });

    test("the settings screen on a phone", async ({ page }) => {
      test.slow();
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/admin/settings");
      await waitForHydration(page);
      await expect(page.getByRole("navigation", { name: "Settings sections" }).getByLabel("Section")).toBeVisible();
      await expectNoViolations(page, `/admin/settings at 390 px (${theme})`);
      await page.goto("/admin/settings?section=legal");
      await expect(page.getByRole("region", { name: "Legal pages" })).toBeVisible();
      await expectNoViolations(page, `/admin/settings legal at 390 px (${theme})`);
    });

    test("the invite codes screen, and its delete dialog", async ({ page }) => {
      await page.goto("/admin/invites");
      await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 1, name: "Invite codes" })).toBeVisible();
      await expectNoViolations(page, `/admin/invites (${theme})`);
      await page
        .getByRole("button", { name: /^Delete: / })
        .first()
        .click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await expectNoViolations(page, `/admin/invites delete dialog (${theme})`);
    });

    test("the users screen, and its make-admin dialog", async ({ page, makeUser }) => {
      const user = await makeUser();
      await page.goto("/admin/users");
      await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
      await expectNoViolations(page, `/admin/users (${theme})`);
      await page.getByRole("button", { name: `Make admin: ${user.email}` }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      await expectNoViolations(page, `/admin/users make-admin dialog (${theme})`);
    });

    test("the member groups screen, with a member, and its delete dialog", async ({ page, makeUser }) => {
      const user = await makeUser();
      const name = `Family ${theme} ${Math.random().toString(36).slice(2, 8)}`;
      await page.goto("/admin/groups");
      await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 1, name: "Member groups" })).toBeVisible();
      await page.getByLabel("Name", { exact: true }).fill(name);
      await page.getByRole("button", { name: "Create group" }).click();
      const card = page.getByRole("region", { name });
      await card.getByLabel(`Add an account to “${name}”`).selectOption({ label: user.email });
      await card.getByRole("button", { name: "Add" }).click();
      await expect(card.getByRole("button", { name: `Remove ${user.email} from “${name}”` })).toBeVisible();
      await expect(card).toContainText("Members: 1");
      await expectNoViolations(page, `/admin/groups (${theme})`);
      await card.getByRole("button", { name: `Delete the group “${name}”` }).click();
      await expect(page.getByRole("alertdialog")).toContainText("visible to admins only");
      await expectNoViolations(page, `/admin/groups delete dialog (${theme})`);
    });

    test("the audit log", async ({ page }) => {
      await page.goto("/admin/audit");
      await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
      await expectNoViolations(page, `/admin/audit (${theme})`);
    });
  });
}
