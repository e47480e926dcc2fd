import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInAdminAndMember, visibleText } from "#tests/support/admin-server.ts";
import { createUser } from "#tests/support/factories.ts";
import { readStream, until } from "#tests/support/live-stream-site.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import { postForm, request, type ServerProcess, startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { readNewestOutboxMail } from "#tests/support/smtp-server.ts";
import { createTestDatabase, hasPostgres, type TestDatabase } from "#tests/support/test-database.ts";

// Issue 20: without SMTP_URL the outbox is a table, so with two server processes on one PostgreSQL database (each
// with a DATA_DIR of its own, as on two machines) a mail sent through one is listed and readable on the other's
// Outbox screen, whose open page hears of it at once.

describe.skipIf(!hasPostgres)("the outbox across two servers on one PostgreSQL database", () => {
  let database: TestDatabase;
  let serverA: ServerProcess;
  let serverB: ServerProcess;
  let dataDirB: string;
  let adminCookie: string;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const databaseUrl = database.location.databaseUrl;
    serverA = await startServer({ dataDir: database.location.dataDir, databaseUrl, authSecret: TEST_AUTH_SECRET });
    dataDirB = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-outbox-b-"));
    serverB = await startServer({ dataDir: dataDirB, databaseUrl, authSecret: TEST_AUTH_SECRET });
    ({ adminCookie } = await signedInAdminAndMember(database));
  });

  afterAll(async () => {
    const codes = [await serverA?.stop(), await serverB?.stop()];
    await database?.destroy();
    if (dataDirB) fs.rmSync(dataDirB, { recursive: true, force: true });
    expect(codes).toEqual([0, 0]);
  });

  const get = (server: ServerProcess, pathname: string) =>
    request(server.url(pathname), { headers: { Cookie: adminCookie } });

  it.each([
    ["A", "B"],
    ["B", "A"],
  ])("lists and shows a reset mail asked for through server %s on server %s", async (from) => {
    const [sender, other] = from === "A" ? [serverA, serverB] : [serverB, serverA];
    const user = await createUser(database.db);
    const screen = await readStream(other.url("/api/events"), { cookie: adminCookie });
    try {
      await until(() => screen.messages.some((message) => message.event === "ready"));
      const asked = await postForm(sender, "/auth/forgot", { email: user.email }, { localAddress: "127.0.9.1" });
      expect(asked.status).toBe(200);
      const mail = await readNewestOutboxMail(database.db, (m) => m.to.includes(user.email));

      // The other server's open Outbox screen hears of it (an admins-only event naming the mail).
      await until(
        () =>
          screen.messages.some(
            (message) =>
              message.event === "change" &&
              (message.data as { events: { area: string; id: string | null }[] }).events.some(
                (event) => event.area === "outbox" && event.id === mail.id,
              ),
          ),
        () => screen.messages,
        5000,
      );
      const list = await get(other, "/admin/outbox");
      expect(list.status).toBe(200);
      expect(visibleText(list.body)).toContain(user.email);
      const shown = await get(other, `/admin/outbox/${mail.id}`);
      expect(shown.status).toBe(200);
      const link = /https?:\/\/\S+\/auth\/reset\?token=([\w-]+)/.exec(visibleText(shown.body));
      noteSecret(link?.[1]);
      expect(link?.[0]).toContain(`${sender.origin}/auth/reset?token=`);
      // Each mail was filed once, by the server that was asked; neither made an outbox folder.
      const filed = await database.db
        .selectFrom("outbox_mails")
        .select("id")
        .where("recipient", "=", user.email)
        .execute();
      expect(filed).toHaveLength(1);
      expect(fs.existsSync(path.join(database.location.dataDir, "outbox"))).toBe(false);
      expect(fs.existsSync(path.join(dataDirB, "outbox"))).toBe(false);
    } finally {
      screen.close();
    }
  });
});
