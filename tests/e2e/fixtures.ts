import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";
import type { Kysely } from "kysely";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { type CreatedUser, createInvite, createUser } from "#tests/support/factories.ts";
import { trackRequestsOf, waitForQuiet } from "#tests/support/quiet-network.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
import { E2E_BASE_URL, E2E_SECRET, type E2EServer, SQLITE_SERVER } from "./e2e-env.ts";
import { noteExpectedServerErrors } from "./server-errors.ts";

export type WorkerFixtures = {
  /** The server this project's tests talk to (playwright.config.ts sets it per project). */
  e2eServer: E2EServer;
};

type Fixtures = {
  /** The server's own database (the SQLite file it serves from, or its PostgreSQL database). */
  database: AppDatabase;
  /** Creates a user directly in the database; removed after the test with its sessions. */
  makeUser: (options?: { admin?: boolean; email?: string; password?: string }) => Promise<CreatedUser>;
  /** Creates an unused invite code; removed after the test, with the account that signed up with it. */
  makeInvite: (options?: { admin?: boolean }) => Promise<string>;
  /** Signs the page's browser context in as the user, by writing a session row (removed after the test) and its cookie. */
  signInAs: (page: Page, user: CreatedUser) => Promise<void>;
  /** Page errors and console errors a test provokes on purpose (`test.use`); any other fails the test. */
  allowedBrowserErrors: RegExp[];
  /** Error lines a test makes the server log on purpose (`test.use`); any other fails the run (global-setup.ts). */
  expectedServerErrors: RegExp[];
  failOnBrowserErrors: undefined;
  noteServerErrors: undefined;
  trackRequests: undefined;
  skipWithoutServer: undefined;
};

/** Opens the server's database from the tests' side. */
export function openServerDatabase(server: E2EServer): AppDatabase {
  if (server.kind === "postgres") {
    if (!server.databaseUrl) throw new Error("TEST_DATABASE_URL is not set");
    return openDatabase({ databaseUrl: server.databaseUrl });
  }
  return openDatabase({ sqliteFile: path.join(server.dataDir, "vitrine.sqlite") });
}

/** Deletes users and what is theirs (sessions, credentials, roles; the rest cascades), as an account deletion does. */
export async function removeUsers(db: Kysely<Database>, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.deleteFrom("session").where("userId", "in", userIds).execute();
  await db.deleteFrom("account").where("userId", "in", userIds).execute();
  await db.deleteFrom("user_roles").where("user_id", "in", userIds).execute();
  // The invite each one signed up with (createUser makes one per user).
  await db.deleteFrom("invite_codes").where("used_by", "in", userIds).execute();
  await db.deleteFrom("user").where("id", "in", userIds).execute();
}

/**
 * A resource the server answered with 4xx: the browser logs it as a console error, but a test that opens a
 * missing page or a refused one expects exactly that answer (a 5xx still counts).
 */
const CLIENT_ERROR_RESOURCE = /Failed to load resource: the server responded with a status of 4\d\d/;

export const test = base.extend<Fixtures, WorkerFixtures>({
  e2eServer: [SQLITE_SERVER, { option: true, scope: "worker" }],
  allowedBrowserErrors: [[], { option: true }],
  expectedServerErrors: [[], { option: true }],
  skipWithoutServer: [
    async ({ e2eServer }, use, testInfo) => {
      testInfo.skip(
        e2eServer.kind === "postgres" && !e2eServer.databaseUrl,
        "The postgres project needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test); CI fails without it.",
      );
      await use(undefined);
    },
    { auto: true },
  ],
  failOnBrowserErrors: [
    async ({ context, allowedBrowserErrors }, use) => {
      const errors: string[] = [];
      const note = (text: string) => {
        if (!CLIENT_ERROR_RESOURCE.test(text) && !allowedBrowserErrors.some((allowed) => allowed.test(text)))
          errors.push(text);
      };
      context.on("weberror", (error) => note(`page error: ${error.error().message}`));
      context.on("console", (message) => {
        if (message.type() === "error") note(`console error: ${message.text()} (${message.location().url})`);
      });
      await use(undefined);
      expect(errors, "page errors and console errors (allowedBrowserErrors names the expected ones)").toEqual([]);
    },
    { auto: true },
  ],
  trackRequests: [
    async ({ context }, use) => {
      trackRequestsOf(context);
      await use(undefined);
    },
    { auto: true },
  ],
  noteServerErrors: [
    async ({ expectedServerErrors }, use) => {
      noteExpectedServerErrors(expectedServerErrors);
      await use(undefined);
    },
    { auto: true },
  ],
  database: async ({ e2eServer }, use) => {
    const database = openServerDatabase(e2eServer);
    await use(database);
    await database.close();
  },
  makeUser: async ({ database }, use) => {
    const made: string[] = [];
    await use(async (options) => {
      const user = await createUser(database.db, options);
      made.push(user.id);
      return user;
    });
    await removeUsers(database.db, made);
  },
  makeInvite: async ({ database }, use) => {
    const made: string[] = [];
    await use(async (options) => {
      const code = await createInvite(database.db, options);
      made.push(code);
      return code;
    });
    if (made.length === 0) return;
    const usedBy = await database.db
      .selectFrom("invite_codes")
      .select("used_by")
      .where("code", "in", made)
      .where("used_by", "is not", null)
      .execute();
    await removeUsers(
      database.db,
      usedBy.flatMap((row) => (row.used_by ? [row.used_by] : [])),
    );
    await database.db.deleteFrom("invite_codes").where("code", "in", made).execute();
  },
  signInAs: async ({ database }, use) => {
    const tokens: string[] = [];
    await use(async (page, user) => {
      const cookie = await createSessionCookie(database.db, user.id, E2E_SECRET);
      tokens.push(decodeURIComponent(cookie.value).split(".")[0] ?? "");
      // Cookies are not told apart by port: this one reaches whichever server the project's pages are on.
      await page.context().addCookies([{ ...cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
    });
    if (tokens.length > 0) await database.db.deleteFrom("session").where("token", "in", tokens).execute();
  },
});

export { expect, waitForQuiet };

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

/**
 * Waits until React has hydrated the page and run the first render's effects (root.tsx marks the page), so
 * client-side navigation and handlers, those added by effects too (the "/" shortcut), are live.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const main = document.querySelector("main");
    const hydrated = main !== null && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
    return hydrated && "__reactRouterDataRouter" in window && "interactive" in document.documentElement.dataset;
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
