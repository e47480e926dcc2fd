import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import type { MailMessage } from "#app/domains/mail/mail-message.ts";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import {
  contactRecipient,
  deleteContactMessage,
  findContactMessage,
  listContactMessages,
  markContactMessage,
  receiveContactMessage,
} from "./contact.server.ts";

describe.each(databaseKinds)("contact messages (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const sent: MailMessage[] = [];
  const mail = {
    async send(message: MailMessage) {
      sent.push(message);
    },
  };
  const setSetting = (key: string, value: string) =>
    database.db.updateTable("site_settings").set({ value }).where("key", "=", key).execute();

  it("keeps the message, then mails it to the owner in their language with Reply-To the sender", async () => {
    sent.length = 0;
    const admin = await createUser(database.db, { admin: true });
    await database.db.updateTable("user").set({ language: "de" }).where("id", "=", admin.id).execute();
    await setSetting("site_name", "Annas Fotos");
    const at = new Date(Date.UTC(2026, 10, 24, 9, 30));
    const id = await receiveContactMessage(
      { db: database.db, mail, baseUrl: "https://site.example", settings: await readSettings(database.db) },
      { name: "Bea Sender", email: "bea@example.test", message: "Hello!\nTwo lines.", language: "en" },
      at,
    );
    expect(await findContactMessage(database.db, id)).toEqual({
      id,
      name: "Bea Sender",
      email: "bea@example.test",
      message: "Hello!\nTwo lines.",
      language: "en",
      createdAt: at.toISOString(),
      readAt: null,
    });
    expect(sent).toEqual([
      expect.objectContaining({
        to: admin.email,
        language: "de",
        kind: "contact",
        subject: "Annas Fotos: Nachricht von Bea Sender",
        replyTo: { name: "Bea Sender", address: "bea@example.test" },
        action: { label: "Im Adminbereich öffnen", url: `https://site.example/admin/messages/${id}` },
      }),
    ]);
    expect(sent[0]?.paragraphs).toContain("Hello!\nTwo lines.");
    expect(sent[0]?.paragraphs[0]).toContain("Bea Sender <bea@example.test>");
  });

  it("sends to the address in the settings, in the language of the account that has it", async () => {
    await createUser(database.db, { admin: true });
    const other = await createUser(database.db, { admin: true });
    await database.db.updateTable("user").set({ language: "de" }).where("id", "=", other.id).execute();
    expect(await contactRecipient(database.db, await readSettings(database.db))).toMatchObject({ language: "en" });
    await setSetting("contact_email", other.email);
    expect(await contactRecipient(database.db, await readSettings(database.db))).toEqual({
      address: other.email,
      language: "de",
    });
    await setSetting("contact_email", "outside@example.test");
    expect(await contactRecipient(database.db, await readSettings(database.db))).toEqual({
      address: "outside@example.test",
      language: "en",
    });
  });

  it("keeps the message when the site has no admin to mail it to", async () => {
    sent.length = 0;
    const settings = await readSettings(database.db);
    expect(await contactRecipient(database.db, settings)).toBeNull();
    const id = await receiveContactMessage(
      { db: database.db, mail, baseUrl: "https://site.example", settings },
      { name: "Early", email: "early@example.test", message: "Anyone there?", language: "de" },
    );
    expect(await findContactMessage(database.db, id)).toMatchObject({ name: "Early", language: "de" });
    expect(sent).toEqual([]);
  });

  it("lists newest first with the unread count; marks read and unread and deletes, each audited", async () => {
    const settings = await readSettings(database.db);
    const deps = { db: database.db, mail, baseUrl: "https://site.example", settings };
    const first = await receiveContactMessage(
      deps,
      { name: "First", email: "first@example.test", message: "One", language: "en" },
      new Date(Date.UTC(2026, 0, 1)),
    );
    const second = await receiveContactMessage(
      deps,
      { name: "Second", email: "second@example.test", message: "Two", language: "en" },
      new Date(Date.UTC(2026, 0, 2)),
    );
    let list = await listContactMessages(database.db);
    expect(list.messages.map((message) => message.id)).toEqual([second, first]);
    expect(list).toMatchObject({ total: 2, unread: 2 });

    expect(await markContactMessage(database.db, testAdmin, { id: first, read: true })).toBe(true);
    list = await listContactMessages(database.db);
    expect(list).toMatchObject({ total: 2, unread: 1 });
    expect(list.messages[1]?.readAt).not.toBeNull();
    expect(await markContactMessage(database.db, testAdmin, { id: first, read: false })).toBe(true);
    expect((await findContactMessage(database.db, first))?.readAt).toBeNull();

    expect(await deleteContactMessage(database.db, testAdmin, second)).toBe(true);
    expect(await findContactMessage(database.db, second)).toBeNull();
    expect(await deleteContactMessage(database.db, testAdmin, second)).toBe(false);
    expect(await markContactMessage(database.db, testAdmin, { id: second, read: true })).toBe(false);

    const { records } = await listAudit(database.db);
    expect(records.map((record) => [record.action, record.target])).toEqual([
      ["messages.delete", "Second <second@example.test>"],
      ["messages.unread", "First <first@example.test>"],
      ["messages.read", "First <first@example.test>"],
    ]);
  });
});
