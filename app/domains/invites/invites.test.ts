import { describe, expect, it } from "vitest";
import { grantAdmin, signUpWithInvite } from "#app/domains/users/users.server.ts";
import { createUser, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { createInviteCodes, ensureAdminSetupCode, findInviteCode, isInviteCodeAvailable } from "./invites.server.ts";

describe.each(databaseKinds)("invite codes (%s)", (kind) => {
  const database = useTestDatabase(kind, "all");

  it("creates the requested number of distinct, unused codes", async () => {
    const codes = await createInviteCodes(database.db, { count: 25 });

    expect(new Set(codes).size).toBe(25);
    for (const code of codes) {
      expect(await findInviteCode(database.db, code)).toEqual({
        code,
        isUsed: false,
        usedBy: null,
        usedAt: null,
        grantsRole: null,
      });
    }
  });

  it.each([0, -1, 1.5, 1001])("refuses to create %s codes", async (count) => {
    const before = await database.db.selectFrom("invite_codes").select("code").execute();
    await expect(createInviteCodes(database.db, { count })).rejects.toThrow(RangeError);
    const after = await database.db.selectFrom("invite_codes").select("code").execute();
    expect(after).toHaveLength(before.length);
  });

  it("tells whether a code can still be used, however it is typed", async () => {
    const [code = ""] = await createInviteCodes(database.db);

    expect(await isInviteCodeAvailable(database.db, code.toLowerCase())).toBe(true);
    expect(await isInviteCodeAvailable(database.db, "")).toBe(false);
    expect(await isInviteCodeAvailable(database.db, "ABCD-EFGH-JKMN-PQRS")).toBe(false);

    await signUpWithInvite(database.db, { email: uniqueEmail(), password: strongPassword(), inviteCode: code });
    expect(await isInviteCodeAvailable(database.db, code)).toBe(false);
  });
});

describe.each(databaseKinds)("the first-admin setup code (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("is one unused code granting the admin role, the same on every call", async () => {
    const first = await ensureAdminSetupCode(database.db);
    const second = await ensureAdminSetupCode(database.db);

    expect(first).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(second).toBe(first);
    const rows = await database.db.selectFrom("invite_codes").select(["code", "grants_role"]).execute();
    expect(rows).toEqual([{ code: first, grants_role: "admin" }]);
  });

  it("makes whoever signs up with it an admin, and is gone once used", async () => {
    const code = (await ensureAdminSetupCode(database.db)) ?? "";

    const account = await signUpWithInvite(database.db, {
      email: uniqueEmail("owner"),
      password: strongPassword(),
      inviteCode: code,
    });

    expect(account.isAdmin).toBe(true);
    expect(await ensureAdminSetupCode(database.db)).toBeNull();
  });

  it("is not created when an admin already exists", async () => {
    const user = await createUser(database.db);
    await grantAdmin(database.db, user.email);

    expect(await ensureAdminSetupCode(database.db)).toBeNull();
    const rows = await database.db.selectFrom("invite_codes").select("grants_role").execute();
    expect(rows.filter((row) => row.grants_role === "admin")).toEqual([]);
  });

  it("stops working as soon as an admin exists by other means, and is removed", async () => {
    const code = (await ensureAdminSetupCode(database.db)) ?? "";
    const owner = await createUser(database.db);
    await grantAdmin(database.db, owner.email);

    const email = uniqueEmail("mallory");
    await expect(
      signUpWithInvite(database.db, { email, password: strongPassword(), inviteCode: code }),
    ).rejects.toMatchObject({ reason: "inviteInvalid" });
    expect(await findInviteCode(database.db, code)).toBeUndefined();
    expect(
      await database.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("refuses a leftover admin-granting code once an admin exists, and the next start removes it", async () => {
    const owner = await createUser(database.db, { admin: true });
    const [leftover = ""] = await createInviteCodes(database.db, { grantsRole: "admin" });

    const email = uniqueEmail("late");
    await expect(
      signUpWithInvite(database.db, { email, password: strongPassword(), inviteCode: leftover }),
    ).rejects.toMatchObject({ reason: "inviteInvalid" });
    expect((await findInviteCode(database.db, leftover))?.isUsed).toBe(false);
    const admins = await database.db.selectFrom("user_roles").select("user_id").where("role", "=", "admin").execute();
    expect(admins).toEqual([{ user_id: owner.id }]);

    expect(await ensureAdminSetupCode(database.db)).toBeNull();
    expect(await findInviteCode(database.db, leftover)).toBeUndefined();
  });

  it("is not confused by ordinary codes", async () => {
    await createInviteCodes(database.db, { count: 3 });

    const code = await ensureAdminSetupCode(database.db);

    expect((await findInviteCode(database.db, code ?? ""))?.grantsRole).toBe("admin");
  });
});
