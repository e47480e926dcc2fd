import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createJobWorker } from "#app/domains/jobs/job-worker.server.ts";
import { listRecentMailFailures, recordMailFailure } from "#app/domains/mail/mail-failures.server.ts";
import { listOutbox, readOutboxMail } from "#app/domains/mail/outbox.server.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import { outboxIds, readOutboxRow, startSmtpServer, type TestSmtpServer } from "#tests/support/smtp-server.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import {
  createMailService,
  type MailServiceDeps,
  maskSecretsOf,
  runMailHousekeeping,
  startMailHousekeeping,
} from "./mail.server.ts";
import { MAIL_MAX_ATTEMPTS, mailJobKeyOf } from "./mail-job-payload.server.ts";
import { mailJobHandlers } from "./mail-jobs.server.ts";
import type { MailMessage } from "./mail-message.ts";

const JOB_KEY = mailJobKeyOf("mail-test-auth-secret-that-is-long-enough-0123456789");

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
    warn: (fields: object, message: string) => lines.push({ level: "warn", fields, message }),
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
      baseUrl: "https://site.example",
      readSiteName: async () => "Müllers Fotos",
      db: database.db,
      jobKey: JOB_KEY,
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

    // Recorded first as a job, done once delivered; its payload is sealed: no address, no link in the database.
    await mail.settled();
    const jobs = await database.db.selectFrom("jobs").select(["kind", "state", "attempts", "payload"]).execute();
    expect(jobs.map(({ kind, state, attempts }) => ({ kind, state, attempts }))).toEqual([
      { kind: "mail.send", state: "done", attempts: 1 },
    ]);
    expect(jobs[0]?.payload).not.toContain("abc123def456");
    expect(jobs[0]?.payload).not.toContain("reader@example.com");
  });

  it("files the mail in the outbox table without SMTP_URL, with a one-line notice and an event for open screens", async () => {
    const logger = captureLogger();
    const mail = service({ logger });
    expect(mail.mode).toBe("outbox");

    await mail.send(resetMessage({ language: "en", subject: "Reset your password" }));
    await mail.settled();

    const [id] = await outboxIds(database.db);
    if (!id) throw new Error("No outbox mail");
    // In the database, for every process: no file, no folder under DATA_DIR.
    expect(fs.existsSync(path.join(database.location.dataDir, "outbox"))).toBe(false);
    // Outbox screens open elsewhere learn of it (issue 19): an admins-only event naming the mail, not the address.
    const events = await database.db
      .selectFrom("change_events")
      .select(["area", "action", "entity_id", "audience"])
      .where("area", "=", "outbox")
      .execute();
    expect(events).toEqual([{ area: "outbox", action: "insert", entity_id: id, audience: "admins" }]);
    const parsed = await readOutboxRow(database.db, id);
    expect(parsed.from).toEqual({ name: "Müllers Fotos", address: "vitrine@site.example" });
    expect(parsed.text).toContain("https://site.example/auth/reset?token=abc123def456");
    expect(parsed.html).toContain('<html lang="en">');
    expect(parsed.language).toBe("en");

    // The Outbox screen's own reader agrees with mailparser, and its list names the mail.
    const read = await readOutboxMail(database.db, id);
    expect(read).toMatchObject({
      id,
      to: "reader@example.com",
      subject: "Reset your password",
      kind: "password-reset",
      language: "en",
      from: "Müllers Fotos <vitrine@site.example>",
    });
    expect(read?.text).toBe(parsed.text);
    expect(read?.html).toBe(parsed.html);
    const { entries, total } = await listOutbox(database.db);
    expect(total).toBe(1);
    expect(entries).toEqual([
      {
        id,
        filedAt: expect.any(String),
        to: "reader@example.com",
        from: "Müllers Fotos <vitrine@site.example>",
        subject: "Reset your password",
        kind: "password-reset",
        language: "en",
      },
    ]);
    expect(await readOutboxMail(database.db, "../vitrine.sqlite")).toBeUndefined();

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

  it("records a recipient that is no address at once, and an unreachable server after the last of its tries", async () => {
    const logger = captureLogger();
    const mail = service({ smtpUrl: "smtp://user:unreachable-pass-1234@127.0.0.1:1", logger });
    await mail.send(resetMessage());
    await mail.send(resetMessage({ to: "not an address" }));
    await mail.settled();
    // No second try makes an address of "not an address"; a server that does not answer may answer later.
    const failures = async () =>
      (await listRecentMailFailures(database.db, new Date())).map((failure) => failure.recipient).sort();
    expect(await failures()).toEqual(["not an address"]);
    const queued = await database.db
      .selectFrom("jobs")
      .select(["attempts", "last_error"])
      .where("state", "=", "queued")
      .executeTakeFirstOrThrow();
    expect(queued.attempts).toBe(1);
    expect(queued.last_error).toBeTruthy();
    expect(logger.lines.find((line) => line.level === "warn")?.fields).toMatchObject({ to: "reader@example.com" });

    // A job worker tries again (the queue's pause passed at once here) until the last try, which records it.
    const worker = createJobWorker({
      db: database.db,
      kind,
      handlers: mailJobHandlers(mail),
      logger,
      pollMs: 20,
    });
    await worker.start();
    try {
      await until(async () => {
        await database.db.updateTable("jobs").set({ run_at: new Date() }).where("state", "=", "queued").execute();
        return (await failures()).length === 2;
      });
    } finally {
      await worker.stop();
    }
    expect(await failures()).toEqual(["not an address", "reader@example.com"]);
    const jobs = await database.db.selectFrom("jobs").select(["state", "attempts", "last_error"]).execute();
    expect(jobs.map((job) => job.state)).toEqual(["done", "done"]);
    expect(Math.max(...jobs.map((job) => job.attempts))).toBe(MAIL_MAX_ATTEMPTS);
    expect(JSON.stringify(jobs)).not.toContain("unreachable-pass-1234");
    expect(logger.text()).not.toContain("unreachable-pass-1234");
  });
});

