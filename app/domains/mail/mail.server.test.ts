import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listRecentMailFailures, recordMailFailure } from "#app/domains/mail/mail-failures.server.ts";
import { readOutboxMail } from "#app/domains/mail/outbox.server.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import { outboxFiles, readEmlFile, startSmtpServer, type TestSmtpServer } from "#tests/support/smtp-server.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { createMailService, type MailServiceDeps, maskSecretsOf, startMailHousekeeping } from "./mail.server.ts";
import type { MailMessage } from "./mail-message.ts";

const SMTP_PASSWORD = "smtp-pass-W0rd/with:odd@chars";

function resetMessage(overrides: Partial<MailMessage> = {}): MailMessage {
  return {
    to: "reader@example.com",
    language: "de",
    kind: "password-reset",
    subject: "Passwort zurücksetzen für <Vitrine>",
    paragraphs: ["Jemand möchte Ihr Passwort zurücksetzen.", 'Ein <b>"Test"</b> & mehr.'],
    action: { label: "Neues Passwort wählen", url: "https://site.example/auth/reset?token=abc123def456" },
    footer: ["Wenn Sie das nicht waren, ignorieren Sie diese Mail."],
    ...overrides,
  };
}

function captureLogger() {
  const lines: { level: string; fields: object; message: string }[] = [];
  return {
    lines,
    text: () => JSON.stringify(lines),
    info: (fields: object, message: string) => lines.push({ level: "info", fields, message }),
    error: (fields: object, message: string) => lines.push({ level: "error", fields, message }),
  };
}

