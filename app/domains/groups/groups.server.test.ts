import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { databaseKinds, type TestDatabase, useTestDatabase } from "#tests/support/test-database.ts";
import {
  createGroup,
  deleteGroup,
  listGroupMembers,
  listGroups,
  renameGroup,
  setMembership,
  setUserGroups,
} from "./groups.server.ts";

async function newGroup(database: TestDatabase, actor: { id: string; email: string }, name: string): Promise<string> {
  const result = await createGroup(database.db, actor, name);
  if (!result.ok) throw new Error(`Could not create ${name}: ${result.reason}`);
  return result.id;
}

/** Restricts a made-up piece of content to the group, as the post editor does (kind and id, no foreign key). */
async function restrict(database: TestDatabase, groupId: string, itemId: string): Promise<void> {
  await database.db.insertInto("content_groups").values({ kind: "post", item_id: itemId, group_id: groupId }).execute();
}

describe.each(databaseKinds)("member groups (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("names a group (trimmed) and records it; a name differing only in case is refused", async () => {
    const admin = await createUser(database.db, { admin: true });
    const made = await createGroup(database.db, admin, "  Family ");
    expect(made).toMatchObject({ ok: true, name: "Family", changed: true });

    expect(await createGroup(database.db, admin, "family")).toEqual({ ok: false, reason: "nameTaken" });
    expect(await createGroup(database.db, admin, "FAMILY")).toEqual({ ok: false, reason: "nameTaken" });
    // Beyond A–Z too, where SQLite's lower() would not see the two as one.
    await newGroup(database, admin, "Ärzte");
    expect(await createGroup(database.db, admin, "ärzte")).toEqual({ ok: false, reason: "nameTaken" });

    expect((await listGroups(database.db)).map((group) => group.name)).toEqual(["Ärzte", "Family"]);
    const { records } = await listAudit(database.db, { action: "groups.create" });
    expect(records.map((record) => record.target).sort()).toEqual(["Family", "Ärzte"]);
    expect(records[0]).toMatchObject({ actorId: admin.id, actorEmail: admin.email });
  });

  it("refuses a name the schema refuses, whoever calls", async () => {
    const admin = await createUser(database.db, { admin: true });
    await expect(createGroup(database.db, admin, "   ")).rejects.toThrow();
    await expect(createGroup(database.db, admin, "a".repeat(61))).rejects.toThrow();
    await expect(createGroup(database.db, admin, "two\nlines")).rejects.toThrow();
    expect(await listGroups(database.db)).toEqual([]);
    expect((await listAudit(database.db, { action: "groups." })).total).toBe(0);
  });

  it("renames a group, allows a change of its own case, refuses another group's name", async () => {
    const admin = await createUser(database.db, { admin: true });
    const family = await newGroup(database, admin, "Family");
    await newGroup(database, admin, "Friends");

    expect(await renameGroup(database.db, admin, { groupId: family, name: "friends" })).toEqual({
      ok: false,
      reason: "nameTaken",
    });
    expect(await renameGroup(database.db, admin, { groupId: family, name: "family" })).toEqual({
      ok: true,
      id: family,
      name: "family",
      changed: true,
    });
    expect(await renameGroup(database.db, admin, { groupId: family, name: "family" })).toMatchObject({
      ok: true,
      changed: false,
    });
    expect(await renameGroup(database.db, admin, { groupId: "no-such-group", name: "Other" })).toEqual({
      ok: false,
      reason: "notFound",
    });

    const { records } = await listAudit(database.db, { action: "groups.rename" });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ target: "family", oldValue: "Family", newValue: "family" });
  });

  it("counts members and content per group", async () => {
    const admin = await createUser(database.db, { admin: true });
    const member = await createUser(database.db);
    const family = await newGroup(database, admin, "Family");
    const friends = await newGroup(database, admin, "Friends");
    await setUserGroups(database.db, admin, member.id, [family, friends]);
    await setUserGroups(database.db, admin, admin.id, [family]);
    await restrict(database, family, "post-1");
    await restrict(database, family, "post-2");

    expect(await listGroups(database.db)).toEqual([
      { id: family, name: "Family", memberCount: 2, contentCount: 2 },
      { id: friends, name: "Friends", memberCount: 1, contentCount: 0 },
    ]);
    expect(
      (await listGroupMembers(database.db)).filter((row) => row.groupId === family).map((row) => row.email),
    ).toEqual([admin.email, member.email].sort());
  });

  it("deletes a group, and the cascade takes it off members and content, recorded with the counts", async () => {
    const admin = await createUser(database.db, { admin: true });
    const member = await createUser(database.db);
    const family = await newGroup(database, admin, "Family");
    const friends = await newGroup(database, admin, "Friends");
    await setUserGroups(database.db, admin, member.id, [family, friends]);
    await restrict(database, family, "post-1");
    await restrict(database, friends, "post-1");

    expect(await deleteGroup(database.db, admin, family)).toMatchObject({ ok: true, name: "Family" });
    expect(await deleteGroup(database.db, admin, family)).toEqual({ ok: false, reason: "notFound" });

    const memberships = await database.db.selectFrom("user_groups").selectAll().execute();
    expect(memberships).toEqual([{ user_id: member.id, group_id: friends }]);
    const content = await database.db.selectFrom("content_groups").selectAll().execute();
    expect(content).toEqual([{ kind: "post", item_id: "post-1", group_id: friends }]);
    const { records } = await listAudit(database.db, { action: "groups.delete" });
    expect(records[0]).toMatchObject({ target: "Family", oldValue: JSON.stringify({ members: 1, content: 1 }) });
  });

  it("replaces an account's groups, an admin's too, recording the names before and after", async () => {
    const admin = await createUser(database.db, { admin: true });
    const member = await createUser(database.db);
    const family = await newGroup(database, admin, "Family");
    const friends = await newGroup(database, admin, "Friends");

    expect(await setUserGroups(database.db, admin, member.id, [friends, family, family])).toEqual({
      ok: true,
      email: member.email,
      groups: ["Family", "Friends"],
      changed: true,
    });
    expect(await setUserGroups(database.db, admin, member.id, [friends])).toMatchObject({ groups: ["Friends"] });
    // The same again changes nothing and writes no entry.
    expect(await setUserGroups(database.db, admin, member.id, [friends])).toMatchObject({ changed: false });
    expect(await setUserGroups(database.db, admin, admin.id, [family])).toMatchObject({ ok: true, changed: true });

    const { records } = await listAudit(database.db, { action: "users.groups" });
    expect(records.map(({ target, oldValue, newValue }) => ({ target, oldValue, newValue }))).toEqual([
      { target: admin.email, oldValue: "", newValue: "Family" },
      { target: member.email, oldValue: "Family, Friends", newValue: "Friends" },
      { target: member.email, oldValue: "", newValue: "Family, Friends" },
    ]);
  });

  it("refuses an unknown group or account and leaves the groups as they were", async () => {
    const admin = await createUser(database.db, { admin: true });
    const member = await createUser(database.db);
    const family = await newGroup(database, admin, "Family");
    await setUserGroups(database.db, admin, member.id, [family]);
    const before = (await listAudit(database.db)).total;

    expect(await setUserGroups(database.db, admin, member.id, [family, "no-such-group"])).toEqual({
      ok: false,
      reason: "unknownGroup",
    });
    expect(await setUserGroups(database.db, admin, "no-such-user", [family])).toEqual({
      ok: false,
      reason: "userNotFound",
    });
    expect(
      await setMembership(database.db, admin, { groupId: "no-such-group", userId: member.id, member: true }),
    ).toEqual({ ok: false, reason: "notFound" });
    const rows = await database.db
      .selectFrom("user_groups")
      .select("group_id")
      .where("user_id", "=", member.id)
      .execute();
    expect(rows).toEqual([{ group_id: family }]);
    expect((await listAudit(database.db)).total).toBe(before);
  });

  it("adds an account to one group and takes it out, leaving its other groups alone", async () => {
    const admin = await createUser(database.db, { admin: true });
    const member = await createUser(database.db);
    const family = await newGroup(database, admin, "Family");
    const friends = await newGroup(database, admin, "Friends");
    await setUserGroups(database.db, admin, member.id, [friends]);

    const add = { groupId: family, userId: member.id, member: true };
    expect(await setMembership(database.db, admin, add)).toMatchObject({ ok: true, groups: ["Family", "Friends"] });
    expect(await setMembership(database.db, admin, add)).toMatchObject({ ok: true, changed: false });
    expect(await setMembership(database.db, admin, { ...add, groupId: friends, member: false })).toMatchObject({
      ok: true,
      groups: ["Family"],
      changed: true,
      group: "Friends",
    });
    const { records } = await listAudit(database.db, { action: "users.groups" });
    expect(records.map((record) => record.newValue)).toEqual(["Family", "Family, Friends", "Friends"]);
  });
});
