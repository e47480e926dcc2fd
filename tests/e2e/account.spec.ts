import type { Browser, Page } from "@playwright/test";
import { unsubscribeSecretOf, unsubscribeTokenFor } from "#app/domains/subscriptions/unsubscribe-token.server.ts";
import type { CreatedUser } from "#tests/support/factories.ts";
import { strongPassword } from "#tests/support/factories.ts";
import { noteCookieSecret } from "#tests/support/server-process.ts";
import { toast } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { E2E_SECRET } from "./e2e-env.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

/** Signs in through the real form, so that the session records this browser and its address. */
async function signInWithForm(page: Page, user: { email: string; password: string }) {
  await page.goto("/auth?redirectTo=%2Faccount");
  const panel = page.getByRole("tabpanel");
  await panel.getByLabel("E-mail").fill(user.email);
  await panel.getByLabel("Password").fill(user.password);
  await panel.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  for (const cookie of await page.context().cookies())
    if (/session_token/.test(cookie.name)) noteCookieSecret(cookie.value);
}

async function newSignedInPage(browser: Browser, user: CreatedUser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithForm(page, user);
  return { page, close: () => context.close() };
}

async function isSignedIn(page: Page): Promise<boolean> {
  await page.goto("/account");
  return !/\/auth\?/.test(page.url());
}

test("the header links every signed-in user to their account, by keyboard too; visitors see no such link", async ({
  page,
  makeUser,
  signInAs,
}) => {
  await page.goto("/links");
  await expect(page.getByRole("banner").getByRole("link", { name: "Account" })).toHaveCount(0);

  await signInAs(page, await makeUser());
  await page.goto("/links");
  await waitForHydration(page);
  const link = page.getByRole("banner").getByRole("link", { name: "Account" });
  await link.focus();
  await expect(link).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL("/account");
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();

  await setPreferences(page, { lang: "de" });
  await page.goto("/links");
  await expect(page.getByRole("banner").getByRole("link", { name: "Konto" })).toBeVisible();
});

test("changing the password needs the current one; the other browser is signed out, this one is not", async ({
  page,
  browser,
  makeUser,
}) => {
  test.slow();
  const user = await makeUser();
  await signInWithForm(page, user);
  const other = await newSignedInPage(browser, user);
  await waitForHydration(page);

  const section = page.getByRole("region", { name: "Change password" });
  const newPassword = strongPassword();
  await section.getByLabel("Current password").fill("not-my-password-1");
  await section.getByLabel("New password").fill(newPassword);
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByText("That is not your current password.")).toBeVisible();
  await expect(section.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
  await expect(toast(page, "That is not your current password.")).toBeVisible();
  expect(await isSignedIn(other.page)).toBe(true);

  await page.goto("/account");
  await waitForHydration(page);
  await section.getByLabel("Current password").fill(user.password);
  await section.getByLabel("New password").fill(newPassword);
  await section.getByRole("button", { name: "Change password" }).click();
  // Two password hashes on a busy machine: more time than a click usually needs.
  await expect(toast(page, "Your password has been changed.")).toBeVisible({ timeout: 20_000 });
  await expect(section.getByLabel("New password")).toHaveValue("");

  // Still signed in here (on a fresh session), signed out in the other browser.
  await page.goto("/account/sessions");
  await expect(page.getByRole("heading", { level: 1, name: "Sessions" })).toBeVisible();
  expect(await isSignedIn(other.page)).toBe(false);
  await other.close();
});

