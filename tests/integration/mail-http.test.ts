import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import {
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
  visibleText,
} from "#tests/support/admin-server.ts";
import { expectErrorLog } from "#tests/support/error-logs.ts";
import { createUser, uniqueEmail } from "#tests/support/factories.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import { postForm, request, type ServerProcess, startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { outboxIds, readNewestOutboxMail, startSmtpServer, type TestSmtpServer } from "#tests/support/smtp-server.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

const SMTP_USER = "vitrine-mailer";
const SMTP_PASSWORD = "Smtp-Secret/Pass:42@x";

const getWithCookie = (server: ServerProcess, pathname: string, cookie: string) =>
  request(server.url(pathname), { headers: { Cookie: cookie } });

async function inviteCount(database: TestDatabase): Promise<number> {
  const rows = await database.db.selectFrom("invite_codes").select("code").where("grants_role", "is", null).execute();
  return rows.length;
}

describe.each(databaseKinds)("mail through SMTP over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let smtp: TestSmtpServer;
  let adminCookie: string;

  beforeAll(async () => {
    smtp = await startSmtpServer({ auth: { user: SMTP_USER, password: SMTP_PASSWORD } });
    ({ database, server } = await startServerOnFreshDatabase(kind, {
      SMTP_URL: smtp.url,
      MAIL_FROM: "site@example.test",
    }));
    ({ adminCookie } = await signedInAdminAndMember(database));
    await database.db
      .updateTable("site_settings")
      .set({ value: "Anna's Fotos" })
      .where("key", "=", "site_name")
      .execute();
  });

  afterAll(async () => {
    await stopServerAndDatabase(server, database);
    await smtp.close();
  });

  it("mails an invite in the chosen language, with the site name as sender and an absolute link", async () => {
    const response = await postForm(
      server,
      "/admin/invites",
      { intent: "send", email: "friend@example.test", language: "de" },
      { cookie: adminCookie },
    );
    expect(response.status).toBe(200);
    expect(visibleText(response.body)).toContain("sent to friend@example.test");

    const mail = await smtp.waitForMail((m) => m.to.includes("friend@example.test"));
    const row = await database.db
      .selectFrom("invite_codes")
      .select(["code", "note", "sent_to"])
      .where("sent_to", "=", "friend@example.test")
      .executeTakeFirstOrThrow();
    noteSecret(row.code);
    expect(row.note).toBe("friend@example.test");
    expect(mail.from).toEqual({ name: "Anna's Fotos", address: "site@example.test" });
    expect(mail.language).toBe("de");
    expect(mail.subject).toBe("Ihre Einladung zu Anna's Fotos");
    const link = `${server.origin}/auth?invite=${row.code}`;
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain("Anna&#39;s Fotos");

    // The link opens the sign-up form with the code filled in.
    const signUp = await request(link);
    expect(signUp.status).toBe(200);
    expect(signUp.body).toContain(`value="${row.code}"`);

    const list = visibleText((await getWithCookie(server, "/admin/invites", adminCookie)).body);
    expect(list).toContain("sent to friend@example.test");
    const { records } = await listAudit(database.db, { action: "invites." });
    expect(
      records
        .filter((r) => r.target === row.code)
        .map((r) => r.action)
        .sort(),
    ).toEqual(["invites.create", "invites.send"]);
  });

  it("keeps the longest address a mail server accepts whole, as the code's note and where it was sent", async () => {
    const longest = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(56)}.test`;
    expect(longest).toHaveLength(254);
    const refused = expectErrorLog('"msg":"Mail could not be delivered"');
    const response = await postForm(
      server,
      "/admin/invites",
      { intent: "send", email: longest, language: "en" },
      { cookie: adminCookie },
    );
    expect(response.status).toBe(200);
    const row = await database.db
      .selectFrom("invite_codes")
      .select(["code", "note", "sent_to"])
      .where("sent_to", "=", longest)
      .executeTakeFirstOrThrow();
    noteSecret(row.code);
    expect(row.note).toBe(longest);
    const list = visibleText((await getWithCookie(server, "/admin/invites", adminCookie)).body);
    expect(list).toContain(`sent to ${longest}`);
    // Whether the mail goes through is the mail server's business (this test server refuses so long an address);
    // its refusal is logged within this test (declared before the request), not in the next one's.
    const bounce = await server.waitForLogLine(
      (line) => line.msg === "Mail could not be delivered" && line.to === longest,
      10_000,
    );
    expect(bounce).toBeDefined();
    expect(refused.lines).toHaveLength(1);
  });

  it("refuses a bad address with a field error and creates nothing", async () => {
    const before = await inviteCount(database);
    for (const email of ["not-an-address", "", "a@b@c.test", `${"x".repeat(250)}@example.test`]) {
      const response = await postForm(
        server,
        "/admin/invites",
        { intent: "send", email, language: "en" },
        { cookie: adminCookie },
      );
      expect(response.status).toBe(400);
      expect(visibleText(response.body)).toContain("Enter an e-mail address such as name@example.com.");
    }
    const badLanguage = await postForm(
      server,
      "/admin/invites",
      { intent: "send", email: "ok@example.test", language: "fr" },
      { cookie: adminCookie },
    );
    expect(badLanguage.status).toBe(400);
    expect(await inviteCount(database)).toBe(before);
  });

  it("shows SMTP on the dashboard and the Outbox screen, the password masked", async () => {
    const dashboard = visibleText((await getWithCookie(server, "/admin", adminCookie)).body);
    expect(dashboard).toContain(`Mail is sent through SMTP (smtp://${SMTP_USER}:***@127.0.0.1:${smtp.port})`);
    const outbox = visibleText((await getWithCookie(server, "/admin/outbox", adminCookie)).body);
    expect(outbox).toContain("Mail is sent through SMTP");
    expect(outbox).toContain("The outbox is empty.");
    expect(outbox).not.toContain(SMTP_PASSWORD);
    expect(server.stdout).toContain("Mail is sent through SMTP");
    expect(server.stdout).toContain(`smtp://${SMTP_USER}:***@127.0.0.1:${smtp.port}`);
    expect((await server.writtenStdout()) + server.stderr).not.toContain(SMTP_PASSWORD);
    expect(server.stdout + server.stderr).not.toContain(encodeURIComponent(SMTP_PASSWORD));
  });

  it("logs a refused delivery with its reason, shows it on the dashboard until dismissed, and the answer is the same", async () => {
    smtp.rejectMessages("Mailbox unavailable for testing");
    expectErrorLog('"msg":"Mail could not be delivered"');
    try {
      const response = await postForm(
        server,
        "/admin/invites",
        { intent: "send", email: "bounce@example.test", language: "en" },
        { cookie: adminCookie },
      );
      expect(response.status).toBe(200);
      const deadline = Date.now() + 10_000;
      const bounced = () =>
        server
          .logLines()
          .find((entry) => entry.msg === "Mail could not be delivered" && entry.to === "bounce@example.test");
      while (!bounced() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const line = bounced();
      expect(line).toMatchObject({ to: "bounce@example.test", kind: "invite" });
      expect(String(line?.reason)).toContain("Mailbox unavailable for testing");

      const dashboard = visibleText((await getWithCookie(server, "/admin", adminCookie)).body);
      expect(dashboard).toContain("Failed deliveries");
      expect(dashboard).toContain("bounce@example.test");
      expect(dashboard).toContain("Mailbox unavailable for testing");

      const dismissed = await postForm(
        server,
        "/admin/outbox",
        { intent: "dismiss-failures" },
        { cookie: adminCookie },
      );
      expect(dismissed.status).toBe(200);
      const after = visibleText((await getWithCookie(server, "/admin", adminCookie)).body);
      expect(after).not.toContain("bounce@example.test");
      expect(after).not.toContain("Failed deliveries");
    } finally {
      smtp.rejectMessages(false);
    }
  });

  it("answers a forgotten-password request the same when the reset mail bounces, and shows the bounce to admins", async () => {
    const member = await createUser(database.db);
    const unknown = uniqueEmail("nobody");
    smtp.rejectMessages("Mailbox full for testing");
    expectErrorLog('"msg":"Mail could not be delivered"');
    try {
      const ask = (email: string, localAddress: string) =>
        postForm(server, "/auth/forgot", { email }, { localAddress });
      const known = await ask(member.email, "127.0.9.1");
      const nobody = await ask(unknown, "127.0.9.2");
      expect(known.status).toBe(200);
      expect(nobody.status).toBe(known.status);
      expect(visibleText(known.body).replaceAll(member.email, "EMAIL")).toBe(
        visibleText(nobody.body).replaceAll(unknown, "EMAIL"),
      );

      const deadline = Date.now() + 10_000;
      const bounced = () =>
        server.logLines().find((entry) => entry.msg === "Mail could not be delivered" && entry.to === member.email);
      while (!bounced() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(bounced()).toMatchObject({ kind: "password-reset" });
      const dashboard = visibleText((await getWithCookie(server, "/admin", adminCookie)).body);
      expect(dashboard).toContain(member.email);
      expect(dashboard).toContain("Mailbox full for testing");
      expect(dashboard).not.toContain(unknown);
    } finally {
      smtp.rejectMessages(false);
    }
  });
});

describe.each(databaseKinds)("mail without SMTP: the outbox over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;
  let memberCookie: string;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    ({ adminCookie, memberCookie } = await signedInAdminAndMember(database));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  it("files an invite in the outbox, logs one line without the link, and lists and shows it to admins", async () => {
    const response = await postForm(
      server,
      "/admin/invites",
      { intent: "send", email: "outbox-friend@example.test", language: "en" },
      { cookie: adminCookie },
    );
    expect(response.status).toBe(200);
    expect(visibleText(response.body)).toContain("filed in the outbox");
    const mail = await readNewestOutboxMail(database.db, (m) => m.to.includes("outbox-friend@example.test"));
    const { code } = await database.db
      .selectFrom("invite_codes")
      .select("code")
      .where("sent_to", "=", "outbox-friend@example.test")
      .executeTakeFirstOrThrow();
    noteSecret(code);
    expect(mail.text).toContain(`${server.origin}/auth?invite=${code}`);
    expect(mail.from).toEqual({ name: "Vitrine", address: "vitrine@127.0.0.1" });
    // Filed in the database (where every server process reads it), not as a file of this process's DATA_DIR.
    expect(fs.existsSync(path.join(database.location.dataDir, "outbox"))).toBe(false);

    const deadline = Date.now() + 5000;
    while (!server.stdout.includes("Mail filed in the outbox") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const notices = server.logLines().filter((entry) => entry.msg === "Mail filed in the outbox (SMTP_URL is not set)");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ to: "outbox-friend@example.test", subject: "Your invitation to Vitrine" });

    const dashboard = visibleText((await getWithCookie(server, "/admin", adminCookie)).body);
    expect(dashboard).toContain("Outbox only: SMTP_URL is not set");
    const list = await getWithCookie(server, "/admin/outbox", adminCookie);
    expect(list.status).toBe(200);
    const listText = visibleText(list.body);
    expect(listText).toContain("SMTP_URL is not set");
    expect(listText).toContain("outbox-friend@example.test");
    expect(listText).toContain("Your invitation to Vitrine");
    expect(listText).toContain("invite");

    const id = mail.id;
    const shown = await getWithCookie(server, `/admin/outbox/${id}`, adminCookie);
    expect(shown.status).toBe(200);
    expect(visibleText(shown.body)).toContain(`${server.origin}/auth?invite=${code}`);
    expect(shown.body).toContain('sandbox=""');
  });

  it("answers 404 for a mail that is not there, and refuses names that are no outbox file", async () => {
    for (const id of ["20260101-000000-000-invite-00000000.eml", "..%2Fvitrine.sqlite", "auth-secret"]) {
      const response = await getWithCookie(server, `/admin/outbox/${id}`, adminCookie);
      expect(response.status).toBe(404);
      expect(response.body).not.toContain("SQLite format");
    }
  });

  it("keeps the outbox to admins: visitors sign in first, others get 403", async () => {
    const [id = "x.eml"] = await outboxIds(database.db);
    for (const pathname of ["/admin/outbox", `/admin/outbox/${id}`, "/admin/outbox.data", `/admin/outbox/${id}.data`]) {
      const visitor = await request(server.url(pathname));
      expect([302, 202]).toContain(visitor.status);
      const member = await getWithCookie(server, pathname, memberCookie);
      expect(member.status).toBe(403);
      expect(member.body).not.toContain("outbox-friend@example.test");
    }
    const post = await postForm(server, "/admin/outbox", { intent: "dismiss-failures" }, { cookie: memberCookie });
    expect(post.status).toBe(403);
  });

  it("moves an older version's outbox files into the database when the server starts, and deletes mails older than 30 days", async () => {
    const day = 24 * 60 * 60 * 1000;
    const outbox = path.join(database.location.dataDir, "outbox");
    const oldName = "20200101-000000-000-password-reset-0badc0de.eml";
    const recentName = "20200102-000000-000-password-reset-0600d000.eml";
    fs.mkdirSync(outbox, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(outbox, oldName), "Subject: old\r\n\r\nold\r\n", { mode: 0o600 });
    fs.writeFileSync(path.join(outbox, recentName), "Subject: recent\r\n\r\nrecent mail\r\n", { mode: 0o600 });
    fs.utimesSync(path.join(outbox, oldName), new Date(Date.now() - 31 * day), new Date(Date.now() - 31 * day));
    fs.utimesSync(path.join(outbox, recentName), new Date(Date.now() - 29 * day), new Date(Date.now() - 29 * day));
    // And a mail of the table filed long ago.
    const expiredRow = "20200103-000000-000-invite-0dead000.eml";
    await database.db
      .insertInto("outbox_mails")
      .values({
        id: expiredRow,
        kind: "invite",
        recipient: "gone@example.test",
        sender: "Vitrine <vitrine@127.0.0.1>",
        subject: "gone",
        language: "en",
        filed_at: new Date(Date.now() - 31 * day),
        raw: "Subject: gone\r\n\r\ngone\r\n",
      })
      .execute();

    expect(await server.stop()).toBe(0);
    server = await startServer({
      dataDir: database.location.dataDir,
      databaseUrl: database.location.databaseUrl,
      authSecret: TEST_AUTH_SECRET,
    });
    const deadline = Date.now() + 5000;
    const housekept = async () => !fs.existsSync(outbox) && !(await outboxIds(database.db)).includes(expiredRow);
    while (!(await housekept()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fs.existsSync(outbox)).toBe(false);
    const ids = await outboxIds(database.db);
    expect(ids).toContain(recentName);
    expect(ids).not.toContain(oldName);
    expect(ids).not.toContain(expiredRow);
    const list = visibleText((await getWithCookie(server, "/admin/outbox", adminCookie)).body);
    expect(list).toContain("recent");
    const shown = await getWithCookie(server, `/admin/outbox/${recentName}`, adminCookie);
    expect(shown.status).toBe(200);
    expect(visibleText(shown.body)).toContain("recent mail");
    for (const gone of [oldName, expiredRow]) {
      expect((await getWithCookie(server, `/admin/outbox/${gone}`, adminCookie)).status).toBe(404);
    }
  });
});
