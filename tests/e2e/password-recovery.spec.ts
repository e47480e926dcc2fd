import type { Page } from "@playwright/test";
import type { AppDatabase } from "#app/db/database.server.ts";
import { strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import { readNewestOutboxMail } from "#tests/support/smtp-server.ts";
import { expectNoViolations } from "./axe.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

// The e2e server runs without SMTP_URL: every mail is filed in the outbox, in its database.

/** The path (with its token) of the newest outbox mail to `to` that links to `pathname`. */
async function linkFromOutbox(
  database: AppDatabase,
  to: string,
  pathname: string,
): Promise<{ path: string; subject: string }> {
  const mail = await readNewestOutboxMail(database.db, (filed) => filed.to.includes(to));
  const match = mail.text.match(new RegExp(`https?://[^\\s]+${pathname}\\?token=([\\w-]+)`));
  if (!match) throw new Error(`No ${pathname} link in the mail to ${to}`);
  noteSecret(match[1]);
  const url = new URL(match[0]);
  return { path: `${url.pathname}${url.search}`, subject: mail.subject };
}

const texts = {
  en: {
    forgot: "Forgot password?",
    heading: "Reset your password",
    email: "E-mail",
    send: "Send the link",
    sent: "Check your mail",
    subject: "Reset your password",
    newPassword: "New password",
    save: "Set the new password",
    done: "Password changed",
    signIn: "Sign in",
    password: "Password",
  },
  de: {
    forgot: "Passwort vergessen?",
    heading: "Passwort zurücksetzen",
    email: "E-Mail",
    send: "Link senden",
    sent: "Sehen Sie in Ihr Postfach",
    subject: "Passwort zurücksetzen",
    newPassword: "Neues Passwort",
    save: "Neues Passwort speichern",
    done: "Passwort geändert",
    signIn: "Anmelden",
    password: "Passwort",
  },
} as const;

async function checkBothThemes(page: Page, label: string) {
  for (const theme of ["light", "dark"] as const) {
    await setPreferences(page, { theme });
    await page.reload();
    await expect(page.locator("html")).toHaveClass(theme);
    await expectNoViolations(page, `${label} (${theme})`);
  }
}

for (const lang of ["en", "de"] as const) {
  test(`the whole forgot-password flow in ${lang === "en" ? "English" : "German"}`, async ({
    page,
    makeUser,
    database,
  }) => {
    const t = texts[lang];
    const user = await makeUser();
    await setPreferences(page, { lang });
    await page.goto("/auth");
    await waitForHydration(page);
    await page.getByRole("link", { name: t.forgot }).click();
    await expect(page.getByRole("heading", { level: 1, name: t.heading })).toBeVisible();
    await page.getByLabel(t.email).fill(user.email);
    await page.getByRole("button", { name: t.send }).click();
    await expect(page.getByRole("status").filter({ hasText: t.sent })).toBeVisible();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: t.sent })).toBeVisible();

    const link = await linkFromOutbox(database, user.email, "/auth/reset");
    expect(link.subject).toBe(t.subject);
    await page.goto(link.path);
    await waitForHydration(page);
    await expect(page.getByText(user.email)).toBeVisible();
    const password = strongPassword();
    await page.getByLabel(t.newPassword).fill(password);
    await page.getByRole("button", { name: t.save }).click();
    await expect(page.getByRole("heading", { level: 1, name: t.done })).toBeVisible();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: t.done })).toBeVisible();

    await page.locator("main").getByRole("link", { name: t.signIn }).click();
    const panel = page.getByRole("tabpanel");
    await panel.getByLabel(t.email).fill(user.email);
    await panel.getByLabel(t.password, { exact: true }).fill(password);
    await panel.getByRole("button", { name: t.signIn }).click();
    await expect(page).toHaveURL(/\/$/);
  });
}

