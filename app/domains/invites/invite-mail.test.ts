import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import type { MailMessage } from "#app/domains/mail/mail-message.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { listInvites } from "./invite-admin.server.ts";
import { sendInviteByMail } from "./invite-mail.server.ts";

describe.each(databaseKinds)("invites by e-mail (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const sent: MailMessage[] = [];
  const mail = {
    async send(message: MailMessage) {
      sent.push(message);
    },
  };

  it("makes a code for the address, notes it, audits it and mails the sign-up link", async () => {
    sent.length = 0;
    const { code, email } = await sendInviteByMail(database.db, mail, testAdmin, {
      email: "  Friend@Example.test ",
      language: "en",
      siteName: "My site",
      baseUrl: "https://site.example",
    });
    expect(email).toBe("Friend@Example.test");
    const [invite] = await listInvites(database.db);
    expect(invite).toMatchObject({ code, note: "Friend@Example.test", sentTo: "Friend@Example.test", isUsed: false });
    expect(sent).toEqual([
      expect.objectContaining({
        to: "Friend@Example.test",
        language: "en",
        kind: "invite",
        subject: "Your invitation to My site",
        action: { label: "Create your account", url: `https://site.example/auth?invite=${code}` },
      }),
    ]);
    expect(sent[0]?.paragraphs.join(" ")).toContain("My site");
    const { records } = await listAudit(database.db);
    expect(records.map((record) => record.action).sort()).toEqual(["invites.create", "invites.send"]);
  });

  it("refuses an address that is none, and creates and sends nothing", async () => {
    sent.length = 0;
    await expect(
      sendInviteByMail(database.db, mail, testAdmin, {
        email: "no address",
        language: "de",
        siteName: "My site",
        baseUrl: "https://site.example",
      }),
    ).rejects.toThrow();
    expect(await listInvites(database.db)).toEqual([]);
    expect(sent).toEqual([]);
  });
});
