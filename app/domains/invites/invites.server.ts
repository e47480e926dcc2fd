import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toBoolean } from "#app/db/values.ts";
import { generateInviteCode, normalizeInviteCode } from "./invite-code.ts";

export async function createInviteCodes(
  db: Kysely<Database>,
  options: { count?: number; grantsRole?: "admin" | null; note?: string | null } = {},
): Promise<string[]> {
  const count = options.count ?? 1;
  if (!Number.isInteger(count) || count < 1 || count > 1000) {
    throw new RangeError("The number of codes must be a whole number from 1 to 1000");
  }
  const now = new Date();
  const codes = Array.from({ length: count }, generateInviteCode);
  await db
    .insertInto("invite_codes")
    .values(
      codes.map((code) => ({
        code,
        grants_role: options.grantsRole ?? null,
        note: options.note ?? null,
        created_at: now,
      })),
    )
    .execute();
  return codes;
}

/** True when the code exists and is unused; does not claim it. */
export async function isInviteCodeAvailable(db: Kysely<Database>, input: string): Promise<boolean> {
  const code = normalizeInviteCode(input);
  if (!code) return false;
  const row = await db.selectFrom("invite_codes").select("is_used").where("code", "=", code).executeTakeFirst();
  return row !== undefined && !toBoolean(row.is_used);
}

export type InviteCodeState = {
  code: string;
  isUsed: boolean;
  usedBy: string | null;
  usedAt: string | null;
  grantsRole: string | null;
};

export async function findInviteCode(db: Kysely<Database>, input: string): Promise<InviteCodeState | undefined> {
  const row = await db
    .selectFrom("invite_codes")
    .select(["code", "is_used", "used_by", "used_at", "grants_role"])
    .where("code", "=", normalizeInviteCode(input))
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    code: row.code,
    isUsed: toBoolean(row.is_used),
    usedBy: row.used_by,
    usedAt: row.used_at === null ? null : new Date(row.used_at).toISOString(),
    grantsRole: row.grants_role,
  };
}

/**
 * The first-admin code: while no admin exists, one unused code that grants the admin role
 * is kept (created if needed) and returned so the start-up can print it. Null once an admin exists.
 */
export async function ensureAdminSetupCode(db: Kysely<Database>): Promise<string | null> {
  if (await adminExists(db)) {
    await removeUnusedAdminCodes(db);
    return null;
  }
  const existing = await db
    .selectFrom("invite_codes")
    .select("code")
    .where("grants_role", "=", "admin")
    .where("is_used", "=", false)
    .orderBy("created_at", "asc")
    .executeTakeFirst();
  if (existing) return existing.code;
  const [code] = await createInviteCodes(db, { grantsRole: "admin", note: "First admin (printed at start)" });
  return code ?? null;
}

export async function adminExists(db: Kysely<Database>): Promise<boolean> {
  const admin = await db.selectFrom("user_roles").select("user_id").where("role", "=", "admin").executeTakeFirst();
  return admin !== undefined;
}

/** The setup code is only for the first admin: once there is one, an unused setup code must not linger in logs. */
export async function removeUnusedAdminCodes(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom("invite_codes").where("grants_role", "=", "admin").where("is_used", "=", false).execute();
}