// axe runs several times per test on a machine that may be busy: these get more than the default minute.
for (const lang of ["en", "de"] as const) {
  test(`axe finds nothing on the forgot-password page (${lang}) in both themes, before and after asking`, async ({
    page,
    makeUser,
  }) => {
    test.setTimeout(240_000);
    const user = await makeUser();
    await setPreferences(page, { lang });
    await page.goto("/auth/forgot");
    await checkBothThemes(page, `/auth/forgot ${lang}`);
    // The answer, with the command that prints the link (no SMTP_URL here), in both themes.
    for (const theme of ["light", "dark"] as const) {
      await setPreferences(page, { theme, lang });
      await page.goto("/auth/forgot");
      await waitForHydration(page);
      await page.getByLabel(texts[lang].email).fill(user.email);
      await page.getByRole("button", { name: texts[lang].send }).click();
      const answer = page.getByRole("status").filter({ hasText: texts[lang].sent });
      await expect(answer).toBeVisible();
      await expect(answer.locator("code")).toHaveText("npm run cli -- outbox latest");
      // The toast's code is loaded after the answer: wait for it, or axe may measure it while it fades in.
      await expect(page.locator("[data-sonner-toast]").filter({ hasText: texts[lang].sent })).toBeVisible();
      await expectNoViolations(page, `/auth/forgot answered ${lang} (${theme})`);
    }
  });
}

test("axe finds nothing on the reset page, with a working and with a bad link, in both themes", async ({
  page,
  database,
  makeUser,
}) => {
  test.setTimeout(150_000);
  const user = await makeUser();
  const { createResetLink } = await import("#app/domains/users/password-recovery.server.ts");
  const made = await createResetLink(database.db, {
    email: user.email,
    baseUrl: "http://localhost",
    actor: { id: "e2e", email: "e2e" },
  });
  noteSecret(new URL(made.url).searchParams.get("token") ?? undefined);
  await page.goto(made.url.slice("http://localhost".length));
  await expect(page.getByText(user.email)).toBeVisible();
  await checkBothThemes(page, "/auth/reset");
  await setPreferences(page, { lang: "de" });
  await page.goto("/auth/reset?token=not-a-token");
  await expect(page.getByRole("heading", { level: 1, name: "Dieser Link funktioniert nicht" })).toBeVisible();
  await checkBothThemes(page, "/auth/reset with a bad link");
});

test("changing the e-mail address needs the mailed link and the password", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  test.setTimeout(150_000);
  const user = await makeUser();
  await signInAs(page, user);
  await page.goto("/account/email");
  await expect(page.getByRole("heading", { level: 1, name: "E-mail address" })).toBeVisible();
  await checkBothThemes(page, "/account/email");
  await waitForHydration(page);

  const newEmail = uniqueEmail("moved");
  await page.getByLabel("New e-mail address").fill(newEmail);
  await page.getByLabel("Current password").fill(user.password);
  await page.getByRole("button", { name: "Send the confirmation link" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Confirmation link sent" })).toBeVisible();
  await expect(page.getByText(`A confirmation link was sent to ${newEmail}.`)).toBeVisible();
  await expect(page.getByText(`Your account's address is ${user.email}.`)).toBeVisible();
  await expectNoViolations(page, "/account/email with a change waiting");

  const link = await linkFromOutbox(database, newEmail, "/account/confirm-email");
  await page.goto(link.path);
  await expect(page.getByText(`Change the address of your account from ${user.email} to ${newEmail}?`)).toBeVisible();
  await checkBothThemes(page, "/account/confirm-email");
  await waitForHydration(page);
  await page.getByLabel("Current password").fill(user.password);
  await page.getByRole("button", { name: "Confirm the change" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "E-mail address changed" })).toBeVisible();
  await page.goto("/account/email");
  await expect(page.getByText(`Your account's address is ${newEmail}.`)).toBeVisible();
  const notice = await readNewestOutboxMail(database.db, (filed) => filed.to.includes(user.email));
  expect(notice.subject).toBe("The e-mail address of your account was changed");
});