describe.each(databaseKinds)("the mail service (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  let smtp: TestSmtpServer | undefined;
  afterEach(async () => {
    await smtp?.close();
    smtp = undefined;
  });

  function service(overrides: Partial<MailServiceDeps> & { logger: MailServiceDeps["logger"] }) {
    return createMailService({
      smtpUrl: undefined,
      from: "vitrine@site.example",
      outboxDir: path.join(database.location.dataDir, "outbox"),
      baseUrl: "https://site.example",
      readSiteName: async () => "Müllers Fotos",
      db: database.db,
      smtpTimeoutMs: 3000,
      ...overrides,
    });
  }

  it("delivers through SMTP with a text and an HTML part, the site name as sender, the language and the link", async () => {
    smtp = await startSmtpServer({ auth: { user: "mailer", password: SMTP_PASSWORD } });
    const logger = captureLogger();
    const mail = service({ smtpUrl: smtp.url, logger });
    expect(mail.mode).toBe("smtp");

    await mail.send(resetMessage());
    const received = await smtp.waitForMail((m) => m.to.includes("reader@example.com"));

    expect(received.from).toEqual({ name: "Müllers Fotos", address: "vitrine@site.example" });
    expect(received.subject).toBe("Passwort zurücksetzen für <Vitrine>");
    expect(received.language).toBe("de");
    expect(received.text).toContain("Jemand möchte Ihr Passwort zurücksetzen.");
    expect(received.text).toContain("https://site.example/auth/reset?token=abc123def456");
    expect(received.text).toContain("Neues Passwort wählen:\nhttps://site.example/auth/reset?token=");
    expect(received.html).toContain("Falls die Schaltfläche nicht funktioniert");
    expect(received.html).toContain('<html lang="de">');
    expect(received.html).toContain('href="https://site.example/auth/reset?token=abc123def456"');
    expect(received.html).toContain("Ein &lt;b&gt;&quot;Test&quot;&lt;/b&gt; &amp; mehr.");
    expect(received.html).not.toContain("<b>");
    // Nothing is loaded from anywhere: no images, style sheets or scripts.
    expect(received.html).not.toMatch(/<img|<link|<script|src=/i);
    expect(received.headers.has("x-vitrine-kind")).toBe(false);
    expect(logger.text()).not.toContain(SMTP_PASSWORD);
    expect(logger.text()).not.toContain("abc123def456");
    expect(await listRecentMailFailures(database.db, new Date())).toEqual([]);
  });

  it("files the mail in the outbox without SMTP_URL, privately, with a one-line notice", async () => {
    const logger = captureLogger();
    const mail = service({ logger });
    expect(mail.mode).toBe("outbox");

    await mail.send(resetMessage({ language: "en", subject: "Reset your password" }));
    await mail.settled();

    const [file] = await outboxFiles(database.location.dataDir);
    if (!file) throw new Error("No outbox file");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Outbox screens open elsewhere learn of it (issue 19): an admins-only event naming the file, not the address.
    const events = await database.db
      .selectFrom("change_events")
      .select(["area", "action", "entity_id", "audience"])
      .where("area", "=", "outbox")
      .execute();
    expect(events).toEqual([{ area: "outbox", action: "insert", entity_id: path.basename(file), audience: "admins" }]);
    const parsed = await readEmlFile(file);
    expect(parsed.from).toEqual({ name: "Müllers Fotos", address: "vitrine@site.example" });
    expect(parsed.text).toContain("https://site.example/auth/reset?token=abc123def456");
    expect(parsed.html).toContain('<html lang="en">');
    expect(parsed.language).toBe("en");

    // The Outbox screen's own reader agrees with mailparser.
    const read = await readOutboxMail(path.dirname(file), path.basename(file));
    expect(read).toMatchObject({
      to: "reader@example.com",
      subject: "Reset your password",
      kind: "password-reset",
      language: "en",
      from: "Müllers Fotos <vitrine@site.example>",
    });
    expect(read?.text).toBe(parsed.text);
    expect(read?.html).toBe(parsed.html);

    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]?.fields).toMatchObject({ to: "reader@example.com", subject: "Reset your password" });
    expect(logger.text()).not.toContain("abc123def456");
  });

  it("records a refused delivery with its reason, masks the password, and still resolves", async () => {
    smtp = await startSmtpServer({ auth: { user: "mailer", password: SMTP_PASSWORD }, reject: "Mailbox full" });
    const logger = captureLogger();
    const mail = service({ smtpUrl: smtp.url, logger });

    await expect(mail.send(resetMessage())).resolves.toBeUndefined();
    await mail.settled();

    const failures = await listRecentMailFailures(database.db, new Date());
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ recipient: "reader@example.com", kind: "password-reset" });
    expect(failures[0]?.reason).toContain("Mailbox full");
    expect(logger.lines.find((line) => line.level === "error")?.fields).toMatchObject({ to: "reader@example.com" });
    expect(smtp.mails).toHaveLength(0);
  });

  it("records a failed login without the password anywhere", async () => {
    smtp = await startSmtpServer({ auth: { user: "mailer", password: SMTP_PASSWORD } });
    const wrongPassword = "wrong-secret-password-9876";
    noteSecret(wrongPassword);
    const logger = captureLogger();
    const url = smtp.url.replace(encodeURIComponent(SMTP_PASSWORD), wrongPassword);
    const mail = service({ smtpUrl: url, logger });

    await mail.send(resetMessage());
    await mail.settled();

    const [failure] = await listRecentMailFailures(database.db, new Date());
    expect(failure?.reason).toMatch(/auth|login|credentials|535/i);
    expect(JSON.stringify(failure)).not.toContain(wrongPassword);
    expect(logger.text()).not.toContain(wrongPassword);
  });

  it("records an unreachable server, and a recipient that is no address", async () => {
    const logger = captureLogger();
    const mail = service({ smtpUrl: "smtp://user:unreachable-pass-1234@127.0.0.1:1", logger });
    await mail.send(resetMessage());
    await mail.send(resetMessage({ to: "not an address" }));
    await mail.settled();
    const failures = await listRecentMailFailures(database.db, new Date());
    expect(failures.map((failure) => failure.recipient).sort()).toEqual(["not an address", "reader@example.com"]);
    expect(logger.text()).not.toContain("unreachable-pass-1234");
  });
});

describe("masking the SMTP password", () => {
  it("masks it as written in the URL and decoded", () => {
    const mask = maskSecretsOf("smtps://me:p%40ss%2Fword@mail.example:465");
    expect(mask("failed for p@ss/word and p%40ss%2Fword")).toBe("failed for *** and ***");
    expect(maskSecretsOf(undefined)("nothing")).toBe("nothing");
  });
});

