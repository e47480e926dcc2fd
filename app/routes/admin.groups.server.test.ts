import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { listGroups } from "#app/domains/groups/groups.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { answerOf, formPost, servicesContext, sessionOf } from "#tests/support/route-services.ts";
import { useTestDatabase } from "#tests/support/test-database.ts";
import { groupsAction, groupsLoader } from "./admin.groups.server.ts";

type Answer = { ok: boolean; message: string; id?: string; fieldErrors?: Record<string, string> };

// The groups screen's loader and action called in-process (the domain on both databases: groups.server.test.ts).
describe("the groups screen", () => {
  const database = useTestDatabase("sqlite", "each");
  const context = (user: Parameters<typeof sessionOf>[0]) => servicesContext({ database }, sessionOf(user));
  const post = async (user: Parameters<typeof sessionOf>[0], fields: Record<string, string>) =>
    answerOf(
      await groupsAction({ ...formPost("/admin/groups", fields), context: context(user) }).catch(
        (error: unknown) => error,
      ),
    );

  it("refuses a signed-in non-admin with 403, reading or writing, and makes no group", async () => {
    const user = await createUser(database.db);
    expect((await post(user, { intent: "create", name: "Family" })).status).toBe(403);
    const url = new URL("/admin/groups", "http://localhost");
    const thrown = await groupsLoader({ url, context: context(user) }).catch((error: unknown) => error);
    expect(answerOf(thrown).status).toBe(403);
    expect(await listGroups(database.db)).toEqual([]);
    expect((await listAudit(database.db)).total).toBe(0);
  });

  it("creates a group as the admin and refuses the same name in another case on the name field", async () => {
    const admin = await createUser(database.db, { admin: true });
    const made = await post(admin, { intent: "create", name: " Family " });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ ok: true, message: "Group “Family” created." });
    const { records } = await listAudit(database.db, { action: "groups.create" });
    expect(records[0]).toMatchObject({ actorId: admin.id, actorEmail: admin.email, target: "Family" });

    const again = await post(admin, { intent: "create", name: "family" });
    expect(again.status).toBe(400);
    const body = again.body as Answer;
    expect(body.fieldErrors?.name).toMatch(/exists already/);
    expect(body.message).toBe(body.fieldErrors?.name);
    expect((await listGroups(database.db)).map((group) => group.name)).toEqual(["Family"]);
  });

  it("answers a name that is too long with 400 and its limit on the field, in the admin's language", async () => {
    const admin = await createUser(database.db, { admin: true });
    const request = formPost("/admin/groups", { intent: "create", name: "x".repeat(61) }, { "Accept-Language": "de" });
    const answer = answerOf(await groupsAction({ ...request, context: context(admin) }));
    expect(answer.status).toBe(400);
    expect((answer.body as Answer).fieldErrors?.name).toBe("Der Name darf höchstens 60 Zeichen haben.");
  });

  it("renames, adds and removes a member, and deletes, each written and audited as it says", async () => {
    const admin = await createUser(database.db, { admin: true });
    const member = await createUser(database.db);
    const groupId = ((await post(admin, { intent: "create", name: "Family" })).body as Answer).id ?? "";

    expect((await post(admin, { intent: "rename", groupId, name: "Relatives" })).body).toMatchObject({ ok: true });
    expect((await post(admin, { intent: "addMember", groupId, userId: member.id })).body).toMatchObject({
      ok: true,
      message: `${member.email} is now in “Relatives”.`,
    });
    const url = new URL("/admin/groups", "http://localhost");
    const shown = await groupsLoader({ url, context: context(admin) });
    expect(shown.groups).toEqual([
      {
        id: groupId,
        name: "Relatives",
        memberCount: 1,
        contentCount: 0,
        members: [{ id: member.id, email: member.email }],
      },
    ]);
    expect(shown.accounts.map((account) => account.email).sort()).toEqual([admin.email, member.email].sort());

    expect((await post(admin, { intent: "removeMember", groupId, userId: member.id })).body).toMatchObject({
      ok: true,
    });
    expect((await post(admin, { intent: "delete", groupId })).body).toMatchObject({
      ok: true,
      message: "Group “Relatives” deleted.",
    });
    expect(await listGroups(database.db)).toEqual([]);
    const { records } = await listAudit(database.db);
    expect(records.map((record) => record.action)).toEqual([
      "groups.delete",
      "users.groups",
      "users.groups",
      "groups.rename",
      "groups.create",
    ]);
  });

  it("answers a group or account that is gone with 404, and a missing account choice on its field", async () => {
    const admin = await createUser(database.db, { admin: true });
    const groupId = ((await post(admin, { intent: "create", name: "Family" })).body as Answer).id ?? "";
    expect((await post(admin, { intent: "delete", groupId: "no-such-group" })).status).toBe(404);
    expect((await post(admin, { intent: "addMember", groupId, userId: "no-such-user" })).status).toBe(404);
    const unchosen = await post(admin, { intent: "addMember", groupId, userId: "" });
    expect(unchosen.status).toBe(400);
    expect((unchosen.body as Answer).fieldErrors?.userId).toBe("Choose an account.");
    expect((await post(admin, { intent: "explode" })).status).toBe(400);
  });
});
