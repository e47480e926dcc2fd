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
      await page.goto("/admin/settings");
      await waitForHydration(page);
      await expect(page.locator("html")).toHaveClass(theme);
      await expectNoViolations(page, `/admin/settings (${theme})`);

      const legal = page.getByRole("region", { name: "Legal pages" });
      await legal.getByRole("button", { name: "Show preview" }).first().click();
      await expect(legal.getByRole("region", { name: "Preview: Legal notice (English)" })).toContainText("Template");
      const identity = page.getByRole("region", { name: "Site identity" });
      await identity.getByLabel("Favicon address").fill("javascript:alert(1)");
      await identity.getByRole("button", { name: "Save Site identity" }).click();
      await expect(identity.getByText("Not an address that can be used")).toBeVisible();
      await expectNoViolations(page, `/admin/settings with preview and error (${theme})`);
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

    test("the users screen", async ({ page }) => {
      await page.goto("/admin/users");
      await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
      await expectNoViolations(page, `/admin/users (${theme})`);
    });

    test("the audit log", async ({ page }) => {
      await page.goto("/admin/audit");
      await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
      await expectNoViolations(page, `/admin/audit (${theme})`);
    });
  });
}
