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
