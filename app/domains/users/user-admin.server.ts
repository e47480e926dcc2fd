import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { removeUnusedAdminCodes } from "#app/domains/invites/invites.server.ts";
import { LastAdminError, lockAdminsAndCheck } from "./users.server.ts";

export type UserSummary = {
  id: string;
  email: string;
  createdAt: string;
  isAdmin: boolean;
  /** Sessions that have not expired: where the account is signed in right now. */
  activeSessions: number;
};

/**
 * Why an admin's change to an account was refused:
 * - `notFound`: the account no longer exists;
 * - `lastAdmin`: it would leave the site without an admin;
 * - `confirmSelf`: the admin acts on their own account without the extra confirmation.
 */
export type UserChangeReason = "notFound" | "lastAdmin" | "confirmSelf";
export type UserChangeResult = { ok: true; email: string; changed: boolean } | { ok: false; reason: UserChangeReason };

/** Every account, newest first, with its role and how many live sessions it has. */
export async function listUsers(db: Kysely<Database>, now = new Date()): Promise<UserSummary[]> {
  const [users, admins, sessions] = await Promise.all([
    db.selectFrom("user").select(["id", "email", "createdAt"]).orderBy("createdAt", "desc").orderBy("email").execute(),
    db.selectFrom("user_roles").select("user_id").where("role", "=", "admin").execute(),
    db
      .selectFrom("session")
      .select((eb) => ["userId", eb.fn.countAll<number | string>().as("count")])
      .where("expiresAt", ">", now)
      .groupBy("userId")
      .execute(),
  ]);
  const adminIds = new Set(admins.map((row) => row.user_id));
  const sessionCounts = new Map(sessions.map((row) => [row.userId, Number(row.count)]));
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    createdAt: toIsoString(user.createdAt),
    isAdmin: adminIds.has(user.id),
    activeSessions: sessionCounts.get(user.id) ?? 0,
  }));
}

async function emailOf(db: Kysely<Database>, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom("user").select("email").where("id", "=", userId).executeTakeFirst();
  return row?.email;
}

/** Grants or removes the admin role. Removing it never leaves the site without an admin. */
export async function setAdminRole(
  db: Kysely<Database>,
  actor: AuditActor,
  input: { userId: string; admin: boolean; confirmSelf?: boolean },
): Promise<UserChangeResult> {
  if (!input.admin && input.userId === actor.id && !input.confirmSelf) return { ok: false, reason: "confirmSelf" };
  try {
    return await db.transaction().execute(async (trx): Promise<UserChangeResult> => {
      const email = await emailOf(trx, input.userId);
      if (email === undefined) return { ok: false, reason: "notFound" };
      if (input.admin) {
        const result = await trx
          .insertInto("user_roles")
          .values({ user_id: input.userId, role: "admin", created_at: new Date() })
          .onConflict((oc) => oc.columns(["user_id", "role"]).doNothing())
          .executeTakeFirst();
        const changed = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
        if (changed) {
          // The first-admin setup code is worthless from now on; do not leave it lying around.
          await removeUnusedAdminCodes(trx);
          await recordAudit(trx, actor, {
            action: "users.grantAdmin",
            target: email,
            oldValue: "user",
            newValue: "admin",
          });
        }
        return { ok: true, email, changed };
      }
      if (!(await lockAdminsAndCheck(trx, input.userId))) return { ok: true, email, changed: false };
      await trx.deleteFrom("user_roles").where("user_id", "=", input.userId).where("role", "=", "admin").execute();
      await recordAudit(trx, actor, {
        action: "users.revokeAdmin",
        target: email,
        oldValue: "admin",
        newValue: "user",
      });
      return { ok: true, email, changed: true };
    });
  } catch (error) {
    if (error instanceof LastAdminError) return { ok: false, reason: "lastAdmin" };
    throw error;
  }
}

/** Ends every session of the account: it is signed out on every device at its next request. */
export async function signOutEverywhere(
  db: Kysely<Database>,
  actor: AuditActor,
  userId: string,
): Promise<UserChangeResult & { sessions?: number }> {
  return db.transaction().execute(async (trx) => {
    const email = await emailOf(trx, userId);
    if (email === undefined) return { ok: false as const, reason: "notFound" as const };
    const result = await trx.deleteFrom("session").where("userId", "=", userId).executeTakeFirst();
    const sessions = Number(result.numDeletedRows ?? 0);
    await recordAudit(trx, actor, { action: "users.signOut", target: email, newValue: `${sessions} sessions ended` });
    return { ok: true as const, email, changed: sessions > 0, sessions };
  });
}

/**
 * Deletes the account with its sessions, credentials and roles (foreign keys cascade). The history of the
 * invite code it used stays: `invite_codes.used_by` has no foreign key and then names a deleted account.
 */
export async function deleteUser(
  db: Kysely<Database>,
  actor: AuditActor,
  input: { userId: string; confirmSelf?: boolean },
): Promise<UserChangeResult> {
  if (input.userId === actor.id && !input.confirmSelf) return { ok: false, reason: "confirmSelf" };
  try {
    return await db.transaction().execute(async (trx): Promise<UserChangeResult> => {
      const email = await emailOf(trx, input.userId);
      if (email === undefined) return { ok: false, reason: "notFound" };
      await lockAdminsAndCheck(trx, input.userId);
      // Deleted explicitly rather than trusting every database to cascade.
      await trx.deleteFrom("session").where("userId", "=", input.userId).execute();
      await trx.deleteFrom("account").where("userId", "=", input.userId).execute();
      await trx.deleteFrom("user_roles").where("user_id", "=", input.userId).execute();
      await trx.deleteFrom("user").where("id", "=", input.userId).execute();
      await recordAudit(trx, actor, { action: "users.delete", target: email, oldValue: email });
      return { ok: true, email, changed: true };
    });
  } catch (error) {
    if (error instanceof LastAdminError) return { ok: false, reason: "lastAdmin" };
    throw error;
  }
}
