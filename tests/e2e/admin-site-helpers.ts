import type { Browser, Page } from "@playwright/test";
import type { CreatedUser } from "#tests/support/factories.ts";
import { expect, waitForHydration } from "./fixtures.ts";

type AdminFixtures = {
  makeUser: (options: { admin: true }) => Promise<CreatedUser>;
  signInAs: (page: Page, user: CreatedUser) => Promise<void>;
};

/** Signs the page in as a new admin and opens the admin screen, ready for clicks (hydrated). */
export async function openAsNewAdmin(page: Page, { makeUser, signInAs }: AdminFixtures, path: string) {
  await signInAs(page, await makeUser({ admin: true }));
  await page.goto(path);
  await waitForHydration(page);
}

/** A toast the admin sees (sonner), by the text it contains. */
export function toast(page: Page, text: string | RegExp) {
  return page.locator("[data-sonner-toast]").filter({ hasText: text });
}

/**
 * Does `action` and expects the toast it answers with, then closes that toast. Toasts leave by themselves
 * after a few seconds, so on a slow machine counting them is a race; closing each one makes the next
 * action's toast surely its own.
 */
export async function expectToastAfter(page: Page, text: string | RegExp, action: () => Promise<void>) {
  await expect(toast(page, text)).toHaveCount(0);
  await action();
  const shown = toast(page, text);
  await expect(shown).toBeVisible();
  await shown.getByRole("button", { name: "Close toast" }).click();
  await expect(shown).toHaveCount(0);
}

/** Signs up through the real /auth form in a browser context of its own (no cookies shared with the admin). */
export async function signUpInFreshContext(
  browser: Browser,
  input: { email: string; password: string; code: string },
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/auth?mode=sign-up");
  const panel = page.getByRole("tabpanel");
  await expect(panel.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
  await panel.getByLabel("E-mail").fill(input.email);
  await panel.getByLabel("Password").fill(input.password);
  await panel.getByLabel("Invite code").fill(input.code);
  await panel.getByRole("button", { name: "Sign up" }).click();
  return { page, close: () => context.close() };
}

/** Opens a section of the settings screen from its section list (a wide screen) and returns its region. */
export async function openSettingsSection(page: Page, name: string) {
  await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name, exact: true }).click();
  const region = page.getByRole("region", { name });
  await expect(region).toBeVisible();
  return region;
}
