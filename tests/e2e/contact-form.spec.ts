import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import type { AppDatabase } from "#app/db/database.server.ts";
import { uniqueEmail } from "#tests/support/factories.ts";
import { readNewestOutboxMail } from "#tests/support/smtp-server.ts";
import { expectNoViolations } from "./axe.ts";
import { collectCspViolations } from "./csp-violations.ts";
import { expect, setPreferences, test, waitForHydration, waitForQuiet } from "./fixtures.ts";

// Turning the form on puts "Contact" in every page's menu: this spec is one of the site-wide ones
// (playwright.config.ts), and turns it off again when done.
test.describe.configure({ mode: "serial", timeout: 180_000 });

const setContact = (database: AppDatabase, on: boolean) =>
  database.db
    .updateTable("site_settings")
    .set({ value: on ? "true" : "false" })
    .where("key", "=", "contact_enabled")
    .execute();

test.beforeAll(async ({ database }) => {
  await setContact(database, true);
});

test.afterAll(async ({ database }) => {
  await setContact(database, false);
});

/** Presses Tab until the element `matches` has the focus; fails after `limit` presses. */
async function tabTo(page: Page, matches: string, limit = 40) {
  for (let index = 0; index < limit; index++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((selector) => document.activeElement?.matches(selector) === true, matches)) return;
  }
  throw new Error(`Tab never reached ${matches}`);
}

/** The JavaScript a page loads once hydrated (and the network is quiet), as bodies by address. */
async function scriptsOf(page: Page, path: string): Promise<() => Promise<Map<string, Buffer>>> {
  const bodies = new Map<string, Promise<Buffer>>();
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") bodies.set(response.url(), response.body());
  });
  await page.goto(path);
  await waitForHydration(page);
  await waitForQuiet(page);
  return async () => new Map(await Promise.all([...bodies].map(async ([url, body]) => [url, await body] as const)));
}

test("a visitor writes with the keyboard alone, sees the confirmation, and an admin reads the message", async ({
  page,
  browser,
  database,
  makeUser,
  signInAs,
}) => {
  // The owner: messages are mailed to the first admin (the settings name no other address here).
  const admin = await makeUser({ admin: true });
  const violations = await collectCspViolations(page);
  const sender = uniqueEmail("visitor");
  const text = `Hello from the keyboard ${Date.now()}.\nA second line.`;

  await page.goto("/home");
  await waitForHydration(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contact" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Contact" })).toBeVisible({ timeout: 30_000 });
  await waitForHydration(page);

  await tabTo(page, "input[name=name]");
  await page.keyboard.type("Kim Keyboard");
  await page.keyboard.press("Tab");
  await page.keyboard.type(sender);
  await page.keyboard.press("Tab");
  await page.keyboard.type(text);
  // The honeypot is never reached: from the message the next stop is the send button.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Send the message" })).toBeFocused();
  await page.keyboard.press("Enter");

  const confirmation = page.getByRole("status").filter({ hasText: "Thank you, your message was sent" });
  await expect(confirmation).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Thank you, your message was sent" })).toBeFocused();
  await expect(confirmation).toContainText(sender);

  const row = await database.db
    .selectFrom("contact_messages")
    .selectAll()
    .where("email", "=", sender)
    .executeTakeFirstOrThrow();
  expect(row).toMatchObject({ name: "Kim Keyboard", message: text, read_at: null });
  // The browser tests' server has no SMTP_URL: the mail to the owner is in the outbox, Reply-To the visitor.
  const mail = await readNewestOutboxMail(database.db, (m) => m.text.includes(`Hello from the keyboard`));
  expect((mail.headers.get("reply-to") as { text: string }).text).toContain(sender);
  expect(violations).toEqual([]);

  const adminPage = await (await browser.newContext()).newPage();
  await signInAs(adminPage, admin);
  await adminPage.goto("/admin");
  await waitForHydration(adminPage);
  // Client navigations load the screens' code and data: on a loaded machine that takes a while.
  await adminPage.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Messages" }).click();
  await expect(adminPage.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible({ timeout: 30_000 });
  await adminPage.getByRole("link", { name: "Read the message from Kim Keyboard" }).first().click();
  await expect(adminPage.getByRole("heading", { level: 1, name: "Kim Keyboard" })).toBeVisible({ timeout: 30_000 });
  await expect(adminPage.getByTestId("message-text")).toHaveText(text);
  await expect(adminPage.getByRole("link", { name: "Reply by e-mail" })).toHaveAttribute(
    "href",
    new RegExp(`^mailto:${encodeURIComponent(sender)}`),
  );
  await adminPage.getByRole("button", { name: "Mark as read" }).click();
  await expect(adminPage.getByRole("status").filter({ hasText: "Marked as read." })).toBeVisible({ timeout: 30_000 });
  await expect(adminPage.getByRole("button", { name: "Mark as unread" })).toBeVisible();
  await adminPage.context().close();
});

test("the contact page passes axe in both themes, with field errors and once sent", async ({ page }) => {
  for (const theme of ["light", "dark"] as const) {
    await setPreferences(page, { theme });
    await page.goto("/contact");
    await waitForHydration(page);
    await expectNoViolations(page, `/contact (${theme})`);
  }
  // A refusal (field errors) and the confirmation, in the dark theme.
  await page.getByLabel("Your name").fill("Axe Checker");
  await page.getByLabel("Your e-mail address").fill("not an address");
  await page.getByLabel("Your message").fill("Checking the colours.");
  await page.getByRole("button", { name: "Send the message" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The message was not sent" })).toBeVisible({
    timeout: 30_000,
  });
  await expectNoViolations(page, "/contact with errors (dark)");
  await page.getByLabel("Your e-mail address").fill(uniqueEmail("axe"));
  await page.getByRole("button", { name: "Send the message" }).click();
  await expect(page.getByRole("heading", { name: "Thank you, your message was sent" })).toBeVisible({
    timeout: 30_000,
  });
  await expectNoViolations(page, "/contact sent (dark)");
});

test("the messages screens pass axe in both themes", async ({ page, makeUser, signInAs }) => {
  await signInAs(page, await makeUser({ admin: true }));
  for (const theme of ["light", "dark"] as const) {
    await setPreferences(page, { theme });
    await page.goto("/admin/messages");
    await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible({ timeout: 30_000 });
    await expectNoViolations(page, `/admin/messages (${theme})`);
    const first = page.getByRole("link", { name: /^Read the message from/ }).first();
    await page.goto((await first.getAttribute("href")) ?? "/admin/messages");
    await expect(page.getByRole("button", { name: /Mark as/ })).toBeVisible({ timeout: 30_000 });
    await expectNoViolations(page, `a message (${theme})`);
  }
});

test("only /contact loads the proof of work's code, within the public pages' JavaScript budget", async ({
  browser,
}) => {
  const contactScripts = await scriptsOf(await (await browser.newContext()).newPage(), "/contact");
  const homeScripts = await scriptsOf(await (await browser.newContext()).newPage(), "/home");
  const solver = (scripts: Map<string, Buffer>) => [...scripts.values()].some((body) => body.includes("SHA-256"));
  // The solver's module is fetched once the page has hydrated: it may come a moment after the rest.
  await expect.poll(async () => solver(await contactScripts()), { timeout: 30_000 }).toBe(true);
  expect(solver(await homeScripts())).toBe(false);
  const contact = await contactScripts();
  const kib = [...contact.values()].reduce((sum, body) => sum + gzipSync(body).length / 1024, 0);
  expect(kib).toBeLessThanOrEqual(125);
});