test("sessions: both browsers listed, this one marked; sign out one, then everywhere else", async ({
  page,
  browser,
  makeUser,
}) => {
  // Four browsers signing in with the form: more than the default time on a busy two-core machine.
  test.slow();
  const user = await makeUser();
  await signInWithForm(page, user);
  const second = await newSignedInPage(browser, user);
  await page.goto("/account/sessions");
  await waitForHydration(page);

  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole("table")).toContainText(/Chrome \d+ on \w+/);
  const current = rows.filter({ hasText: "This device" });
  await expect(current).toHaveCount(1);
  await expect(current.getByRole("button", { name: "Sign out this device" })).toBeVisible();

  const otherRow = rows.filter({ hasNotText: "This device" }).nth(1);
  await otherRow.getByRole("button", { name: /^Sign out Chrome \d+ on .+$/ }).click();
  await expect(toast(page, "That device has been signed out.")).toBeVisible();
  await expect(rows).toHaveCount(2);
  expect(await isSignedIn(second.page)).toBe(false);
  await second.close();

  const third = await newSignedInPage(browser, user);
  const fourth = await newSignedInPage(browser, user);
  await page.reload();
  await waitForHydration(page);
  await expect(rows).toHaveCount(4);
  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(toast(page, "Signed out everywhere else (2).")).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(page.getByText("You are signed in on this device only.")).toBeVisible();
  expect(await isSignedIn(third.page)).toBe(false);
  expect(await isSignedIn(fourth.page)).toBe(false);
  expect(await isSignedIn(page)).toBe(true);
  await third.close();
  await fourth.close();

  // Signing out this device is the header's sign-out.
  await page.goto("/account/sessions");
  await page.getByRole("button", { name: "Sign out this device" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
});

test("deleting the account needs the password, then signs out and says so", async ({ page, makeUser }) => {
  const user = await makeUser();
  await signInWithForm(page, user);
  await waitForHydration(page);
  const section = page.getByRole("region", { name: "Delete my account" });
  await section.getByLabel("Password").fill("not-my-password-1");
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(section.getByText("That is not your password.")).toBeVisible();

  await section.getByLabel("Password").fill(user.password);
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL("/account-deleted");
  await expect(page.getByRole("heading", { level: 1, name: "Your account has been deleted" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  await expectNoViolations(page, "/account-deleted");

  await page.goto("/auth");
  const panel = page.getByRole("tabpanel");
  await panel.getByLabel("E-mail").fill(user.email);
  await panel.getByLabel("Password").fill(user.password);
  await panel.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Invalid e-mail or password.").first()).toBeVisible();
});

test("the mail language is shown and saved", async ({ page, makeUser }) => {
  const user = await makeUser();
  await signInWithForm(page, user);
  await waitForHydration(page);
  const section = page.getByRole("region", { name: "Language for e-mails" });
  await expect(section.getByLabel("Language")).toHaveValue("en");
  await section.getByLabel("Language").selectOption("de");
  await section.getByRole("button", { name: "Save language" }).click();
  await expect(toast(page, "E-mails will reach you in German (Deutsch).")).toBeVisible();
  await page.reload();
  await expect(section.getByLabel("Language")).toHaveValue("de");
});

for (const theme of ["light", "dark"] as const) {
  test(`"E-mail me new posts and albums" is a labelled switch the keyboard turns on and off (${theme})`, async ({
    page,
    makeUser,
  }) => {
    await setPreferences(page, { theme });
    const user = await makeUser();
    await signInWithForm(page, user);
    await waitForHydration(page);
    const section = page.getByRole("region", { name: "E-mails about new posts and albums" });
    const toggle = section.getByRole("switch", { name: "E-mail me new posts and albums" });
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await toggle.focus();
    await page.keyboard.press("Space");
    await expect(toast(page, "You will get an e-mail about each new post and album.")).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await expect(toggle).toBeFocused();
    await page.reload();
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await expectNoViolations(page, `/account with the switch on (${theme})`);
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toast(page, "You will get no more e-mails about new posts and albums.")).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-checked", "false");
  });
}

for (const theme of ["light", "dark"] as const) {
  test(`a mail's unsubscribe page asks first, then turns the mails off without signing in (${theme})`, async ({
    page,
    makeUser,
    database,
  }) => {
    await setPreferences(page, { theme });
    const user = await makeUser();
    await database.db
      .insertInto("member_subscriptions")
      .values({ user_id: user.id, kind: "post", created_at: new Date() })
      .execute();
    await page.goto(`/unsubscribe/${unsubscribeTokenFor(unsubscribeSecretOf(E2E_SECRET), user.id)}`);
    await waitForHydration(page);
    await expect(
      page.getByRole("heading", { level: 1, name: "Unsubscribe from e-mails about new posts" }),
    ).toBeVisible();
    await expectNoViolations(page, `/unsubscribe/… (${theme})`);
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByText(/^You are unsubscribed\./)).toBeVisible();
    await expectNoViolations(page, `/unsubscribe/… done (${theme})`);
    const left = await database.db
      .selectFrom("member_subscriptions")
      .select("user_id")
      .where("user_id", "=", user.id)
      .execute();
    expect(left).toEqual([]);
  });
}

for (const theme of ["light", "dark"] as const) {
  for (const width of [1280, 390]) {
    test(`the account pages have no violations (${theme}, ${width} px)`, async ({ page, browser, makeUser }) => {
      // Four axe runs and two sign-ins: more than the default time on a busy two-core machine.
      test.slow();
      await page.setViewportSize({ width, height: 900 });
      await setPreferences(page, { theme });
      const user = await makeUser();
      await signInWithForm(page, user);
      const other = await newSignedInPage(browser, user);
      await waitForHydration(page);
      await expectNoViolations(page, `/account (${theme}, ${width} px)`);

      // With a field error and its toast.
      const section = page.getByRole("region", { name: "Change password" });
      await section.getByLabel("Current password").fill(user.password);
      await section.getByLabel("New password").fill("short");
      await section.getByRole("button", { name: "Change password" }).click();
      await expect(section.getByText("The new password must be at least 10 characters long.")).toBeVisible();
      // The toast too, once it has faded in: mid-animation its colours are not yet its own.
      await expect(toast(page, "The new password must be at least 10 characters long.")).toBeVisible();
      await page.waitForFunction(() =>
        document.getAnimations().every((animation) => animation.playState !== "running"),
      );
      await expectNoViolations(page, `/account with an error (${theme}, ${width} px)`);

      await page.goto("/account/sessions");
      await expect(page.getByRole("heading", { level: 1, name: "Sessions" })).toBeVisible();
      await expectNoViolations(page, `/account/sessions (${theme}, ${width} px)`);

      await setPreferences(page, { lang: "de" });
      await page.goto("/account/sessions");
      await expect(page.getByRole("heading", { level: 1, name: "Sitzungen" })).toBeVisible();
      await expectNoViolations(page, `/account/sessions in German (${theme}, ${width} px)`);
      await other.close();
    });
  }
}
