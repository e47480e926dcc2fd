import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import type { Database } from "#app/db/schema.ts";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { describeAuditEntry } from "#app/domains/audit/audit-sentence.ts";
import { deleteUser } from "#app/domains/users/user-admin.server.ts";
import { signUpWithInvite } from "#app/domains/users/users.server.ts";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import { createUser, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { createInvitesAsAdmin, deleteUnusedInvite, listInvites } from "./invite-admin.server.ts";
import { UnknownInviteGroupError } from "./invite-groups.server.ts";
import { createInviteCodes, ensureAdminSetupCode, findInviteCode } from "./invites.server.ts";

/** A member group as the groups screen makes one (its own domain is not this test's subject). */
async function addGroup(db: Kysely<Database>, name: string): Promise<string> {
  const id = randomUUID();
  await db.insertInto("member_groups").values({ id, name, created_at: new Date() }).execute();
  return id;
}

async function groupsOfCode(db: Kysely<Database>, code: string): Promise<string[]> {
  const rows = await db.selectFrom("invite_groups").select("group_id").where("code", "=", code).execute();
  return rows.map((row) => row.group_id).sort();
}

describe.each(databaseKinds)("invite codes in the admin screen (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("creates up to 100 codes with a note, each recorded in the audit log", async () => {
    const codes = await createInvitesAsAdmin(database.db, testAdmin, { count: 3, note: "  For the Müller family  " });

    expect(codes).toHaveLength(3);
    const listed = await listInvites(database.db);
    expect(listed.map((invite) => invite.code).sort()).toEqual([...codes].sort());
    for (const invite of listed) expect(invite).toMatchObject({ note: "For the Müller family", isUsed: false });
    const { records } = await listAudit(database.db);
    expect(records.map((record) => record.action)).toEqual(["invites.create", "invites.create", "invites.create"]);
    expect(records.map((record) => record.target).sort()).toEqual([...codes].sort());
    expect(records[0]?.newValue).toBe("For the Müller family");

    expect(await createInvitesAsAdmin(database.db, testAdmin, { count: 100, note: "" })).toHaveLength(100);
  });

  it("gives codes groups: stored per code, listed by name, named in the audit entry with the note", async () => {
    const friends = await addGroup(database.db, "Friends");
    const family = await addGroup(database.db, "Family");
    await addGroup(database.db, "Colleagues");

    const codes = await createInvitesAsAdmin(database.db, testAdmin, {
      count: 2,
      note: "Cousins",
      groupIds: [friends, family, friends],
    });

    for (const code of codes) expect(await groupsOfCode(database.db, code)).toEqual([friends, family].sort());
    const listed = await listInvites(database.db);
    for (const invite of listed) expect(invite.groups).toEqual(["Family", "Friends"]);
    const { records } = await listAudit(database.db, { action: "invites.create" });
    expect(records).toHaveLength(2);
    for (const record of records) {
      expect(JSON.parse(record.newValue ?? "")).toEqual({ note: "Cousins", groups: "Family, Friends" });
      // The log screen shows the note and the groups as two fields, not the stored JSON.
      const { diff } = describeAuditEntry(record, adminTranslatorFor("en"));
      expect(diff.map((row) => [row.label, row.after?.text])).toEqual([
        ["Note", "Cousins"],
        ["Groups", "Family, Friends"],
      ]);
    }
  });

  it("keeps recording a code without groups by its note alone, and lists no groups for it", async () => {
    await addGroup(database.db, "Friends");
    const [code = ""] = await createInvitesAsAdmin(database.db, testAdmin, { count: 1, note: "Sam", groupIds: [] });

    expect(await groupsOfCode(database.db, code)).toEqual([]);
    expect((await listInvites(database.db))[0]?.groups).toEqual([]);
    expect((await listAudit(database.db)).records[0]?.newValue).toBe("Sam");
  });

  it("refuses a group that does not exist and writes no code, no group and no audit entry", async () => {
    const friends = await addGroup(database.db, "Friends");

    await expect(
      createInvitesAsAdmin(database.db, testAdmin, { count: 3, note: "", groupIds: [friends, "no-such-group"] }),
    ).rejects.toThrow(UnknownInviteGroupError);

    expect(await listInvites(database.db)).toEqual([]);
    expect(await database.db.selectFrom("invite_groups").selectAll().execute()).toEqual([]);
    expect((await listAudit(database.db)).total).toBe(0);
  });

  it("lists only the groups that still exist: a deleted group leaves the codes that gave it", async () => {
    const friends = await addGroup(database.db, "Friends");
    const family = await addGroup(database.db, "Family");
    const [code = ""] = await createInvitesAsAdmin(database.db, testAdmin, {
      count: 1,
      note: "",
      groupIds: [friends, family],
    });

    await database.db.deleteFrom("member_groups").where("id", "=", family).execute();

    expect((await listInvites(database.db))[0]?.groups).toEqual(["Friends"]);
    expect(await groupsOfCode(database.db, code)).toEqual([friends]);
  });

  it.each([0, 101, 2.5])("refuses to create %s codes and writes nothing", async (count) => {
    await expect(createInvitesAsAdmin(database.db, testAdmin, { count, note: "" })).rejects.toThrow(RangeError);
    expect(await listInvites(database.db)).toEqual([]);
    expect((await listAudit(database.db)).total).toBe(0);
  });

  it("lists newest first, with who used a code and when, and leaves out the first-admin code", async () => {
    const setupCode = await ensureAdminSetupCode(database.db);
    const [older = ""] = await createInviteCodes(database.db);
    await new Promise((resolve) => setTimeout(resolve, 15));
    const [newer = ""] = await createInviteCodes(database.db, { note: "Sam" });
    const email = uniqueEmail("sam");
    await signUpWithInvite(database.db, { email, password: strongPassword(), inviteCode: newer });

    const listed = await listInvites(database.db);

    expect(listed.map((invite) => invite.code)).toEqual([newer, older]);
    expect(listed.map((invite) => invite.code)).not.toContain(setupCode);
    expect(listed[0]).toMatchObject({ note: "Sam", isUsed: true, usedByEmail: email, usedByDeleted: false });
    expect(Date.parse(listed[0]?.usedAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
    expect(listed[1]).toMatchObject({ note: "", isUsed: false, usedAt: null, usedByEmail: null, usedByDeleted: false });
  });

  it("says 'deleted account' for a code whose account is gone, and keeps the code as used", async () => {
    const admin = await createUser(database.db, { admin: true });
    const [code = ""] = await createInviteCodes(database.db);
    const account = await signUpWithInvite(database.db, {
      email: uniqueEmail(),
      password: strongPassword(),
      inviteCode: code,
    });
    await deleteUser(database.db, admin, { userId: account.userId });

    const invite = (await listInvites(database.db)).find((item) => item.code === code);
    expect(invite).toMatchObject({ isUsed: true, usedByEmail: null, usedByDeleted: true });
  });

  it("deletes an unused code, however it is typed, and records it", async () => {
    const [code = ""] = await createInviteCodes(database.db, { note: "Spare" });

    expect(await deleteUnusedInvite(database.db, testAdmin, code.toLowerCase())).toEqual({ ok: true, code });

    expect(await findInviteCode(database.db, code)).toBeUndefined();
    const [record] = (await listAudit(database.db)).records;
    expect(record).toMatchObject({ action: "invites.delete", target: code, oldValue: "Spare" });
  });

  it("refuses to delete a used code, an unknown code and the first-admin code", async () => {
    const [code = ""] = await createInviteCodes(database.db);
    await signUpWithInvite(database.db, { email: uniqueEmail(), password: strongPassword(), inviteCode: code });
    const setupCode = (await ensureAdminSetupCode(database.db)) ?? "";

    expect(await deleteUnusedInvite(database.db, testAdmin, code)).toEqual({ ok: false, reason: "used" });
    expect(await deleteUnusedInvite(database.db, testAdmin, "ABCD-EFGH-JKMN-PQRS")).toEqual({
      ok: false,
      reason: "notFound",
    });
    expect(await deleteUnusedInvite(database.db, testAdmin, setupCode)).toEqual({ ok: false, reason: "notFound" });

    expect((await findInviteCode(database.db, code))?.isUsed).toBe(true);
    expect(await findInviteCode(database.db, setupCode)).toBeDefined();
    expect((await listAudit(database.db)).total).toBe(0);
  });
});