/** Polls until `done`, instead of a fixed wait a busy machine may outlast. */
async function until(done: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("Timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("masking the SMTP password", () => {
  it("masks it as written in the URL and decoded", () => {
    const mask = maskSecretsOf("smtps://me:p%40ss%2Fword@mail.example:465");
    expect(mask("failed for p@ss/word and p%40ss%2Fword")).toBe("failed for *** and ***");
    expect(maskSecretsOf(undefined)("nothing")).toBe("nothing");
  });
});

describe.each(databaseKinds)("mail housekeeping (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  /** A mail service without SMTP (mails are filed in the outbox), on the test's clock. */
  const outboxOnlyMail = (now: () => Date) =>
    createMailService({
      smtpUrl: undefined,
      from: "vitrine@site.example",
      baseUrl: "https://site.example",
      readSiteName: async () => "Site",
      db: database.db,
      jobKey: JOB_KEY,
      logger: captureLogger(),
      now,
    });

  it("moves the old outbox folder's mails into the table, and deletes outbox mails and failure records older than 30 days, at start and then daily by its clock", async () => {
    const outboxDir = path.join(database.location.dataDir, "outbox");
    const day = 24 * 60 * 60 * 1000;
    let clock = new Date("2026-03-01T12:00:00Z");
    const mail = outboxOnlyMail(() => clock);
    // A mail is filed at the time of its filing, by the service's clock.
    await mail.send(resetMessage({ kind: "first" }));
    await mail.settled();
    const [first] = await outboxIds(database.db);
    if (!first) throw new Error("No outbox mail");
    await recordMailFailure(database.db, {
      recipient: "a@b.test",
      kind: "first",
      subject: "s",
      reason: "r",
      at: clock,
    });
    // Controls two days older, due at the step below: once they are gone, a whole run has happened at that step.
    const earlier = new Date(clock.getTime() - 2 * day);
    clock = earlier;
    await mail.send(resetMessage({ kind: "control" }));
    await mail.settled();
    clock = new Date(earlier.getTime() + 2 * day);
    const control = (await outboxIds(database.db)).find((id) => id !== first);
    if (!control) throw new Error("No control outbox mail");
    await recordMailFailure(database.db, {
      recipient: "control@b.test",
      kind: "control",
      subject: "s",
      reason: "r",
      at: earlier,
    });
    // Mails an older version filed as files: one of a day ago, one past keeping, and a write a crash cut short.
    fs.mkdirSync(outboxDir, { mode: 0o700 });
    const legacy = "20260327-120000-000-invite-0badc0de.eml";
    const expired = "20260101-120000-000-invite-0dead000.eml";
    const legacyRaw = (subject: string) =>
      `From: Site <vitrine@site.example>\r\nTo: friend@example.test\r\nSubject: ${subject}\r\n` +
      `Content-Language: en\r\nX-Vitrine-Kind: invite\r\n\r\nYour code: https://site.example/auth?invite=x\r\n`;
    fs.writeFileSync(path.join(outboxDir, legacy), legacyRaw("Your invitation"), { mode: 0o600 });
    fs.writeFileSync(path.join(outboxDir, expired), legacyRaw("Long ago"), { mode: 0o600 });
    fs.writeFileSync(path.join(outboxDir, `.${legacy}.123.tmp`), "half", { mode: 0o600 });
    const legacyTime = new Date(earlier.getTime() + 29 * day - day);
    fs.utimesSync(path.join(outboxDir, legacy), legacyTime, legacyTime);
    fs.utimesSync(path.join(outboxDir, expired), new Date("2026-01-01"), new Date("2026-01-01"));
    const failureCount = async () => (await database.db.selectFrom("mail_failures").select("id").execute()).length;

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
      expect(await outboxIds(database.db)).toEqual([legacy, first]);
      expect(await failureCount()).toBe(1);
      // The folder's mail is now the table's, under its file name, filed at the file's time; the folder is gone.
      expect(fs.existsSync(outboxDir)).toBe(false);
      const moved = await readOutboxMail(database.db, legacy);
      expect(moved).toMatchObject({ to: "friend@example.test", subject: "Your invitation", kind: "invite" });
      expect(moved?.filedAt).toBe(legacyTime.toISOString());
      // Shown on the dashboard for 7 days only.
      expect(await listRecentMailFailures(database.db, clock)).toEqual([]);

      clock = new Date(clock.getTime() + 2 * day);
      await until(async () => (await failureCount()) === 0);
      expect(await outboxIds(database.db)).toEqual([legacy]);
      expect(await database.db.selectFrom("mail_failures").select("id").execute()).toHaveLength(0);
    } finally {
      stop();
    }
  });

  it("judges the outbox and the failure records of one run by one time, even when the clock moves during the run", async () => {
    const day = 24 * 60 * 60 * 1000;
    const filed = new Date("2026-03-01T12:00:00Z");
    const mail = outboxOnlyMail(() => filed);
    await mail.send(resetMessage({ kind: "first" }));
    await mail.settled();
    const kept = await outboxIds(database.db);
    expect(kept).toHaveLength(1);
    await recordMailFailure(database.db, {
      recipient: "a@b.test",
      kind: "first",
      subject: "s",
      reason: "r",
      at: filed,
    });
    const failureCount = async () => (await database.db.selectFrom("mail_failures").select("id").execute()).length;
    const deps = {
      outboxDir: path.join(database.location.dataDir, "outbox"),
      db: database.db,
      logger: captureLogger(),
    };

    // The run starts 29 days after the filing; by the time it reaches the failure records, 31 days have passed.
    let reads = 0;
    await runMailHousekeeping({ ...deps, now: () => new Date(filed.getTime() + (reads++ === 0 ? 29 : 31) * day) });
    expect(await outboxIds(database.db)).toEqual(kept);
    expect(await failureCount()).toBe(1);

    await runMailHousekeeping({ ...deps, now: () => new Date(filed.getTime() + 31 * day) });
    expect(await outboxIds(database.db)).toEqual([]);
    expect(await failureCount()).toBe(0);
  });
});

describe.each(databaseKinds)("many mails at once (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("are all filed, a few at a time", async () => {
    let reading = 0;
    let most = 0;
    const mail = createMailService({
      smtpUrl: undefined,
      from: "vitrine@site.example",
      baseUrl: "https://site.example",
      readSiteName: async () => {
        reading++;
        most = Math.max(most, reading);
        await new Promise((resolve) => setTimeout(resolve, 5));
        reading--;
        return "Site";
      },
      db: database.db,
      jobKey: JOB_KEY,
      logger: captureLogger(),
    });
    await Promise.all(
      Array.from({ length: 12 }, (_, index) => mail.send(resetMessage({ to: `r${index}@example.com` }))),
    );
    await mail.settled();
    const filed = await Promise.all((await outboxIds(database.db)).map((id) => readOutboxRow(database.db, id)));
    expect(filed.map((one) => one.to[0]).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `r${i}@example.com`).sort(),
    );
    expect(most).toBeLessThanOrEqual(3);
  });
});
