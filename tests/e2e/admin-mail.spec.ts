import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import type { AppDatabase } from "#app/db/database.server.ts";
import { createMailService } from "#app/domains/mail/mail.server.ts";
import { mailJobKeyOf } from "#app/domains/mail/mail-job-payload.server.ts";
import { uniqueEmail } from "#tests/support/factories.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import { openAsNewAdmin, toast } from "./admin-site-helpers.ts";
import { AXE_TAGS, expectNoViolations } from "./axe.ts";
import { collectCspViolations } from "./csp-violations.ts";
import { E2E_SECRET } from "./e2e-env.ts";
import { E2E_BASE_URL, expect, setPreferences, test } from "./fixtures.ts";

// The browser tests' server runs without SMTP_URL: every mail lands in the outbox.
// Each story signs in, posts forms and runs axe on several pages: on a loaded machine that takes its time.
test.describe.configure({ timeout: 120_000 });

/** Files a mail in the server's outbox as the server would (quicker than going through a form); its subject. */
async function fileResetMail(database: AppDatabase): Promise<string> {
  const subject = `Reset your password ${randomUUID().slice(0, 8)}`;
  const mail = createMailService({
    smtpUrl: undefined,
    from: "vitrine@127.0.0.1",
    baseUrl: E2E_BASE_URL,
    readSiteName: async () => "Vitrine",
    db: database.db,
    // Sealed as the server seals its own: were this mail left in the queue, the server's worker could deliver it.
    jobKey: mailJobKeyOf(E2E_SECRET),
    logger: { info: () => {}, warn: () => {}, error: () => {} },
  });
  await mail.send({
    to: uniqueEmail("reset"),
    language: "en",
    kind: "password-reset",
    subject,
    paragraphs: ["Someone asked to reset the password of this account.", "The link works for one hour."],
    action: { label: "Choose a new password", url: `${E2E_BASE_URL}/auth/reset?token=${randomUUID()}` },
    footer: ["If that was not you, ignore this mail."],
  });
  await mail.settled();
  return subject;
}

// collectCspViolations adds a listener script to every frame; the mail's sandboxed frame (no scripts, by design)
// refuses it, and Chromium says so on the console. The mail itself carries no script (mail.server.test.ts).
test.use({
  allowedBrowserErrors: [/Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/],
});

