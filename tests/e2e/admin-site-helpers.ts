import type { Browser, Page } from "@playwright/test";
import type { AppDatabase } from "#app/db/database.server.ts";
import type { CreatedUser } from "#tests/support/factories.ts";
import { noteCookieSecret } from "#tests/support/server-process.ts";
import { expect, waitForHydration } from "./fixtures.ts";

export type AdminFixtures = {
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
 * action's toast surely its own. `whileShown` runs before the toast is closed: clicking its close button takes
 * the focus, and whether sonner hands it back depends on when it next renders (CI once saw it not), so a check
 * of where the action left the focus belongs there.
 */
export async function expectToastAfter(
  page: Page,
  text: string | RegExp,
  action: () => Promise<void>,
  whileShown?: () => Promise<void>,
) {
  await expect(toast(page, text)).toHaveCount(0);
  await action();
  const shown = toast(page, text);
  await expect(shown).toBeVisible();
  await whileShown?.();
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

/** Runs `use` in a browser context of its own (a visitor, a stranger, another member), closed afterwards. */
export async function inContext<T>(browser: Browser, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

/** Signs `page` in through the sign-in form, as a person does (not a planted session). */
export async function signInWithForm(page: Page, user: { email: string; password: string }) {
  await page.goto("/auth");
  const panel = page.getByRole("tabpanel");
  await panel.getByLabel("E-mail").fill(user.email);
  await panel.getByLabel("Password").fill(user.password);
  await panel.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Account" })).toBeVisible();
  for (const cookie of await page.context().cookies())
    if (/session_token/.test(cookie.name)) noteCookieSecret(cookie.value);
}

/**
 * The admin on `page` sends an invite code into `group` by e-mail (without SMTP_URL the mail is filed in the
 * outbox); the person it was sent to signs up with that code in a browser of their own and signs in. Answers their
 * page, signed in; `close` ends their browser.
 */
export async function joinByMailedInvite(
  page: Page,
  browser: Browser,
  database: AppDatabase,
  person: { email: string; password: string; group: string },
): Promise<{ page: Page; close: () => Promise<void> }> {
  await page.goto("/admin/invites");
  await waitForHydration(page);
  const send = page.getByRole("region", { name: "Send a code by e-mail" });
  await send.getByLabel("E-mail address").fill(person.email);
  await send.getByRole("checkbox", { name: person.group }).check();
  await send.getByRole("button", { name: "Send by e-mail" }).click();
  const sent = () =>
    database.db.selectFrom("invite_codes").select("code").where("sent_to", "=", person.email).executeTakeFirst();
  await expect.poll(async () => (await sent())?.code).toBeTruthy();
  const code = (await sent())?.code ?? "";
  const joined = await signUpInFreshContext(browser, { email: person.email, password: person.password, code });
  await expect(joined.page.getByText("Account created successfully. Please sign in.")).toBeVisible();
  await signInWithForm(joined.page, person);
  return joined;
}
