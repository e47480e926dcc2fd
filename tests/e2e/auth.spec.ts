import type { Page } from "@playwright/test";
import { signUpWithInvite } from "#app/domains/users/users.server.ts";
import { strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { SESSION_COOKIE_NAME } from "#tests/support/sessions.ts";
import { expect, setPreferences, test } from "./fixtures.ts";

type Texts = {
  signUpTab: string;
  signInTab: string;
  email: string;
  password: string;
  inviteCode: string;
  signUpButton: string;
  signInButton: string;
};

const en: Texts = {
  signUpTab: "Sign up",
  signInTab: "Sign in",
  email: "E-mail",
  password: "Password",
  inviteCode: "Invite code",
  signUpButton: "Sign up",
  signInButton: "Sign in",
};
const de: Texts = {
  signUpTab: "Registrieren",
  signInTab: "Anmelden",
  email: "E-Mail",
  password: "Passwort",
  inviteCode: "Einladungscode",
  signUpButton: "Registrieren",
  signInButton: "Anmelden",
};

function form(page: Page) {
  return page.getByRole("tabpanel");
}

async function signUp(page: Page, input: { email: string; password: string; code: string }, texts = en) {
  await page.getByRole("tab", { name: texts.signUpTab }).click();
  const panel = form(page);
  await panel.getByLabel(texts.email).fill(input.email);
  await panel.getByLabel(texts.password).fill(input.password);
  await panel.getByLabel(texts.inviteCode).fill(input.code);
  await panel.getByRole("button", { name: texts.signUpButton }).click();
}

async function signIn(page: Page, input: { email: string; password: string }, texts = en) {
  await page.getByRole("tab", { name: texts.signInTab }).click();
  const panel = form(page);
  await panel.getByLabel(texts.email).fill(input.email);
  await panel.getByLabel(texts.password).fill(input.password);
  await panel.getByRole("button", { name: texts.signInButton }).click();
}

/** A toast the visitor sees, with its title and description. */
async function expectToast(page: Page, title: string, description: string) {
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: title }).filter({ hasText: description });
  await expect(toast).toBeVisible();
  await expect(toast.locator("[data-title]")).toHaveText(title);
  await expect(toast.locator("[data-description]")).toHaveText(description);
}

