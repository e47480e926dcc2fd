import { describe, expect, it } from "vitest";
import { createUser } from "#tests/support/factories.ts";
import { databaseKinds, type TestDatabase, useTestDatabase } from "#tests/support/test-database.ts";
import { grantAdmin, isAdmin, RoleChangeError, revokeAdmin } from "./users.server.ts";

async function adminIds(database: TestDatabase): Promise<string[]> {
  const rows = await database.db.selectFrom("user_roles").select("user_id").where("role", "=", "admin").execute();
  return rows.map((row) => row.user_id).sort();
}

describe.each(databaseKinds)("admin role (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("is false without a user_roles row, true with one", async () => {
    const user = await createUser(database.db);
    expect(await isAdmin(database.db, user.id)).toBe(false);

    expect(await grantAdmin(database.db, user.email)).toBe("granted");

    expect(await isAdmin(database.db, user.id)).toBe(true);
    expect(await adminIds(database)).toEqual([user.id]);
  });

  it("grants by e-mail in any case, once", async () => {
    const user = await createUser(database.db);

    expect(await grantAdmin(database.db, ` ${user.email.toUpperCase()} `)).toBe("granted");
    expect(await grantAdmin(database.db, user.email)).toBe("already");

    expect(await adminIds(database)).toEqual([user.id]);
  });

  it("revokes an admin while another admin remains", async () => {
    const first = await createUser(database.db, { admin: true });
    const second = await createUser(database.db, { admin: true });

    expect(await revokeAdmin(database.db, first.email)).toBe("revoked");

    expect(await isAdmin(database.db, first.id)).toBe(false);
    expect(await adminIds(database)).toEqual([second.id]);
  });

  it("refuses to revoke the last admin", async () => {
    const admin = await createUser(database.db, { admin: true });
    const user = await createUser(database.db);

    await expect(revokeAdmin(database.db, admin.email)).rejects.toThrow(RoleChangeError);
    await expect(revokeAdmin(database.db, admin.email)).rejects.toThrow(/last admin/);

    expect(await isAdmin(database.db, admin.id)).toBe(true);
    expect(await revokeAdmin(database.db, user.email)).toBe("notAdmin");
  });

  it("keeps one admin when the last two are revoked at the same moment", async () => {
    const first = await createUser(database.db, { admin: true });
    const second = await createUser(database.db, { admin: true });

    // A race is won or lost by timing: several rounds make a lost one show.
    for (let round = 0; round < 10; round++) {
      await grantAdmin(database.db, first.email);
      await grantAdmin(database.db, second.email);

      const results = await Promise.allSettled([
        revokeAdmin(database.db, first.email),
        revokeAdmin(database.db, second.email),
      ]);

      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      expect(await adminIds(database), `round ${round}`).toHaveLength(1);
    }
  });

  it("names the address when no such user exists", async () => {
    await expect(grantAdmin(database.db, "Nobody@Example.test")).rejects.toThrow(
      "No user with the e-mail address nobody@example.test",
    );
    await expect(revokeAdmin(database.db, "nobody@example.test")).rejects.toThrow(RoleChangeError);
  });
});