describe.each(databaseKinds)("mail housekeeping (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("deletes outbox files and failure records older than 30 days, at start and then daily by its clock", async () => {
    const outboxDir = path.join(database.location.dataDir, "outbox");
    const day = 24 * 60 * 60 * 1000;
    let clock = new Date("2026-03-01T12:00:00Z");
    const mail = createMailService({
      smtpUrl: undefined,
      from: "vitrine@site.example",
      outboxDir,
      baseUrl: "https://site.example",
      readSiteName: async () => "Site",
      db: database.db,
      logger: captureLogger(),
      now: () => clock,
    });
    await mail.send(resetMessage({ kind: "first" }));
    await mail.settled();
    const [first] = await outboxFiles(database.location.dataDir);
    if (!first) throw new Error("No outbox file");
    // The file's own time is what counts; the test sets it to the clock's.
    fs.utimesSync(first, clock, clock);
    await recordMailFailure(database.db, {
      recipient: "a@b.test",
      kind: "first",
      subject: "s",
      reason: "r",
      at: clock,
    });
    // Controls two days older, due at the step below: once they are gone, a whole run has happened at that step.
    const earlier = new Date(clock.getTime() - 2 * day);
    await mail.send(resetMessage({ kind: "control" }));
    await mail.settled();
    const control = (await outboxFiles(database.location.dataDir)).find((file) => file !== first);
    if (!control) throw new Error("No control outbox file");
    fs.utimesSync(control, earlier, earlier);
    await recordMailFailure(database.db, {
      recipient: "control@b.test",
      kind: "control",
      subject: "s",
      reason: "r",
      at: earlier,
    });
    const failureCount = async () => (await database.db.selectFrom("mail_failures").select("id").execute()).length;
    /** Polls until `done`, instead of a fixed wait a busy machine may outlast. */
    async function until(done: () => Promise<boolean> | boolean) {
      const deadline = Date.now() + 3000;
      while (!(await done()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    }

    clock = new Date(clock.getTime() + 29 * day);
    const stop = startMailHousekeeping({
      outboxDir,
      db: database.db,
      logger: captureLogger(),
      now: () => clock,
      intervalMs: 50,
    });
    try {
      // The run that removed the controls (the outbox first, then the failures) kept the younger ones.
      await until(async () => (await failureCount()) === 1);
      expect(fs.existsSync(control)).toBe(false);
      expect(await failureCount()).toBe(1);
      expect(fs.existsSync(first)).toBe(true);
      expect(await database.db.selectFrom("mail_failures").select("id").execute()).toHaveLength(1);
      // Shown on the dashboard for 7 days only.
      expect(await listRecentMailFailures(database.db, clock)).toEqual([]);

      clock = new Date(clock.getTime() + 2 * day);
      await until(() => !fs.existsSync(first));
      expect(fs.existsSync(first)).toBe(false);
      await until(async () => (await failureCount()) === 0);
      expect(await database.db.selectFrom("mail_failures").select("id").execute()).toHaveLength(0);
    } finally {
      stop();
    }
  });
});

describe("many mails at once", () => {
  it("are all filed, a few at a time", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-outbox-"));
    try {
      let reading = 0;
      let most = 0;
      const mail = createMailService({
        smtpUrl: undefined,
        from: "vitrine@site.example",
        outboxDir: dir,
        baseUrl: "https://site.example",
        readSiteName: async () => {
          reading++;
          most = Math.max(most, reading);
          await new Promise((resolve) => setTimeout(resolve, 5));
          reading--;
          return "Site";
        },
        db: undefined as never,
        logger: captureLogger(),
      });
      await Promise.all(
        Array.from({ length: 12 }, (_, index) => mail.send(resetMessage({ to: `r${index}@example.com` }))),
      );
      await mail.settled();
      expect(fs.readdirSync(dir).filter((name) => name.endsWith(".eml"))).toHaveLength(12);
      expect(most).toBeLessThanOrEqual(3);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
