import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import type { MailMessage } from "#app/domains/mail/mail-message.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { listInvites } from "./invite-admin.server.ts";
import { UnknownInviteGroupError } from "./invite-groups.server.ts";
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

  it("gives the mailed code the groups chosen, named in its audit entry beside the address", async () => {
    sent.length = 0;
    const id = "group-friends";
    await database.db.insertInto("member_groups").values({ id, name: "Friends", created_at: new Date() }).execute();

    const { code } = await sendInviteByMail(database.db, mail, testAdmin, {
      email: "friend@example.test",
      language: "de",
      siteName: "My site",
      baseUrl: "https://site.example",
      groupIds: [id],
    });

    const groups = await database.db.selectFrom("invite_groups").selectAll().execute();
    expect(groups).toEqual([{ code, group_id: id }]);
    expect((await listInvites(database.db))[0]).toMatchObject({
      code,
      sentTo: "friend@example.test",
      groups: ["Friends"],
    });
    const { records } = await listAudit(database.db, { action: "invites.create" });
    expect(JSON.parse(records[0]?.newValue ?? "")).toEqual({ note: "friend@example.test", groups: "Friends" });
    expect(sent).toHaveLength(1);
  });

  it("refuses a group that does not exist: no code, no audit entry, no mail", async () => {
    sent.length = 0;
    await expect(
      sendInviteByMail(database.db, mail, testAdmin, {
        email: "friend@example.test",
        language: "en",
        siteName: "My site",
        baseUrl: "https://site.example",
        groupIds: ["no-such-group"],
      }),
    ).rejects.toThrow(UnknownInviteGroupError);
    expect(await listInvites(database.db)).toEqual([]);
    expect((await listAudit(database.db)).total).toBe(0);
    expect(sent).toEqual([]);
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
