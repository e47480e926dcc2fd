import type { Kysely } from "kysely";
import { generateRecoveryCodes, hashRecoveryCodeList } from "#app/auth/recovery-codes.server.ts";
import type { Database } from "#app/db/schema.ts";
import { toBoolean } from "#app/db/values.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { normalizeEmail } from "./email.ts";

/**
 * Two-factor sign-in around better-auth's plugin (app/auth/auth.server.ts): what the plugin does not do for us.
 * The plugin owns the TOTP secret, the checks and the sessions; here are the status the pages show, the recovery
 * codes issued once enrolment is confirmed, the operator's reset, the admin rule, and the audit records.
 */

/** The audit actions of two-factor sign-in (never with a secret or a code). */
export const TWO_FACTOR_AUDIT = {
  enabled: "account.two-factor-on",
  disabled: "account.two-factor-off",
  codesRegenerated: "account.recovery-codes-new",
  reset: "users.two-factor-reset",
} as const;

export type TwoFactorStatus = {
  enabled: boolean;
  /** An enrolment started ("turn on") but not yet confirmed with a first code. */
  pending: boolean;
  /** Unused recovery codes left (0 when off). */
  recoveryCodesLeft: number;
};

export async function readTwoFactorStatus(db: Kysely<Database>, userId: string): Promise<TwoFactorStatus> {
  const user = await db.selectFrom("user").select("twoFactorEnabled").where("id", "=", userId).executeTakeFirst();
  const row = await db
    .selectFrom("twoFactor")
    .select(["verified", "backupCodes"])
    .where("userId", "=", userId)
    .executeTakeFirst();
  const enabled = user?.twoFactorEnabled != null && toBoolean(user.twoFactorEnabled);
  const verified = row !== undefined && (row.verified == null || toBoolean(row.verified));
  let recoveryCodesLeft = 0;
  if (enabled && row) {
    try {
      const list = JSON.parse(row.backupCodes) as unknown;
      recoveryCodesLeft = Array.isArray(list) ? list.length : 0;
    } catch {
      recoveryCodesLeft = 0;
    }
  }
  return { enabled: enabled && verified, pending: row !== undefined && !verified, recoveryCodesLeft };
}

export async function hasTwoFactor(db: Kysely<Database>, userId: string): Promise<boolean> {
  return (await readTwoFactorStatus(db, userId)).enabled;
}

/**
 * Replaces the user's recovery codes with ten new ones and returns them (to be shown once); only their hashes are
 * stored, in the plugin's column and form, so that the plugin's `verifyBackupCode` checks them. Used right after
 * the first code confirmed enrolment: the plugin's own `generateBackupCodes` would ask for the password again,
 * which the person typed a minute before. Returns null when the user has no confirmed enrolment. `audit` is the
 * change the codes come with (two-factor sign-in turned on), recorded in the same transaction as the codes.
 */
export async function issueRecoveryCodes(
  db: Kysely<Database>,
  actor: AuditActor,
  options: { audit: (typeof TWO_FACTOR_AUDIT)[keyof typeof TWO_FACTOR_AUDIT] },
): Promise<string[] | null> {
  const codes = generateRecoveryCodes();
  const updated = await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("twoFactor")
      .set({ backupCodes: hashRecoveryCodeList(JSON.stringify(codes)) })
      .where("userId", "=", actor.id)
      .executeTakeFirst();
    // The change itself (the plugin's) is done either way: it is recorded even when no codes could be stored.
    await recordAudit(trx, actor, { action: options.audit, target: actor.email });
    return Number(result.numUpdatedRows) > 0;
  });
  return updated ? codes : null;
}

/**
 * The audit entry of a change better-auth's plugin made (turned off, new codes): the plugin writes in its own
 * transaction, which we cannot join, so the entry follows once it has answered that the change is done.
 */
export async function auditTwoFactorChange(
  db: Kysely<Database>,
  actor: AuditActor,
  action: (typeof TWO_FACTOR_AUDIT)[keyof typeof TWO_FACTOR_AUDIT],
): Promise<void> {
  await recordAudit(db, actor, { action, target: actor.email });
}

/**
 * The operator's way out for a lost device (`npm run cli -- users reset-2fa <email>`): two-factor sign-in off, the
 * secret and every recovery code gone, recorded in the audit log. The account's sessions stay as they are.
 */
export async function resetTwoFactor(
  db: Kysely<Database>,
  actor: AuditActor,
  emailInput: string,
): Promise<"reset" | "notEnabled" | "notFound"> {
  const email = normalizeEmail(emailInput);
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("user").select(["id", "email"]).where("email", "=", email).executeTakeFirst();
    if (!user) return "notFound";
    const removed = await trx.deleteFrom("twoFactor").where("userId", "=", user.id).executeTakeFirst();
    const turnedOff = await trx
      .updateTable("user")
      .set({ twoFactorEnabled: false, updatedAt: new Date() })
      .where("id", "=", user.id)
      .where("twoFactorEnabled", "=", true)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0 && Number(turnedOff.numUpdatedRows) === 0) return "notEnabled";
    await recordAudit(trx, actor, { action: TWO_FACTOR_AUDIT.reset, target: user.email });
    return "reset";
  });
}

/** The site setting "Admins must use two-factor sign-in" (named by its key: users sit below no settings module). */
export function isTwoFactorRequiredForAdmins(settings: { admin_require_two_factor: string }): boolean {
  return settings.admin_require_two_factor === "true";
}

/** The admins who have not turned two-factor sign-in on, by e-mail (for the dashboard's recommendation). */
export async function adminsWithoutTwoFactor(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom("user_roles")
    .innerJoin("user", "user.id", "user_roles.user_id")
    .select(["user.email", "user.twoFactorEnabled"])
    .where("user_roles.role", "=", "admin")
    .orderBy("user.email")
    .execute();
  return rows.filter((row) => row.twoFactorEnabled == null || !toBoolean(row.twoFactorEnabled)).map((r) => r.email);
}
