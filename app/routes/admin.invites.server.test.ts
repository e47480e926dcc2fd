import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { listInvites } from "#app/domains/invites/invite-admin.server.ts";
import type { MailMessage } from "#app/domains/mail/mail-message.ts";
import type { Runtime } from "#app/runtime/runtime.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { answerOf, formPost, servicesContext, sessionOf } from "#tests/support/route-services.ts";
import { useTestDatabase } from "#tests/support/test-database.ts";
import { invitesAction } from "./admin.invites.server.ts";

/** The create form as a browser sends it: every ticked group box is its own `group_ids` value. */
function createPost(fields: [string, string][], intent = "create") {
  const url = new URL("/admin/invites", "http://localhost");
  const body = new URLSearchParams([["intent", intent], ...fields]);
  return { request: new Request(url, { method: "POST", body }), url };
}

// The invites screen's action called in-process (its HTTP path and mail: tests/integration/admin-*.test.ts).
describe("the invites screen's action", () => {
  const database = useTestDatabase("sqlite", "each");
  const context = (user: Parameters<typeof sessionOf>[0]) => servicesContext({ database }, sessionOf(user));

  it("refuses a signed-in non-admin with 403 and makes no code", async () => {
    const user = await createUser(database.db);
    const before = (await listInvites(database.db)).length;
    const thrown = await invitesAction({
      ...formPost("/admin/invites", { intent: "create", count: "3" }),
      context: context(user),
    }).catch((error: unknown) => error);
    expect(answerOf(thrown).status).toBe(403);
    expect(await listInvites(database.db)).toHaveLength(before);
  });

  it("answers a count out of range with 400, the reason on the field and as the message", async () => {
    const admin = await createUser(database.db, { admin: true });
    const answer = answerOf(
      await invitesAction({ ...formPost("/admin/invites", { intent: "create", count: "0" }), context: context(admin) }),
    );
    expect(answer.status).toBe(400);
    const body = answer.body as { ok: boolean; message: string; fieldErrors: Record<string, string> };
    expect(body.ok).toBe(false);
    expect(body.fieldErrors.count).toMatch(/\d/);
    expect(body.message).toBe(body.fieldErrors.count);
  });

  it("makes the codes asked for and records them in the audit log as the admin", async () => {
    const admin = await createUser(database.db, { admin: true });
    const post = formPost("/admin/invites", { intent: "create", count: "2", note: "For the family" });
    const answer = answerOf(await invitesAction({ ...post, context: context(admin) }));
    expect(answer.status).toBe(200);
    const body = answer.body as { ok: true; codes: string[] };
    expect(body.ok).toBe(true);
    expect(body.codes).toHaveLength(2);
    const { records } = await listAudit(database.db, { action: "invites.create" });
    expect(records[0]).toMatchObject({ actorId: admin.id, actorEmail: admin.email });
  });

  it("gives the codes every ticked group, sent as one value per box, and names them in the audit log", async () => {
    const admin = await createUser(database.db, { admin: true });
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await database.db
      .insertInto("member_groups")
      .values(
        ["Friends", "Family", "Colleagues"].map((name, index) => ({
          id: ids[index] ?? "",
          name,
          created_at: new Date(),
        })),
      )
      .execute();
    const [friends = "", family = ""] = ids;

    const post = createPost([
      ["count", "2"],
      ["note", ""],
      ["group_ids", friends],
      ["group_ids", family],
    ]);
    const answer = answerOf(await invitesAction({ ...post, context: context(admin) }));

    expect(answer.status).toBe(200);
    const { codes } = answer.body as { ok: true; codes: string[] };
    // The admin's own account came in with a code of its own, without groups.
    const listed = (await listInvites(database.db)).filter((invite) => codes.includes(invite.code));
    expect(listed).toHaveLength(2);
    for (const invite of listed) expect(invite.groups).toEqual(["Family", "Friends"]);
    const { records } = await listAudit(database.db, { action: "invites.create" });
    expect(records.map((record) => JSON.parse(record.newValue ?? ""))).toEqual([
      { groups: "Family, Friends" },
      { groups: "Family, Friends" },
    ]);
  });

  it.each([
    ["a group that does not exist", "no-such-group"],
    ["a value that is no group id", "not an id!"],
  ])("refuses %s with 400 on the groups field and makes no code", async (_label, groupId) => {
    const admin = await createUser(database.db, { admin: true });
    const before = (await listInvites(database.db)).length;

    const post = createPost([
      ["count", "2"],
      ["group_ids", groupId],
    ]);
    const answer = answerOf(await invitesAction({ ...post, context: context(admin) }));

    expect(answer.status).toBe(400);
    const body = answer.body as { ok: boolean; message: string; fieldErrors: Record<string, string> };
    expect(body.ok).toBe(false);
    expect(body.fieldErrors.group_ids).toMatch(/group/i);
    expect(body.message).toBe(body.fieldErrors.group_ids);
    expect(await listInvites(database.db)).toHaveLength(before);
    expect(await database.db.selectFrom("invite_groups").selectAll().execute()).toEqual([]);
    expect((await listAudit(database.db, { action: "invites.create" })).total).toBe(0);
  });

  it("gives a code sent by e-mail the ticked groups", async () => {
    const admin = await createUser(database.db, { admin: true });
    const id = randomUUID();
    await database.db.insertInto("member_groups").values({ id, name: "Friends", created_at: new Date() }).execute();
    const sent: MailMessage[] = [];
    const mail = { mode: "outbox", send: async (message: MailMessage) => void sent.push(message) };
    const env = { baseUrl: "https://site.example" };
    const withMail = servicesContext(
      { database, env: env as Runtime["env"], mail: mail as unknown as Runtime["mail"] },
      sessionOf(admin),
    );

    const post = createPost(
      [
        ["email", "friend@example.test"],
        ["language", "en"],
        ["group_ids", id],
      ],
      "send",
    );
    const answer = answerOf(await invitesAction({ ...post, context: withMail }));

    expect(answer.status).toBe(200);
    const [code] = (answer.body as { codes: string[] }).codes;
    expect((await listInvites(database.db)).find((invite) => invite.code === code)?.groups).toEqual(["Friends"]);
    expect(sent.map((message) => message.to)).toEqual(["friend@example.test"]);
  });
});
