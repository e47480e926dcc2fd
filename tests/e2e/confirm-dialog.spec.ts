import { openAsNewAdmin } from "./admin-site-helpers.ts";
import { collectCspViolations } from "./csp-violations.ts";
import { expect, test } from "./fixtures.ts";

// The confirmation dialogs (components/ui/confirm-dialog.tsx) under the site's Content-Security-Policy.

test("the unsaved-changes question opens without a Content-Security-Policy violation", async ({
  page,
  makeUser,
  signInAs,
}) => {
  const violations = await collectCspViolations(page);
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings");
  const logoText = page.getByRole("region", { name: "Site identity" }).getByLabel("Logo text", { exact: true });
  await logoText.fill("Half-typed logo text");

  await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Footer" }).click();
  const dialog = page.getByRole("alertdialog", { name: "You have unsaved changes" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Stay" })).toBeFocused();
  expect(violations).toEqual([]);

  // Escape is "stay", like the button.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(logoText).toHaveValue("Half-typed logo text");
  expect(violations).toEqual([]);
});

test("a delete question keeps focus inside, is cancelled from the keyboard, and gives focus back to its button", async ({
  page,
  makeUser,
  signInAs,
  makeInvite,
}) => {
  const violations = await collectCspViolations(page);
  const code = await makeInvite();
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/invites");
  const remove = page.getByRole("button", { name: `Delete: ${code}` });
  const dialog = page.getByRole("alertdialog", { name: `Delete “${code}”?` });

  await remove.click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleDescription(/.+/);
  // The harmless answer has the focus, and Tab stays within the question.
  const keep = dialog.getByRole("button", { name: "Cancel" });
  await expect(keep).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Delete" })).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(keep).toBeFocused();
  // The page behind does not scroll while it is open.
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(remove).toBeFocused();
  await expect(page.getByRole("row").filter({ hasText: code })).toHaveCount(1);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");

  // Confirmed from the keyboard, it deletes.
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Delete" }).press("Enter");
  await expect(page.getByRole("row").filter({ hasText: code })).toHaveCount(0);
  expect(violations).toEqual([]);
});
