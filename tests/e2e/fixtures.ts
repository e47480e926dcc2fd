import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { type CreatedUser, createInvite, createUser } from "#tests/support/factories.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
import { E2E_BASE_URL, E2E_DATA_DIR, E2E_SECRET } from "./e2e-env.ts";

type Fixtures = {
  /** The server's own database (the SQLite file it serves from). */
  database: AppDatabase;
  /** Creates a user directly in the database. */
  makeUser: (options?: { admin?: boolean; email?: string; password?: string }) => Promise<CreatedUser>;
  /** Creates an unused invite code. */
  makeInvite: (options?: { admin?: boolean }) => Promise<string>;
  /** Signs the page's browser context in as the user, by writing a session row and its cookie. */
  signInAs: (page: Page, user: CreatedUser) => Promise<void>;
};

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
  database: async ({}, use) => {
    const database = openDatabase({ sqliteFile: path.join(E2E_DATA_DIR, "vitrine.sqlite") });
    await use(database);
    await database.close();
  },
  makeUser: async ({ database }, use) => {
    await use((options) => createUser(database.db, options));
  },
  makeInvite: async ({ database }, use) => {
    await use((options) => createInvite(database.db, options));
  },
  signInAs: async ({ database }, use) => {
    await use(async (page, user) => {
      const cookie = await createSessionCookie(database.db, user.id, E2E_SECRET);
      await page.context().addCookies([{ ...cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
    });
  },
});

export { expect };

/** Every public page, with the heading (level 1) its settings defaults give it in English and German. */
export const PUBLIC_PAGES = [
  { path: "/", heading: "Gallery", headingDe: "Galerie" },
  { path: "/home", heading: "Hello, and welcome", headingDe: "Hallo und willkommen" },
  { path: "/links", heading: "Links", headingDe: "Links" },
  { path: "/faq", heading: "Frequently asked questions", headingDe: "Häufige Fragen" },
  { path: "/videos", heading: "Videos", headingDe: "Videos" },
  { path: "/legal-notice", heading: "Legal notice", headingDe: "Impressum" },
  { path: "/privacy", heading: "Privacy policy", headingDe: "Datenschutzerklärung" },
  { path: "/auth", heading: "Welcome back", headingDe: "Willkommen zurück" },
  { path: "/auth/forgot", heading: "Reset your password", headingDe: "Passwort zurücksetzen" },
  {
    path: "/auth/reset?token=no-such-token",
    heading: "This link does not work",
    headingDe: "Dieser Link funktioniert nicht",
  },
  { path: "/account-deleted", heading: "Your account has been deleted", headingDe: "Ihr Konto wurde gelöscht" },
  { path: "/no-such-page", heading: "Page not found", headingDe: "Seite nicht gefunden" },
] as const;

/** Sets the theme and/or language cookies the server reads on its first render. */
export async function setPreferences(page: Page, preferences: { theme?: "light" | "dark"; lang?: "en" | "de" }) {
  const cookies = Object.entries(preferences).map(([name, value]) => ({ name, value, url: E2E_BASE_URL }));
  await page.context().addCookies(cookies);
}

/** The page's HTML as the server sends it, before any JavaScript runs (cookies of the page's context included). */
export async function rawHtml(page: Page, path: string): Promise<{ status: number; html: string }> {
  const response = await page.request.get(path, { maxRedirects: 0 });
  return { status: response.status(), html: await response.text() };
}

export { E2E_BASE_URL };

/** Waits until React has hydrated the page, so client-side navigation and handlers are live. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const main = document.querySelector("main");
    const hydrated = main !== null && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
    return hydrated && "__reactRouterDataRouter" in window;
  });
}

/**
 * Opens the gallery's lightbox from a thumbnail and waits until it is the modal dialog, which is when its
 * swipe and key handlers are in place.
 */
export async function openLightbox(page: Page, index = 0) {
  await waitForHydration(page);
  await page.locator("main ul.picture-rows a[id^='thumb-']").nth(index).click();
  await page.waitForFunction(() => document.querySelector("dialog:modal") !== null);
}

/** A client-side navigation, as a <Link> to that path would do (the app has no link to every path). */
export async function clientNavigate(page: Page, path: string) {
  await waitForHydration(page);
  await page.evaluate((to) => {
    const router = (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => Promise<void> } })
      .__reactRouterDataRouter;
    void router.navigate(to);
  }, path);
}