test("an invite sent by e-mail is filed in the outbox, listed as sent, and readable there", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  const violations = await collectCspViolations(page);
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/invites");
  const email = uniqueEmail("invited");

  const send = page.getByRole("region", { name: "Send a code by e-mail" });
  await expect(send).toContainText("SMTP_URL is not set");
  // A bad address is refused at the field, and nothing is created.
  await send.getByLabel("E-mail address").fill("not an address");
  // The browser's own check of the email field would stop the form before the server sees it; switched off on the
  // form (not by changing the field's type: React sets a field's type again on every render, and this list
  // re-renders whenever another admin's change arrives live, which in CI left the browser's check on).
  await send.getByLabel("E-mail address").evaluate((input: HTMLInputElement) => {
    if (input.form) input.form.noValidate = true;
  });
  await send.getByRole("button", { name: "Send by e-mail" }).click();
  await expect(send.getByText("Enter an e-mail address such as name@example.com.")).toBeVisible();
  await expect(send.getByLabel("E-mail address")).toHaveAttribute("aria-invalid", "true");

  await send.getByLabel("E-mail address").fill(email);
  await send.getByLabel("Language of the mail").selectOption("de");
  await send.getByRole("button", { name: "Send by e-mail" }).click();
  await expect(toast(page, new RegExp(`for ${email} filed in the outbox`))).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: `sent to ${email}` });
  await expect(row).toHaveCount(1);
  const code = ((await row.getByRole("rowheader").textContent()) ?? "").replace(/new$/, "").trim();
  noteSecret(code);
  const stored = await database.db
    .selectFrom("invite_codes")
    .select("note")
    .where("code", "=", code)
    .executeTakeFirstOrThrow();
  expect(stored.note).toBe(email);

  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Outbox" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  await expect(page.getByTestId("outbox-mode")).toContainText("SMTP_URL is not set");
  const listed = page.getByRole("row").filter({ hasText: email });
  await expect(listed).toContainText("invite");
  await listed.getByRole("link", { name: "Ihre Einladung zu Vitrine" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Ihre Einladung zu Vitrine" })).toBeVisible();
  await expect(page.getByText(`Vitrine <vitrine@127.0.0.1>`)).toBeVisible();
  const link = `${E2E_BASE_URL}/auth?invite=${code}`;
  await expect(page.getByTestId("mail-text")).toContainText(link);
  await expect(page.getByTestId("mail-text")).toContainText("Sie wurden eingeladen, ein Konto bei Vitrine anzulegen.");
  const frame = page.getByTitle("The mail's HTML part");
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(
    page.frameLocator('iframe[title="The mail\'s HTML part"]').getByRole("link", { name: "Konto anlegen" }),
  ).toHaveAttribute("href", link);
  expect(violations).toEqual([]);

  await page.getByRole("link", { name: "Back to the outbox" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
});

test("a failed delivery shows on the dashboard until it is dismissed", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  const recipient = uniqueEmail("bounced");
  await database.db
    .insertInto("mail_failures")
    .values({
      recipient,
      kind: "password-reset",
      subject: "Reset your password",
      reason: "550 Mailbox unavailable",
      created_at: new Date(),
    })
    .execute();
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin");
  await expect(page.getByTestId("mail-status")).toContainText("Outbox only");
  const failures = page.getByTestId("mail-failures");
  await expect(failures).toContainText(recipient);
  await expect(failures).toContainText("550 Mailbox unavailable");
  await failures.getByRole("button", { name: "Dismiss these notices" }).click();
  await expect(toast(page, "The notices of failed deliveries are dismissed.")).toBeVisible();
  await expect(page.getByText(recipient)).toHaveCount(0);
});

test("a non-admin gets 403 on the Outbox screen", async ({ page, makeUser, signInAs }) => {
  await signInAs(page, await makeUser());
  const response = await page.goto("/admin/outbox");
  expect(response?.status()).toBe(403);
});

for (const theme of ["light", "dark"] as const) {
  test.describe(`the mail screens, axe-core, ${theme} theme`, () => {
    test.beforeEach(async ({ page, database }) => {
      await setPreferences(page, { theme });
      await database.db
        .insertInto("mail_failures")
        .values({
          recipient: uniqueEmail("axe"),
          kind: "invite",
          subject: "Your invitation",
          reason: "Connection refused",
          created_at: new Date(),
        })
        .execute();
    });

    test("invites with the send form, and the dashboard with a failed delivery", async ({
      page,
      makeUser,
      signInAs,
    }) => {
      await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/invites");
      await expect(page.locator("html")).toHaveClass(theme);
      const send = page.getByRole("region", { name: "Send a code by e-mail" });
      await send.getByLabel("E-mail address").fill(uniqueEmail("axe-invite"));
      await send.getByRole("button", { name: "Send by e-mail" }).click();
      await expect(toast(page, /filed in the outbox/)).toBeVisible();
      await expectNoViolations(page, `/admin/invites with a sent invite (${theme})`);

      await page.goto("/admin");
      await expect(page.getByTestId("mail-failures")).toBeVisible();
      await expectNoViolations(page, `/admin dashboard with a failed delivery (${theme})`);
    });

    test("the outbox and one mail", async ({ page, makeUser, signInAs, database }) => {
      const subject = await fileResetMail(database);
      await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/outbox");
      await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
      await expectNoViolations(page, `/admin/outbox (${theme})`);
      await page.getByRole("link", { name: subject }).click();
      await expect(page.getByRole("heading", { level: 2, name: "Text part" })).toBeVisible();
      await expect(page.getByTitle("The mail's HTML part")).toBeVisible();
      // axe cannot run inside the mail's frame: it is sandboxed so that no script runs there, axe's included
      // (injecting it hangs now and then). The page around it is checked; the frame has its title (above).
      const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).exclude("iframe").analyze();
      expect(
        results.violations.map((violation) => ({ rule: violation.id, nodes: violation.nodes.map((n) => n.target) })),
        `axe violations on /admin/outbox/:id (${theme})`,
      ).toEqual([]);
    });

    test("the outbox in German", async ({ page, makeUser, signInAs, database }) => {
      await fileResetMail(database);
      await setPreferences(page, { lang: "de" });
      await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/outbox");
      await expect(page.getByRole("heading", { level: 1, name: "Postausgang" })).toBeVisible();
      await expectNoViolations(page, `/admin/outbox in German (${theme})`);
    });
  });
}
