import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toBoolean, toIsoString } from "#app/db/values.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { normalizeInviteCode } from "./invite-code.ts";
import { inviteAuditValue, inviteGroupNames, resolveInviteGroups, writeInviteGroups } from "./invite-groups.server.ts";
import { MAX_CODES_AT_ONCE, MAX_NOTE_LENGTH } from "./invite-limits.ts";
import { createInviteCodes } from "./invites.server.ts";

export type InviteListItem = {
  code: string;
  note: string;
  createdAt: string;
  isUsed: boolean;
  usedAt: string | null;
  /** The e-mail of the account that used it; null when unused or when that account was deleted. */
  usedByEmail: string | null;
  /** Used by an account that no longer exists. */
  usedByDeleted: boolean;
  /** The address the code was mailed to, if it was. */
  sentTo: string | null;
  /** The names of the groups its account joins at sign-up, by name. */
  groups: string[];
};

/**
 * The ordinary invite codes, newest first. The first-admin setup code (it grants the admin role) is
 * not one of them: it is printed at start and disappears once an admin exists.
 */
export async function listInvites(db: Kysely<Database>): Promise<InviteListItem[]> {
  const groups = await inviteGroupNames(db);
  const rows = await db
    .selectFrom("invite_codes")
    .leftJoin("user", "user.id", "invite_codes.used_by")
    .select([
      "invite_codes.code",
      "invite_codes.note",
      "invite_codes.created_at",
      "invite_codes.is_used",
      "invite_codes.used_at",
      "invite_codes.used_by",
      "invite_codes.sent_to",
      "user.email",
    ])
    .where("invite_codes.grants_role", "is", null)
    .orderBy("invite_codes.created_at", "desc")
    .orderBy("invite_codes.code")
    .execute();
  return rows.map((row) => {
    const isUsed = toBoolean(row.is_used);
    return {
      code: row.code,
      note: row.note ?? "",
      createdAt: toIsoString(row.created_at),
      isUsed,
      usedAt: row.used_at === null ? null : toIsoString(row.used_at),
      usedByEmail: row.email ?? null,
      usedByDeleted: isUsed && row.used_by !== null && row.email === null,
      sentTo: row.sent_to,
      groups: groups.get(row.code) ?? [],
    };
  });
}

/**
 * Makes `count` new codes with an optional note and the groups their accounts join, recorded in the audit log with
 * them. An unknown group throws `UnknownInviteGroupError` and nothing is written.
 */
export async function createInvitesAsAdmin(
  db: Kysely<Database>,
  actor: AuditActor,
  input: { count: number; note: string; groupIds?: readonly string[] },
): Promise<string[]> {
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > MAX_CODES_AT_ONCE) {
    throw new RangeError(`The number of codes must be a whole number from 1 to ${MAX_CODES_AT_ONCE}`);
  }
  const note = input.note.trim().slice(0, MAX_NOTE_LENGTH) || null;
  return db.transaction().execute(async (trx) => {
    const groups = await resolveInviteGroups(trx, input.groupIds ?? []);
    const codes = await createInviteCodes(trx, { count: input.count, note });
    await writeInviteGroups(trx, codes, groups);
    const newValue = inviteAuditValue(note, groups);
    await recordAudit(
      trx,
      actor,
      codes.map((code) => ({ action: "invites.create", target: code, newValue })),
    );
    return codes;
  });
}

export type DeleteInviteResult = { ok: true; code: string } | { ok: false; reason: "notFound" | "used" };

/** Deletes an unused ordinary code. A used code stays as the record of who came in with it. */
export async function deleteUnusedInvite(
  db: Kysely<Database>,
  actor: AuditActor,
  input: string,
): Promise<DeleteInviteResult> {
  const code = normalizeInviteCode(input);
  return db.transaction().execute(async (trx): Promise<DeleteInviteResult> => {
    // The condition on is_used makes a sign-up that claims the code at this moment win or lose cleanly.
    const deleted = await trx
      .deleteFrom("invite_codes")
      .where("code", "=", code)
      .where("is_used", "=", false)
      .where("grants_role", "is", null)
      .returning(["code", "note"])
      .executeTakeFirst();
    if (deleted) {
      await recordAudit(trx, actor, { action: "invites.delete", target: deleted.code, oldValue: deleted.note });
      return { ok: true, code: deleted.code };
    }
    const existing = await trx
      .selectFrom("invite_codes")
      .select("is_used")
      .where("code", "=", code)
      .where("grants_role", "is", null)
      .executeTakeFirst();
    return { ok: false, reason: existing && toBoolean(existing.is_used) ? "used" : "notFound" };
  });
}
