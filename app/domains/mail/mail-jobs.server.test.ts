import { afterEach, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { enqueueClaimedJob, enqueueJob } from "#app/domains/jobs/job-queue.server.ts";
import { createJobWorker, type JobWorker } from "#app/domains/jobs/job-worker.server.ts";
import { listRecentMailFailures } from "#app/domains/mail/mail-failures.server.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import { outboxIds, startSmtpServer, type TestSmtpServer } from "#tests/support/smtp-server.ts";
import { databaseKinds, type TestDatabase, useTestDatabase } from "#tests/support/test-database.ts";
import { createMailService, type MailServiceDeps } from "./mail.server.ts";
import { MAIL_MAX_ATTEMPTS, MAIL_SEND_JOB, mailJobKeyOf, openMailJob, sealMailJob } from "./mail-job-payload.server.ts";
import { mailJobHandlers } from "./mail-jobs.server.ts";
import type { MailMessage } from "./mail-message.ts";
import { outboxIdFor } from "./outbox.server.ts";

/**
 * Mail as durable jobs (issue 20): a mail is a `mail.send` row before it is delivered, so a passing refusal is tried
 * again, a process that dies hands its mails on, and no two processes send one mail; real SMTP servers and real
 * workers on both databases.
 */
const JOB_KEY = mailJobKeyOf("mail-jobs-test-auth-secret-that-is-long-enough-42");
const SMTP_PASSWORD = "jobs-smtp-Pass/w0rd:x";
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

function message(to: string): MailMessage {
  return {
    to,
    language: "en",
    kind: "password-reset",
    subject: "Reset your password",
    paragraphs: ["Someone asked to reset the password of this account."],
    action: { label: "Choose a new password", url: "https://site.example/auth/reset?token=tok3n-in-a-mail" },
  };
}

/** Polls until `done`, instead of a fixed wait a busy machine may outlast. */
async function until(done: () => Promise<boolean> | boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("Timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(databaseKinds)("mail as jobs (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function smtpServer(): Promise<TestSmtpServer> {
    const smtp = await startSmtpServer({ auth: { user: "mailer", password: SMTP_PASSWORD } });
    cleanup.push(() => smtp.close());
    return smtp;
  }

  /** A mail service and its job worker on `db`, as one server process holds them. */
  async function startProcess(db: TestDatabase["db"], deps: Partial<MailServiceDeps> = {}, worker = true) {
    const mail = createMailService({
      smtpUrl: undefined,
      from: "vitrine@site.example",
      baseUrl: "https://site.example",
      readSiteName: async () => "Site",
      db,
      jobKey: JOB_KEY,
      logger: quiet,
      smtpTimeoutMs: 3000,
      ...deps,
    });
    let jobs: JobWorker | undefined;
    if (worker) {
      jobs = createJobWorker({ db, kind, handlers: mailJobHandlers(mail), logger: quiet, pollMs: 20 });
      await jobs.start();
    }
    cleanup.push(async () => {
      await jobs?.stop();
      await mail.close();
    });
    return { mail, worker: jobs };
  }

  /** Another connection to the same database, as another server process has. */
  function secondConnection(): AppDatabase {
    const { databaseUrl, sqliteFile } = database.location;
    const other = openDatabase(databaseUrl ? { databaseUrl } : { sqliteFile });
    cleanup.push(() => other.close());
    return other;
  }

  const jobRows = () =>
    database.db.selectFrom("jobs").select(["state", "attempts", "locked_by", "last_error", "payload"]).execute();
  const passTheQueuesPause = () =>
    database.db
      .updateTable("jobs")
      .set({ run_at: new Date(Date.now() - 1000) })
      .where("state", "=", "queued")
      .execute();

  it("delivers a mail refused for a passing reason on a later try, exactly once", async () => {
    const smtp = await smtpServer();
    smtp.rejectMessages("Greylisted, try again later", 451);
    const { mail } = await startProcess(database.db, { smtpUrl: smtp.url });

    await mail.send(message("reader@example.com"));
    await mail.settled();
    // Refused once and back in the queue with the reason, nothing recorded as failed.
    expect(smtp.refused).toBe(1);
    expect(smtp.mails).toHaveLength(0);
    const [waiting] = await jobRows();
    expect(waiting).toMatchObject({ state: "queued", attempts: 1 });
    expect(waiting?.last_error).toContain("Greylisted");
    expect(await listRecentMailFailures(database.db, new Date())).toEqual([]);

    smtp.rejectMessages(false);
    await passTheQueuesPause();
    const received = await smtp.waitForMail((m) => m.to.includes("reader@example.com"));
    expect(received.text).toContain("https://site.example/auth/reset?token=tok3n-in-a-mail");
    await until(async () => (await jobRows())[0]?.state === "done");
    // Given time for a second delivery, none comes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails).toHaveLength(1);
    expect((await jobRows())[0]).toMatchObject({ state: "done", attempts: 2 });
    expect(await listRecentMailFailures(database.db, new Date())).toEqual([]);
  });

  it("hands on a mail whose process stopped before delivering it, once its hold has run out", async () => {
    const smtp = await smtpServer();
    // What a process that died leaves: the mail recorded and claimed by it, never delivered, never renewed.
    const at = new Date();
    const sealed = sealMailJob(JOB_KEY, {
      id: outboxIdFor("password-reset", at),
      at: at.toISOString(),
      message: message("orphan@example.com"),
    });
    const job = { kind: MAIL_SEND_JOB, lane: "default" as const, maxAttempts: MAIL_MAX_ATTEMPTS, payload: sealed };
    const leaseMs = 30_000;
    await enqueueClaimedJob(database.db, job, { worker: "dead:1", leaseMs }, new Date(Date.now() - leaseMs - 1000));
    // Another still held: its process is alive (renewing), so nobody else takes it.
    await enqueueClaimedJob(
      database.db,
      {
        ...job,
        payload: sealMailJob(JOB_KEY, {
          id: outboxIdFor("password-reset", at),
          at: at.toISOString(),
          message: message("held@example.com"),
        }),
      },
      { worker: "alive:2", leaseMs },
    );

    const { worker } = await startProcess(database.db, { smtpUrl: smtp.url });
    await smtp.waitForMail((m) => m.to.includes("orphan@example.com"));
    await until(async () => (await jobRows()).some((row) => row.state === "done"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.map((m) => m.to)).toEqual([["orphan@example.com"]]);
    const rows = await jobRows();
    expect(rows.map((row) => [row.state, row.locked_by]).sort()).toEqual([
      ["done", null],
      ["running", "alive:2"],
    ]);
    expect(worker?.id).not.toBe("dead:1");
  });

  it("sends every mail once with two processes working the queue, whoever claims it", async () => {
    const smtp = await smtpServer();
    const other = secondConnection();
    // Mails in the queue (handed back by a stopping process), and mails sent meanwhile by both processes.
    const queued = Array.from({ length: 8 }, (_, i) => `queued${i}@example.com`);
    for (const to of queued) {
      const at = new Date();
      await enqueueJob(database.db, {
        kind: MAIL_SEND_JOB,
        maxAttempts: MAIL_MAX_ATTEMPTS,
        payload: sealMailJob(JOB_KEY, { id: outboxIdFor("invite", at), at: at.toISOString(), message: message(to) }),
      });
    }
    const first = await startProcess(database.db, { smtpUrl: smtp.url });
    const second = await startProcess(other.db, { smtpUrl: smtp.url });
    const sent = Array.from({ length: 6 }, (_, i) => `sent${i}@example.com`);
    sent.forEach((to, i) => void (i % 2 === 0 ? first : second).mail.send(message(to)));
    await first.mail.settled();
    await second.mail.settled();

    const everyone = [...queued, ...sent].sort();
    await until(() => smtp.mails.length >= everyone.length);
    await until(async () => (await jobRows()).every((row) => row.state === "done"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.flatMap((m) => m.to).sort()).toEqual(everyone);
  });

  it("hands the mails still waiting for their turn back to the queue when it stops, and another process files them once", async () => {
    // Slow deliveries: three at a time, the rest wait for their turn.
    const slowName = () => new Promise<string>((resolve) => setTimeout(() => resolve("Site"), 1500));
    const { mail } = await startProcess(database.db, { readSiteName: slowName }, false);
    for (let i = 0; i < 7; i++) void mail.send(message(`wait${i}@example.com`));
    await until(async () => (await jobRows()).length === 7);

    await mail.close(5_000);
    // Those under way were filed; the rest are back in the queue, untried, for any process.
    const afterStop = await jobRows();
    expect(afterStop.filter((row) => row.state === "done")).toHaveLength(3);
    const returned = afterStop.filter((row) => row.state === "queued");
    expect(returned).toHaveLength(4);
    expect(returned.every((row) => row.attempts === 0 && row.locked_by === null)).toBe(true);
    expect(await outboxIds(database.db)).toHaveLength(3);

    await startProcess(secondConnection().db);
    await until(async () => (await jobRows()).every((row) => row.state === "done"));
    const filed = await database.db.selectFrom("outbox_mails").select("recipient").execute();
    expect(filed.map((row) => row.recipient).sort()).toEqual(
      Array.from({ length: 7 }, (_, i) => `wait${i}@example.com`).sort(),
    );
  });

  it("keeps the mail sealed in the queue: no address or link in the row, and no opening it with another secret", async () => {
    noteSecret("tok3n-in-a-mail");
    const { mail } = await startProcess(database.db, {}, false);
    await mail.send(message("sealed@example.com"));
    await mail.settled();
    const [row] = await jobRows();
    expect(row?.payload).not.toContain("sealed@example.com");
    expect(row?.payload).not.toContain("tok3n");
    const payload = JSON.parse(row?.payload ?? "{}") as unknown;
    expect(openMailJob(JOB_KEY, payload).message.to).toBe("sealed@example.com");
    expect(() => openMailJob(mailJobKeyOf("another-secret-of-another-site-entirely-0000"), payload)).toThrow(
      "sealed with another AUTH_SECRET",
    );
    expect(() => openMailJob(JOB_KEY, { v: 1, sealed: "AAAA" })).toThrow();
  });
});
