import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { groupNameKey, groupNameSchema } from "./group-schema.ts";

/*
 * The member groups the admin names (issue 21): who belongs to which, and how much content each one opens. Who may
 * read what is decided elsewhere (app/domains/access/); here only the names and the memberships are written, each
 * with its audit entry in the same transaction. A member's new groups count from their next request: the session
 * reads them afresh every time.
 */

type Db = Kysely<Database> | Transaction<Database>;

export type GroupSummary = {
  id: string;
  name: string;
  /** Accounts in the group. */
  memberCount: number;
  /** Pieces of content restricted to it (rows of `content_groups`, whatever their kind). */
  contentCount: number;
};

export type GroupMember = { groupId: string; userId: string; email: string };

/**
 * Why a change was refused:
 * - `notFound`: the group no longer exists;
 * - `nameTaken`: another group has that name, regardless of case;
 * - `userNotFound`: the account no longer exists;
 * - `unknownGroup`: a group named for an account does not exist (any more).
 */
export type GroupRefusal = "notFound" | "nameTaken" | "userNotFound" | "unknownGroup";
export type GroupResult =
  | { ok: true; id: string; name: string; changed: boolean }
  | { ok: false; reason: GroupRefusal };
export type MembershipResult =
  | { ok: true; email: string; groups: string[]; changed: boolean }
  | { ok: false; reason: GroupRefusal };

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.name.localeCompare(b.name);

/** Every group by name, with how many accounts belong to it and how much content names it. */
export async function listGroups(db: Db): Promise<GroupSummary[]> {
  const [groups, members, content] = await Promise.all([
    db.selectFrom("member_groups").select(["id", "name"]).execute(),
    db
      .selectFrom("user_groups")
      .select((eb) => ["group_id", eb.fn.countAll<number | string>().as("count")])
      .groupBy("group_id")
      .execute(),
    db
      .selectFrom("content_groups")
      .select((eb) => ["group_id", eb.fn.countAll<number | string>().as("count")])
      .groupBy("group_id")
      .execute(),
  ]);
  const memberCounts = new Map(members.map((row) => [row.group_id, Number(row.count)]));
  const contentCounts = new Map(content.map((row) => [row.group_id, Number(row.count)]));
  return groups
    .map((group) => ({
      id: group.id,
      name: group.name,
      memberCount: memberCounts.get(group.id) ?? 0,
      contentCount: contentCounts.get(group.id) ?? 0,
    }))
    .sort(byName);
}

/** Every membership with the account's address, by address: the groups screen lists each group's members. */
export async function listGroupMembers(db: Db): Promise<GroupMember[]> {
  const rows = await db
    .selectFrom("user_groups")
    .innerJoin("user", "user.id", "user_groups.user_id")
    .select(["user_groups.group_id", "user_groups.user_id", "user.email"])
    .orderBy("user.email")
    .execute();
  return rows.map((row) => ({ groupId: row.group_id, userId: row.user_id, email: row.email }));
}

/** Every account, by address: those the admin may put in a group (admins too). */
export async function listGroupCandidates(db: Db): Promise<{ id: string; email: string }[]> {
  return db.selectFrom("user").select(["id", "email"]).orderBy("email").execute();
}

/**
 * Inside a transaction that names a group: locks every group row first (row locks on PostgreSQL, the write lock on
 * SQLite), so that two admins naming "Family" and "family" at once run one after the other and the second sees the
 * first. With no group yet there is nothing to lock; the table's unique name still refuses two identical names.
 */
async function lockGroups(trx: Transaction<Database>): Promise<{ id: string; name: string }[]> {
  await trx
    .updateTable("member_groups")
    .set((eb) => ({ name: eb.ref("name") }))
    .execute();
  return trx.selectFrom("member_groups").select(["id", "name"]).execute();
}

function nameTakenBy(groups: { id: string; name: string }[], name: string, except?: string): boolean {
  const key = groupNameKey(name);
  return groups.some((group) => group.id !== except && groupNameKey(group.name) === key);
}

/** Both databases' refusal of a second row with the same unique value (here: two identical names at once). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint/.test(e?.message ?? "");
}

async function refusingDuplicates(write: () => Promise<GroupResult>): Promise<GroupResult> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: "nameTaken" };
    throw error;
  }
}

/** Names a new group. The name is checked again here (trimmed, one line, 1–60), whoever calls. */
export async function createGroup(db: Kysely<Database>, actor: AuditActor, input: string): Promise<GroupResult> {
  const name = groupNameSchema.parse(input);
  return refusingDuplicates(() =>
    db.transaction().execute(async (trx): Promise<GroupResult> => {
      if (nameTakenBy(await lockGroups(trx), name)) return { ok: false, reason: "nameTaken" };
      const id = randomUUID();
      await trx.insertInto("member_groups").values({ id, name, created_at: new Date() }).execute();
      await recordAudit(trx, actor, { action: "groups.create", target: name, newValue: name });
      return { ok: true, id, name, changed: true };
    }),
  );
}

/** Renames a group; changing only the case of its own name is allowed, taking another group's name is not. */
export async function renameGroup(
  db: Kysely<Database>,
  actor: AuditActor,
  input: { groupId: string; name: string },
): Promise<GroupResult> {
  const name = groupNameSchema.parse(input.name);
  return refusingDuplicates(() =>
    db.transaction().execute(async (trx): Promise<GroupResult> => {
      const groups = await lockGroups(trx);
      const group = groups.find((row) => row.id === input.groupId);
      if (!group) return { ok: false, reason: "notFound" };
      if (nameTakenBy(groups, name, group.id)) return { ok: false, reason: "nameTaken" };
      if (group.name === name) return { ok: true, id: group.id, name, changed: false };
      await trx.updateTable("member_groups").set({ name }).where("id", "=", group.id).execute();
      await recordAudit(trx, actor, { action: "groups.rename", target: name, oldValue: group.name, newValue: name });
      return { ok: true, id: group.id, name, changed: true };
    }),
  );
}

