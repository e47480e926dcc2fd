import fs from "node:fs";
import type { Page } from "@playwright/test";
import * as OTPAuth from "otpauth";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import { toast } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { expect, setPreferences, test, waitForQuiet } from "./fixtures.ts";

const PERIOD_MS = 30_000;

/** The code an authenticator app shows for the secret now, computed independently of the site. */
async function currentCode(secret: string): Promise<string> {
  // Not in the last seconds of a time step: the code must still be current when the server checks it.
  const left = PERIOD_MS - (Date.now() % PERIOD_MS);
  if (left < 4000) await new Promise((resolve) => setTimeout(resolve, left + 200));
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
}

/**
 * Notes the text of every toast that appears from now on, also of one that has left again; returns a function
 * that reads the list. Toasts leave by themselves after a few seconds, so counting those on screen would race.
 */
async function watchToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const shown: string[] = [];
    (window as unknown as { toastsShown: string[] }).toastsShown = shown;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          for (const toast of [node, ...node.querySelectorAll("[data-sonner-toast]")]) {
            if (toast.matches("[data-sonner-toast]"))
              shown.push(toast.querySelector("[data-title]")?.textContent ?? "");
          }
        }
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { toastsShown: string[] }).toastsShown);
}

async function signOut(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto("/auth");
  const panel = page.getByRole("tabpanel");
  await panel.getByLabel("E-mail").fill(email);
  await panel.getByLabel("Password").fill(password);
  await panel.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/auth\/two-factor$/);
  await expect(page.getByRole("heading", { level: 1, name: "Two-factor sign-in" })).toBeVisible();
}

for (const theme of ["light", "dark"] as const) {
  test(`turns two-factor sign-in on, then signs in with a code and with a recovery code (${theme})`, async ({
    page,
    makeUser,
    signInAs,
  }) => {
    test.setTimeout(180_000);
    await setPreferences(page, { theme });
    const user = await makeUser();
    await signInAs(page, user);

    await page.goto("/account/two-factor");
    await expect(page.getByRole("heading", { level: 1, name: "Two-factor sign-in" })).toBeVisible();
    await expect(page.getByTestId("two-factor-status")).toHaveText("Two-factor sign-in is off.");
    await expectNoViolations(page, `/account/two-factor, off (${theme})`);

    await page.getByLabel("Your password").fill(user.password);
    await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
    const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
    noteSecret(secret);
    await expectNoViolations(page, `/account/two-factor, set-up step (${theme})`);

    await page.getByLabel("Code from the app").fill(await currentCode(secret));
    const toastsShown = await watchToasts(page);
    await page.getByRole("button", { name: "Confirm and turn on" }).click();
    await expect(page.getByRole("heading", { name: "Your recovery codes" })).toBeVisible();
    // One toast says so, once: not again when the page's data is fetched anew after the answer.
    await expect(toast(page, "Two-factor sign-in is on. Save your recovery codes.")).toBeVisible();
    await waitForQuiet(page);
    await page.waitForTimeout(1000);
    expect(await toastsShown()).toEqual(["Two-factor sign-in is on. Save your recovery codes."]);
    const codes = (await page.getByTestId("recovery-codes").getByRole("listitem").allTextContents()).map((c) =>
      c.trim(),
    );
    for (const code of codes) noteSecret(code);
    expect(codes).toHaveLength(10);
    await expectNoViolations(page, `/account/two-factor, recovery codes (${theme})`);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download as text" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("recovery-codes.txt");
    const text = fs.readFileSync((await download.path()) ?? "", "utf8");
    for (const code of codes) expect(text).toContain(code);

    await page.getByRole("link", { name: "I have saved them" }).click();
    await expect(page.getByTestId("two-factor-status")).toHaveText(
      "Two-factor sign-in is on. Recovery codes left: 10 of 10.",
    );
    await expectNoViolations(page, `/account/two-factor, on (${theme})`);

    // Signing in now takes a second step, with a code from the app.
    await signOut(page);
    await signInWithPassword(page, user.email, user.password);
    await expectNoViolations(page, `/auth/two-factor (${theme})`);
    // A code from ten minutes ahead: the app's format, but not one the site accepts now.
    const stale = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
    await page.getByLabel("Code from the app").fill(stale.generate({ timestamp: Date.now() + 20 * PERIOD_MS }));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The code is not right." })).toBeVisible();
    // The same refusal comes as a toast, whose code loads only now (auth-toasts.tsx): axe must wait for it, or it
    // measures the toast in the middle of its fade-in (CI saw contrast 1.79 on its title).
    await expect(toast(page, "The code is not right.")).toBeVisible();
    await expectNoViolations(page, `/auth/two-factor with an error (${theme})`);
    await page.getByLabel("Code from the app").fill(await currentCode(secret));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toBeVisible();

    // And with a recovery code instead, which then is used up.
    await signOut(page);
    await signInWithPassword(page, user.email, user.password);
    await page.getByLabel("Recovery code").fill(codes[0] ?? "");
    await page.getByRole("button", { name: "Sign in with a recovery code" }).click();
    await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toBeVisible();
    await page.goto("/account/two-factor");
    await expect(page.getByTestId("two-factor-status")).toHaveText(
      "Two-factor sign-in is on. Recovery codes left: 9 of 10.",
    );
  });
}

test("the account page and the second step in German", async ({ page, makeUser, signInAs }) => {
  await setPreferences(page, { lang: "de" });
  const user = await makeUser();
  await signInAs(page, user);
  await page.goto("/account/two-factor");
  await expect(page.getByRole("heading", { level: 1, name: "Zwei-Faktor-Anmeldung" })).toBeVisible();
  await expect(page.getByTestId("two-factor-status")).toHaveText("Die Zwei-Faktor-Anmeldung ist ausgeschaltet.");
  await expect(page.getByLabel("Ihr Passwort")).toBeVisible();
  // Without a pending sign-in, the second step says so and leads back.
  await page.context().clearCookies();
  await setPreferences(page, { lang: "de" });
  await page.goto("/auth/two-factor");
  await expect(page.getByRole("heading", { level: 1, name: "Ihre Anmeldung ist abgelaufen" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Erneut anmelden" })).toBeVisible();
});

for (const theme of ["light", "dark"] as const) {
  test(`an admin sent to set up two-factor sign-in sees why, and the page has no violations (${theme})`, async ({
    page,
    makeUser,
    signInAs,
  }) => {
    await setPreferences(page, { theme });
    await signInAs(page, await makeUser({ admin: true }));
    await page.goto("/account/two-factor?required=admin");
    await expect(page.getByText("Admins must use two-factor sign-in")).toBeVisible();
    await expectNoViolations(page, `/account/two-factor?required=admin (${theme})`);
  });
}