/** The header of a signed-in visitor offers Sign out; of a signed-out one, Sign in. */
async function expectSignedIn(page: Page, signedIn: boolean) {
  const header = page.getByRole("banner");
  if (signedIn) {
    await expect(header.getByRole("button", { name: "Sign out" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Sign in" })).toHaveCount(0);
  } else {
    await expect(header.getByRole("link", { name: "Sign in" })).toBeVisible();
    await expect(header.getByRole("button", { name: "Sign out" })).toHaveCount(0);
  }
}

test.describe("sign-up messages", () => {
  test("an empty invite code (also only spaces) is refused", async ({ page }) => {
    await page.goto("/auth");
    await signUp(page, { email: uniqueEmail(), password: strongPassword(), code: "   " });
    await expectToast(page, "Invite code required", "Please enter a valid invite code to register.");
    await expect(page.getByRole("tab", { name: "Sign up" })).toHaveAttribute("aria-selected", "true");
  });

  test("an unknown invite code is refused", async ({ page }) => {
    await page.goto("/auth");
    await signUp(page, { email: uniqueEmail(), password: strongPassword(), code: "ZZZZ-ZZZZ-ZZZZ-ZZZZ" });
    await expectToast(page, "Invalid invite code", "The invite code is invalid or has already been used.");
  });

  test("a used invite code is refused", async ({ page, database, makeInvite }) => {
    const code = await makeInvite();
    await signUpWithInvite(database.db, { email: uniqueEmail(), password: strongPassword(), inviteCode: code });
    await page.goto("/auth");
    await signUp(page, { email: uniqueEmail(), password: strongPassword(), code });
    await expectToast(page, "Invalid invite code", "The invite code is invalid or has already been used.");
  });

  test("weak passwords are refused with the reason, and leave the code usable", async ({ page, makeInvite }) => {
    const code = await makeInvite();
    const email = uniqueEmail();
    await page.goto("/auth");
    await signUp(page, { email, password: "short1!", code });
    await expectToast(page, "Sign up failed", "The password must be at least 10 characters long.");

    await signUp(page, { email, password: "password123", code });
    await expectToast(page, "Sign up failed", "This password is too common. Please choose a less predictable one.");

    // The failed attempts did not use up the code.
    await signUp(page, { email, password: strongPassword(), code });
    await expectToast(page, "Success!", "Account created successfully. Please sign in.");
  });

  test("an e-mail address that already has an account is refused", async ({ page, makeUser, makeInvite }) => {
    const user = await makeUser();
    const code = await makeInvite();
    await page.goto("/auth");
    await signUp(page, { email: user.email.toUpperCase(), password: strongPassword(), code });
    await expectToast(page, "Sign up failed", "An account with this e-mail address already exists.");
  });

  test("success shows the sign-in form with the e-mail filled in, and the new account signs in", async ({
    page,
    makeInvite,
  }) => {
    const code = await makeInvite();
    const email = uniqueEmail("new");
    const password = strongPassword();
    await page.goto("/auth");
    await signUp(page, { email, password, code });
    await expectToast(page, "Success!", "Account created successfully. Please sign in.");

    await expect(page.getByRole("tab", { name: "Sign in" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
    await expect(form(page).getByLabel("E-mail")).toHaveValue(email);

    await form(page).getByLabel("Password").fill(password);
    await form(page).getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL("/");
    await expectSignedIn(page, true);
  });

  test("/auth?invite=CODE opens sign-up with the code filled in", async ({ page, makeInvite }) => {
    const code = await makeInvite();
    await page.goto(`/auth?invite=${code}`);
    await expect(page.getByRole("tab", { name: "Sign up" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
    await expect(form(page).getByLabel("Invite code")).toHaveValue(code);

    const email = uniqueEmail();
    await form(page).getByLabel("E-mail").fill(email);
    await form(page).getByLabel("Password").fill(strongPassword());
    await form(page).getByRole("button", { name: "Sign up" }).click();
    await expectToast(page, "Success!", "Account created successfully. Please sign in.");
    await expect(form(page).getByLabel("E-mail")).toHaveValue(email);
  });
});

test.describe("sign-in and sign-out", () => {
  test("a wrong password is refused with the reason", async ({ page, makeUser }) => {
    const user = await makeUser();
    await page.goto("/auth");
    await signIn(page, { email: user.email, password: `${user.password}-wrong` });
    await expectToast(page, "Sign in failed", "Invalid e-mail or password.");
    await expect(page).toHaveURL(/\/auth/);
    await expectSignedIn(page, false);
  });

  test("an unknown e-mail address is refused like a wrong password", async ({ page }) => {
    await page.goto("/auth");
    await signIn(page, { email: uniqueEmail("nobody"), password: strongPassword() });
    await expectToast(page, "Sign in failed", "Invalid e-mail or password.");
  });

  test("an upper-case, space-padded e-mail signs in; sign-out ends the session on the server", async ({
    page,
    browser,
    baseURL,
    makeUser,
  }) => {
    const user = await makeUser();
    await page.goto("/links");
    await page.getByRole("banner").getByRole("link", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Flinks$/);
    const emailField = form(page).getByLabel("E-mail");
    // Typed as a person might: the browser keeps the upper case, the server must not mind.
    await emailField.fill(`  ${user.email.toUpperCase()}  `);
    await form(page).getByLabel("Password").fill(user.password);
    await form(page).getByRole("button", { name: "Sign in" }).click();

    // Back where the visitor came from, signed in.
    await expect(page).toHaveURL("/links");
    await expect(page.getByRole("heading", { level: 1, name: "Links" })).toBeVisible();
    await expectSignedIn(page, true);
    await page.reload();
    await expectSignedIn(page, true);

    const sessionCookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE_NAME);
    expect(sessionCookie, "the session cookie").toBeDefined();
    expect(sessionCookie?.httpOnly).toBe(true);
    expect(sessionCookie?.sameSite).toBe("Lax");

    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL("/");
    await expectSignedIn(page, false);
    await page.reload();
    await expectSignedIn(page, false);

    // The old cookie, replayed in a fresh browser, no longer signs anyone in.
    const replay = await browser.newContext({ baseURL });
    if (sessionCookie) await replay.addCookies([sessionCookie]);
    const replayPage = await replay.newPage();
    await replayPage.goto("/");
    await expectSignedIn(replayPage, false);
    await replay.close();
  });

  test("the server trims and lowercases the e-mail even when the browser does not", async ({
    page,
    baseURL,
    makeUser,
  }) => {
    // An <input type="email"> already drops the spaces, so post the untouched form the way a plain client would.
    const user = await makeUser();
    const response = await page.request.post("/auth", {
      form: {
        intent: "sign-in",
        email: `  ${user.email.toUpperCase()}\t `,
        password: user.password,
        redirectTo: "/faq",
      },
      headers: { Origin: baseURL ?? "" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe("/faq");
    // The session cookie it set is the browser's: the visitor is signed in.
    await page.goto("/faq");
    await expectSignedIn(page, true);
  });

  test("a signed-in visitor who opens /auth is sent on", async ({ page, makeUser, signInAs }) => {
    const user = await makeUser();
    await signInAs(page, user);
    await page.goto("/auth");
    await expect(page).toHaveURL("/");
    await expectSignedIn(page, true);
  });
});

test.describe("messages in German", () => {
  test.beforeEach(async ({ page }) => {
    await setPreferences(page, { lang: "de" });
  });

  test("an empty invite code", async ({ page }) => {
    await page.goto("/auth");
    await signUp(page, { email: uniqueEmail(), password: strongPassword(), code: "" }, de);
    await expectToast(
      page,
      "Einladungscode erforderlich",
      "Bitte geben Sie einen gültigen Einladungscode ein, um sich zu registrieren.",
    );
  });

  test("an invalid invite code", async ({ page }) => {
    await page.goto("/auth");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await signUp(page, { email: uniqueEmail(), password: strongPassword(), code: "ZZZZ-ZZZZ-ZZZZ-ZZZZ" }, de);
    await expectToast(
      page,
      "Ungültiger Einladungscode",
      "Der Einladungscode ist ungültig oder wurde bereits verwendet.",
    );
  });

  test("a weak password, success, and a failed sign-in", async ({ page, makeInvite }) => {
    const code = await makeInvite();
    const email = uniqueEmail();
    const password = strongPassword();
    await page.goto("/auth");
    await signUp(page, { email, password: "kurz", code }, de);
    await expectToast(page, "Registrierung fehlgeschlagen", "Das Passwort muss mindestens 10 Zeichen lang sein.");

    await signUp(page, { email, password, code }, de);
    await expectToast(page, "Erfolg!", "Konto erfolgreich erstellt. Bitte melden Sie sich an.");
    await expect(page.getByRole("heading", { level: 1, name: "Willkommen zurück" })).toBeVisible();
    await expect(form(page).getByLabel("E-Mail")).toHaveValue(email);

    await signIn(page, { email, password: `${password}x` }, de);
    await expectToast(page, "Anmeldung fehlgeschlagen", "E-Mail oder Passwort ist falsch.");

    await signIn(page, { email, password }, de);
    await expect(page.getByRole("banner").getByRole("button", { name: "Abmelden" })).toBeVisible();
  });
});