/**
 * Deletes a group. The foreign keys' cascade takes it out of every account and every piece of content: content that
 * was restricted to this group alone is then readable by admins only (the screen says so before asking). The audit
 * entry keeps how many accounts and pieces of content it had.
 */
export async function deleteGroup(db: Kysely<Database>, actor: AuditActor, groupId: string): Promise<GroupResult> {
  return db.transaction().execute(async (trx): Promise<GroupResult> => {
    const group = await trx
      .selectFrom("member_groups")
      .select(["id", "name"])
      .where("id", "=", groupId)
      .executeTakeFirst();
    if (!group) return { ok: false, reason: "notFound" };
    const [members, content] = await Promise.all([
      trx
        .selectFrom("user_groups")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where("group_id", "=", groupId)
        .executeTakeFirst(),
      trx
        .selectFrom("content_groups")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where("group_id", "=", groupId)
        .executeTakeFirst(),
    ]);
    await trx.deleteFrom("member_groups").where("id", "=", groupId).execute();
    await recordAudit(trx, actor, {
      action: "groups.delete",
      target: group.name,
      oldValue: JSON.stringify({ members: Number(members?.count ?? 0), content: Number(content?.count ?? 0) }),
    });
    return { ok: true, id: group.id, name: group.name, changed: true };
  });
}

/** The names of an account's groups, sorted: what the audit entry shows before and after. */
async function groupNamesOf(trx: Transaction<Database>, userId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom("user_groups")
    .innerJoin("member_groups", "member_groups.id", "user_groups.group_id")
    .select("member_groups.name")
    .where("user_groups.user_id", "=", userId)
    .execute();
  return rows.map((row) => row.name).sort((a, b) => byName({ name: a }, { name: b }));
}

async function emailOf(trx: Transaction<Database>, userId: string): Promise<string | undefined> {
  const row = await trx.selectFrom("user").select("email").where("id", "=", userId).executeTakeFirst();
  return row?.email;
}

async function auditMembership(
  trx: Transaction<Database>,
  actor: AuditActor,
  email: string,
  before: string[],
  after: string[],
): Promise<boolean> {
  const changed = before.join("\n") !== after.join("\n");
  if (changed) {
    await recordAudit(trx, actor, {
      action: "users.groups",
      target: email,
      oldValue: before.join(", "),
      newValue: after.join(", "),
    });
  }
  return changed;
}

/**
 * Replaces an account's groups with `groupIds` (none: in no group). A group that does not exist refuses the whole
 * change. An admin may be put in groups too: it changes nothing they can read, but keeps their membership when
 * their role goes.
 */
export async function setUserGroups(
  db: Kysely<Database>,
  actor: AuditActor,
  userId: string,
  groupIds: readonly string[],
): Promise<MembershipResult> {
  const wanted = [...new Set(groupIds)];
  return db.transaction().execute(async (trx): Promise<MembershipResult> => {
    const email = await emailOf(trx, userId);
    if (email === undefined) return { ok: false, reason: "userNotFound" };
    if (wanted.length > 0) {
      const known = await trx.selectFrom("member_groups").select("id").where("id", "in", wanted).execute();
      if (known.length !== wanted.length) return { ok: false, reason: "unknownGroup" };
    }
    const before = await groupNamesOf(trx, userId);
    await trx.deleteFrom("user_groups").where("user_id", "=", userId).execute();
    if (wanted.length > 0) {
      await trx
        .insertInto("user_groups")
        .values(wanted.map((groupId) => ({ user_id: userId, group_id: groupId })))
        .execute();
    }
    const after = await groupNamesOf(trx, userId);
    const changed = await auditMembership(trx, actor, email, before, after);
    return { ok: true, email, groups: after, changed };
  });
}

/**
 * Puts an account in one group or takes it out, leaving its other groups alone: one row written or removed, so two
 * admins changing two groups of the same account at once both count (a replacement of the whole list would not).
 */
export async function setMembership(
  db: Kysely<Database>,
  actor: AuditActor,
  input: { groupId: string; userId: string; member: boolean },
): Promise<MembershipResult & { group?: string }> {
  return db.transaction().execute(async (trx) => {
    const email = await emailOf(trx, input.userId);
    if (email === undefined) return { ok: false as const, reason: "userNotFound" as const };
    const group = await trx
      .selectFrom("member_groups")
      .select(["id", "name"])
      .where("id", "=", input.groupId)
      .executeTakeFirst();
    if (!group) return { ok: false as const, reason: "notFound" as const };
    const before = await groupNamesOf(trx, input.userId);
    if (input.member) {
      await trx
        .insertInto("user_groups")
        .values({ user_id: input.userId, group_id: input.groupId })
        .onConflict((oc) => oc.columns(["user_id", "group_id"]).doNothing())
        .execute();
    } else {
      await trx
        .deleteFrom("user_groups")
        .where("user_id", "=", input.userId)
        .where("group_id", "=", input.groupId)
        .execute();
    }
    const after = await groupNamesOf(trx, input.userId);
    const changed = await auditMembership(trx, actor, email, before, after);
    return { ok: true as const, email, groups: after, changed, group: group.name };
  });
}
