import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";

/*
 * The groups an invite code gives (issue 21): chosen when the codes are made (or one is mailed), kept in
 * `invite_groups`, and joined by the account in the transaction that uses the code (`signUpWithInvite`).
 */

export type InviteGroup = { id: string; name: string };

/** One of the groups asked for does not exist (any more): the codes are not made. */
export class UnknownInviteGroupError extends Error {
  override name = "UnknownInviteGroupError";
}

/**
 * The groups named by `groupIds`, by name, read in the transaction that writes the codes. Throws
 * `UnknownInviteGroupError` when any is missing, so that the transaction leaves neither codes nor audit entries.
 */
export async function resolveInviteGroups(
  trx: Transaction<Database>,
  groupIds: readonly string[],
): Promise<InviteGroup[]> {
  const ids = [...new Set(groupIds)];
  if (ids.length === 0) return [];
  const groups = await trx
    .selectFrom("member_groups")
    .select(["id", "name"])
    .where("id", "in", ids)
    .orderBy("name")
    .orderBy("id")
    .execute();
  if (groups.length !== ids.length) throw new UnknownInviteGroupError("An invite names a group that does not exist");
  return groups;
}

/** Gives every one of `codes` the `groups` (in the transaction that made the codes). */
export async function writeInviteGroups(
  trx: Transaction<Database>,
  codes: readonly string[],
  groups: readonly InviteGroup[],
): Promise<void> {
  if (codes.length === 0 || groups.length === 0) return;
  await trx
    .insertInto("invite_groups")
    .values(codes.flatMap((code) => groups.map((group) => ({ code, group_id: group.id }))))
    .execute();
}

/**
 * What an `invites.create` entry records: the note alone, as before groups existed; with groups, the note and the
 * groups' names as JSON fields (the audit log shows them field by field), so the entry says what the code gives.
 */
export function inviteAuditValue(note: string | null, groups: readonly InviteGroup[]): string | null {
  if (groups.length === 0) return note;
  return JSON.stringify({ ...(note ? { note } : {}), groups: groups.map((group) => group.name).join(", ") });
}

/** The names of each ordinary code's groups, by code, ordered by name (for the invites list). */
export async function inviteGroupNames(db: Kysely<Database>): Promise<Map<string, string[]>> {
  const rows = await db
    .selectFrom("invite_groups")
    .innerJoin("member_groups", "member_groups.id", "invite_groups.group_id")
    .innerJoin("invite_codes", "invite_codes.code", "invite_groups.code")
    .select(["invite_groups.code", "member_groups.name"])
    .where("invite_codes.grants_role", "is", null)
    .orderBy("member_groups.name")
    .execute();
  const names = new Map<string, string[]>();
  for (const row of rows) names.set(row.code, [...(names.get(row.code) ?? []), row.name]);
  return names;
}

/**
 * Puts the new account `userId` in the groups of `code`, inside the transaction that claims the code and writes
 * the account: a failed sign-up leaves no membership. The join with `member_groups` takes only groups that still
 * exist, so a group deleted since the code was made is skipped rather than failing the sign-up.
 */
export async function joinInviteGroups(trx: Transaction<Database>, code: string, userId: string): Promise<void> {
  await trx
    .insertInto("user_groups")
    .columns(["user_id", "group_id"])
    .expression((eb) =>
      eb
        .selectFrom("invite_groups")
        .innerJoin("member_groups", "member_groups.id", "invite_groups.group_id")
        .select([eb.val(userId).as("user_id"), "invite_groups.group_id"])
        .where("invite_groups.code", "=", code),
    )
    .execute();
}
