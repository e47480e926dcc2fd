import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { createInviteCodes, ensureAdminSetupCode, findInviteCode } from "#app/domains/invites/invites.server.ts";
import { createUser, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
import { databaseKinds, type TestDatabase, useTestDatabase } from "#tests/support/test-database.ts";
import { deleteUser, listUsers, setAdminRole, signOutEverywhere } from "./user-admin.server.ts";
import { isAdmin, signUpWithInvite } from "./users.server.ts";

const SECRET = "unit-test-secret-that-is-long-enough-0123456789";

async function adminCount(database: TestDatabase): Promise<number> {
  const rows = await database.db.selectFrom("user_roles").select("user_id").where("role", "=", "admin").execute();
  return rows.length;
}

async function sessionsOf(database: TestDatabase, userId: string): Promise<number> {
  const rows = await database.db.selectFrom("session").select("id").where("userId", "=", userId).execute();
  return rows.length;
}

describe.each(databaseKinds)("managing users (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("lists every account with its role and live sessions, newest first", async () => {
    const admin = await createUser(database.db, { admin: true });
    await new Promise((resolve) => setTimeout(resolve, 15));
    const user = await createUser(database.db);
    await createSessionCookie(database.db, user.id, SECRET);
    await createSessionCookie(database.db, user.id, SECRET);
    // An expired session does not count.
    await database.db
      .updateTable("session")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(
        "id",
        "=",
        (await database.db.selectFrom("session").select("id").where("userId", "=", user.id).executeTakeFirstOrThrow())
          .id,
      )
      .execute();

    const users = await listUsers(database.db);

    expect(users.map(({ email, isAdmin, activeSessions }) => ({ email, isAdmin, activeSessions }))).toEqual([
      { email: user.email, isAdmin: false, activeSessions: 1 },
      { email: admin.email, isAdmin: true, activeSessions: 0 },
    ]);
    expect(Date.parse(users[0]?.createdAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
  });

  it("grants and revokes the admin role, recording both", async () => {
    const owner = await createUser(database.db, { admin: true });
    const user = await createUser(database.db);

    expect(await setAdminRole(database.db, owner, { userId: user.id, admin: true })).toEqual({
      ok: true,
      email: user.email,
      changed: true,
    });
    expect(await isAdmin(database.db, user.id)).toBe(true);
    expect(await setAdminRole(database.db, owner, { userId: user.id, admin: true })).toMatchObject({ changed: false });

    expect(await setAdminRole(database.db, owner, { userId: user.id, admin: false })).toMatchObject({
      ok: true,
      changed: true,
    });
    expect(await isAdmin(database.db, user.id)).toBe(false);

    const { records } = await listAudit(database.db);
    expect(records.map(({ action, target, oldValue, newValue }) => ({ action, target, oldValue, newValue }))).toEqual([
      { action: "users.revokeAdmin", target: user.email, oldValue: "admin", newValue: "user" },
      { action: "users.grantAdmin", target: user.email, oldValue: "user", newValue: "admin" },
    ]);
  });

  it("removes a lingering first-admin code when it grants the role", async () => {
    const user = await createUser(database.db);
    const setupCode = (await ensureAdminSetupCode(database.db)) ?? "";
    await setAdminRole(database.db, { id: "cli", email: "cli@example.test" }, { userId: user.id, admin: true });
    expect(await findInviteCode(database.db, setupCode)).toBeUndefined();
  });

  it("never removes the last admin, by role or by deletion, and records nothing then", async () => {
    const owner = await createUser(database.db, { admin: true });

    expect(await setAdminRole(database.db, owner, { userId: owner.id, admin: false, confirmSelf: true })).toEqual({
      ok: false,
      reason: "lastAdmin",
    });
    expect(await deleteUser(database.db, owner, { userId: owner.id, confirmSelf: true })).toEqual({
      ok: false,
      reason: "lastAdmin",
    });

    expect(await isAdmin(database.db, owner.id)).toBe(true);
    expect(
      await database.db.selectFrom("user").select("id").where("id", "=", owner.id).executeTakeFirst(),
    ).toBeDefined();
    expect((await listAudit(database.db)).total).toBe(0);
  });

  it("asks for an explicit confirmation before an admin removes their own role or account", async () => {
    const owner = await createUser(database.db, { admin: true });
    const other = await createUser(database.db, { admin: true });

    expect(await setAdminRole(database.db, owner, { userId: owner.id, admin: false })).toEqual({
      ok: false,
      reason: "confirmSelf",
    });
    expect(await deleteUser(database.db, owner, { userId: owner.id })).toEqual({ ok: false, reason: "confirmSelf" });
    expect(await isAdmin(database.db, owner.id)).toBe(true);

    expect(await setAdminRole(database.db, owner, { userId: owner.id, admin: false, confirmSelf: true })).toMatchObject(
      {
        ok: true,
        changed: true,
      },
    );
    expect(await isAdmin(database.db, owner.id)).toBe(false);
    expect(await isAdmin(database.db, other.id)).toBe(true);
  });

  it("of two admins removing each other at the same moment, exactly one succeeds", async () => {
    const first = await createUser(database.db, { admin: true });
    const second = await createUser(database.db, { admin: true });

    const results = await Promise.all([
      deleteUser(database.db, first, { userId: second.id }),
      setAdminRole(database.db, second, { userId: first.id, admin: false }),
    ]);

    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, reason: "lastAdmin" }]);
    expect(await adminCount(database)).toBe(1);
  });

  it("signs an account out everywhere", async () => {
    const owner = await createUser(database.db, { admin: true });
    const user = await createUser(database.db);
    await createSessionCookie(database.db, user.id, SECRET);
    await createSessionCookie(database.db, user.id, SECRET);
    await createSessionCookie(database.db, owner.id, SECRET);

    expect(await signOutEverywhere(database.db, owner, user.id)).toEqual({
      ok: true,
      email: user.email,
      changed: true,
      sessions: 2,
    });

    expect(await sessionsOf(database, user.id)).toBe(0);
    expect(await sessionsOf(database, owner.id)).toBe(1);
    const [record] = (await listAudit(database.db)).records;
    expect(record).toMatchObject({ action: "users.signOut", target: user.email });
    expect(await signOutEverywhere(database.db, owner, "no-such-user")).toEqual({ ok: false, reason: "notFound" });
  });

  it("deletes an account with its sessions and role, and keeps its invite code as used", async () => {
    const owner = await createUser(database.db, { admin: true });
    const [code = ""] = await createInviteCodes(database.db);
    const email = uniqueEmail();
    const account = await signUpWithInvite(database.db, { email, password: strongPassword(), inviteCode: code });
    await createSessionCookie(database.db, account.userId, SECRET);
    await setAdminRole(database.db, owner, { userId: account.userId, admin: true });

    expect(await deleteUser(database.db, owner, { userId: account.userId })).toEqual({
      ok: true,
      email,
      changed: true,
    });

    expect(await database.db.selectFrom("user").select("id").where("id", "=", account.userId).execute()).toEqual([]);
    expect(await database.db.selectFrom("account").select("id").where("userId", "=", account.userId).execute()).toEqual(
      [],
    );
    expect(await sessionsOf(database, account.userId)).toBe(0);
    expect(await isAdmin(database.db, account.userId)).toBe(false);
    expect(await findInviteCode(database.db, code)).toMatchObject({ isUsed: true, usedBy: account.userId });
    const [record] = (await listAudit(database.db)).records;
    expect(record).toMatchObject({ action: "users.delete", target: email });
    expect(await deleteUser(database.db, owner, { userId: account.userId })).toEqual({
      ok: false,
      reason: "notFound",
    });
  });
});
