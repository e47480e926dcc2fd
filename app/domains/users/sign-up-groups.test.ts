import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Database } from "#app/db/schema.ts";
import { createInvitesAsAdmin } from "#app/domains/invites/invite-admin.server.ts";
import { ensureAdminSetupCode, findInviteCode } from "#app/domains/invites/invites.server.ts";
import { createUser, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, type TestDatabase, useTestDatabase } from "#tests/support/test-database.ts";
import { SignUpError, signUpWithInvite } from "./users.server.ts";

/*
 * An invite code's groups (issue 21): the account joins them at sign-up, in the transaction that writes the
 * account and uses the code. The sign-up's other rules are users.test.ts's.
 */

async function addGroup(db: Kysely<Database>, name: string): Promise<string> {
  const id = randomUUID();
  await db.insertInto("member_groups").values({ id, name, created_at: new Date() }).execute();
  return id;
}

async function codeWithGroups(db: Kysely<Database>, groupIds: string[]): Promise<string> {
  const [code] = await createInvitesAsAdmin(db, testAdmin, { count: 1, note: "", groupIds });
  if (!code) throw new Error("No invite code was created");
  return code;
}

async function groupsOf(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db.selectFrom("user_groups").select("group_id").where("user_id", "=", userId).execute();
  return rows.map((row) => row.group_id).sort();
}

async function membershipCount(db: Kysely<Database>): Promise<number> {
  return (await db.selectFrom("user_groups").select("user_id").execute()).length;
}

/** Makes every write to `user_groups` fail, as a fault would, for the test of what the failure undoes. */
async function refuseMemberships(database: TestDatabase): Promise<void> {
  if (database.kind === "postgres") {
    await sql`CREATE FUNCTION refuse_membership() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'membership refused by the test'; END $$`.execute(database.db);
    await sql`CREATE TRIGGER refuse_membership BEFORE INSERT ON user_groups
      FOR EACH ROW EXECUTE FUNCTION refuse_membership()`.execute(database.db);
  } else {
    await sql`CREATE TRIGGER refuse_membership BEFORE INSERT ON user_groups
      BEGIN SELECT RAISE(ABORT, 'membership refused by the test'); END`.execute(database.db);
  }
}

describe.each(databaseKinds)("the groups an invite code gives at sign-up (%s)", (kind) => {
  // A fresh database per case: one case breaks the table of memberships on purpose, another needs no admin yet.
  const database = useTestDatabase(kind, "each");

  it("puts the new account in the code's groups, and no other", async () => {
    const friends = await addGroup(database.db, "Friends");
    const family = await addGroup(database.db, "Family");
    await addGroup(database.db, "Colleagues");
    const code = await codeWithGroups(database.db, [friends, family]);

    const account = await signUpWithInvite(database.db, {
      email: uniqueEmail(),
      password: strongPassword(),
      inviteCode: code,
    });

    expect(await groupsOf(database.db, account.userId)).toEqual([friends, family].sort());
    expect((await findInviteCode(database.db, code))?.usedBy).toBe(account.userId);
    expect(await membershipCount(database.db)).toBe(2);
  });

  it("skips a group deleted since the code was made, and joins the rest", async () => {
    const friends = await addGroup(database.db, "Friends");
    const family = await addGroup(database.db, "Family");
    const code = await codeWithGroups(database.db, [friends, family]);
    await database.db.deleteFrom("member_groups").where("id", "=", family).execute();

    const account = await signUpWithInvite(database.db, {
      email: uniqueEmail(),
      password: strongPassword(),
      inviteCode: code,
    });

    expect(await groupsOf(database.db, account.userId)).toEqual([friends]);
  });

  it("gives no group for a code without groups", async () => {
    await addGroup(database.db, "Friends");
    const code = await codeWithGroups(database.db, []);

    const account = await signUpWithInvite(database.db, {
      email: uniqueEmail(),
      password: strongPassword(),
      inviteCode: code,
    });

    expect(await groupsOf(database.db, account.userId)).toEqual([]);
  });

  it("joins no group when the e-mail address is taken, and keeps the code and its groups for another try", async () => {
    const friends = await addGroup(database.db, "Friends");
    const existing = await createUser(database.db);
    const code = await codeWithGroups(database.db, [friends]);

    const refused = await signUpWithInvite(database.db, {
      email: existing.email,
      password: strongPassword(),
      inviteCode: code,
    }).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(SignUpError);
    expect((refused as SignUpError).reason).toBe("emailTaken");
    expect(await membershipCount(database.db)).toBe(0);
    expect((await findInviteCode(database.db, code))?.isUsed).toBe(false);
    const account = await signUpWithInvite(database.db, {
      email: uniqueEmail(),
      password: strongPassword(),
      inviteCode: code,
    });
    expect(await groupsOf(database.db, account.userId)).toEqual([friends]);
  });

  it("gives the groups to the winner only when two sign-ups race for one address", async () => {
    const friends = await addGroup(database.db, "Friends");
    const family = await addGroup(database.db, "Family");
    const codes = [await codeWithGroups(database.db, [friends]), await codeWithGroups(database.db, [family])];
    const email = uniqueEmail();

    const results = await Promise.allSettled(
      codes.map((inviteCode) => signUpWithInvite(database.db, { email, password: strongPassword(), inviteCode })),
    );

    const won = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    expect(won).toHaveLength(1);
    const winner = won[0]?.userId ?? "";
    const winnerGroups = await groupsOf(database.db, winner);
    expect(winnerGroups).toHaveLength(1);
    expect(await membershipCount(database.db)).toBe(1);
    const states = await Promise.all(codes.map((code) => findInviteCode(database.db, code)));
    expect(states.filter((state) => state?.isUsed).map((state) => state?.usedBy)).toEqual([winner]);
  });

  it("writes the groups in the sign-up's transaction: when joining fails, no account is made and the code stays unused", async () => {
    const friends = await addGroup(database.db, "Friends");
    const code = await codeWithGroups(database.db, [friends]);
    const email = uniqueEmail();
    await refuseMemberships(database);

    await expect(
      signUpWithInvite(database.db, { email, password: strongPassword(), inviteCode: code }),
    ).rejects.toThrow(/membership refused by the test/);

    expect(await findInviteCode(database.db, code)).toMatchObject({ isUsed: false, usedBy: null, usedAt: null });
    expect(await database.db.selectFrom("user").select("id").where("email", "=", email).execute()).toEqual([]);
    expect(await database.db.selectFrom("account").select("id").execute()).toEqual([]);
    expect(await membershipCount(database.db)).toBe(0);
  });

  it("still makes the first admin with the setup code, which gives no group", async () => {
    await addGroup(database.db, "Friends");
    const setupCode = (await ensureAdminSetupCode(database.db)) ?? "";

    const account = await signUpWithInvite(database.db, {
      email: uniqueEmail("admin"),
      password: strongPassword(),
      inviteCode: setupCode,
    });

    expect(account.isAdmin).toBe(true);
    expect(await groupsOf(database.db, account.userId)).toEqual([]);
    expect(await ensureAdminSetupCode(database.db)).toBeNull();
  });
});
