import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import type { Kysely, Transaction } from "kysely";
import { type PasswordProblem, passwordProblem } from "#app/auth/password-policy.ts";
import type { Database } from "#app/db/schema.ts";
import { normalizeInviteCode } from "#app/domains/invites/invite-code.ts";
import { joinInviteGroups } from "#app/domains/invites/invite-groups.server.ts";
import { adminExists, isInviteCodeAvailable, removeUnusedAdminCodes } from "#app/domains/invites/invites.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { deleteAccountTokens } from "./account-tokens.server.ts";
import { isValidEmail, normalizeEmail } from "./email.ts";

export type SignUpReason =
  | "inviteRequired"
  | "inviteInvalid"
  | "emailRequired"
  | "emailInvalid"
  | "emailTaken"
  | `password.${PasswordProblem}`;

export class SignUpError extends Error {
  override name = "SignUpError";
  readonly reason: SignUpReason;
  constructor(reason: SignUpReason) {
    super(reason);
    this.reason = reason;
  }
}

class InviteClaimLost extends Error {}

export type NewAccount = { userId: string; email: string; isAdmin: boolean };

/**
 * Creates an account with an invite code. The code is claimed, the user, the credential,
 * any role the code grants and the groups it gives are written in one transaction: either all
 * of it happens, or nothing does and the code stays unused. A conditional update on `is_used` means that
 * of many simultaneous sign-ups with one code exactly one wins.
 */
export async function signUpWithInvite(
  db: Kysely<Database>,
  input: { email: string; password: string; inviteCode: string; language?: Language },
): Promise<NewAccount> {
  if (!input.inviteCode.trim()) throw new SignUpError("inviteRequired");
  const code = normalizeInviteCode(input.inviteCode);
  if (!code || !(await isInviteCodeAvailable(db, code))) throw new SignUpError("inviteInvalid");

  const email = normalizeEmail(input.email);
  if (!email) throw new SignUpError("emailRequired");
  if (!isValidEmail(email)) throw new SignUpError("emailInvalid");
  const problem = passwordProblem(input.password, email);
  if (problem) throw new SignUpError(`password.${problem}`);
  if (await emailExists(db, email)) throw new SignUpError("emailTaken");

  // Hashing is slow on purpose; do it before the transaction holds any lock.
  const passwordHash = await hashPassword(input.password);
  const userId = randomUUID();
  const now = new Date();

  try {
    return await db.transaction().execute(async (trx) => {
      const claim = await trx
        .updateTable("invite_codes")
        .set({ is_used: true, used_by: userId, used_at: now })
        .where("code", "=", code)
        .where("is_used", "=", false)
        .returning(["grants_role"])
        .executeTakeFirst();
      if (!claim) throw new InviteClaimLost();
      // An admin-granting code is the first-admin setup code: worthless once any admin exists.
      if (claim.grants_role === "admin" && (await adminExists(trx))) throw new InviteClaimLost();

      await trx
        .insertInto("user")
        .values({
          id: userId,
          name: "",
          email,
          emailVerified: false,
          image: null,
          createdAt: now,
          updatedAt: now,
          // The language of the sign-up page: the account's mails are written in it until it signs in with another.
          language: input.language ?? "en",
        })
        .execute();
      await trx
        .insertInto("account")
        .values({
          id: randomUUID(),
          accountId: userId,
          providerId: "credential",
          userId,
          password: passwordHash,
          accessToken: null,
          refreshToken: null,
          idToken: null,
          accessTokenExpiresAt: null,
          refreshTokenExpiresAt: null,
          scope: null,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
      const isAdmin = claim.grants_role === "admin";
      if (isAdmin) {
        await trx.insertInto("user_roles").values({ user_id: userId, role: "admin", created_at: now }).execute();
      }
      // The first-admin setup code is never given groups (an admin sees everything), so this joins none for it.
      await joinInviteGroups(trx, code, userId);
      return { userId, email, isAdmin };
    });
  } catch (error) {
    if (error instanceof InviteClaimLost) throw new SignUpError("inviteInvalid");
    // On PostgreSQL a failed insert aborts the transaction, so the unique violation is read from the error itself.
    if (isUniqueViolation(error)) throw new SignUpError("emailTaken");
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint/.test(e?.message ?? "");
}

async function emailExists(db: Kysely<Database>, email: string): Promise<boolean> {
  const row = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirst();
  return row !== undefined;
}

export async function findUserByEmail(db: Kysely<Database>, input: string) {
  return db.selectFrom("user").select(["id", "email"]).where("email", "=", normalizeEmail(input)).executeTakeFirst();
}

export async function isAdmin(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("user_roles")
    .select("role")
    .where("user_id", "=", userId)
    .where("role", "=", "admin")
    .executeTakeFirst();
  return row !== undefined;
}

export class RoleChangeError extends Error {
  override name = "RoleChangeError";
}

/** The change would leave the site without an admin. */
export class LastAdminError extends RoleChangeError {
  override name = "LastAdminError";
}

export async function grantAdmin(db: Kysely<Database>, email: string): Promise<"granted" | "already"> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new RoleChangeError(`No user with the e-mail address ${normalizeEmail(email)}`);
  const result = await db
    .insertInto("user_roles")
    .values({ user_id: user.id, role: "admin", created_at: new Date() })
    .onConflict((oc) => oc.columns(["user_id", "role"]).doNothing())
    .executeTakeFirst();
  await removeUnusedAdminCodes(db);
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? "granted" : "already";
}

/** Refuses to remove the last admin, so the site can always be administered. */
export async function revokeAdmin(db: Kysely<Database>, email: string): Promise<"revoked" | "notAdmin"> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new RoleChangeError(`No user with the e-mail address ${normalizeEmail(email)}`);
  return db.transaction().execute(async (trx) => {
    if (!(await lockAdminsAndCheck(trx, user.id))) return "notAdmin";
    await trx.deleteFrom("user_roles").where("user_id", "=", user.id).where("role", "=", "admin").execute();
    return "revoked";
  });
}

/**
 * Inside the transaction that removes an admin (role or account): locks every admin row and refuses
 * when the user is the last admin. Returns whether the user is an admin at all.
 */
export async function lockAdminsAndCheck(trx: Transaction<Database>, userId: string): Promise<boolean> {
  // Touching every admin row first locks them (row locks on PostgreSQL, the write lock on SQLite):
  // two revocations at the same moment run one after the other, and the second sees the first.
  // A single DELETE … WHERE EXISTS (another admin) is not enough on PostgreSQL, where both
  // statements can see the other admin in their snapshots and remove the last two together.
  await trx
    .updateTable("user_roles")
    .set((eb) => ({ role: eb.ref("role") }))
    .where("role", "=", "admin")
    .execute();
  const admins = await trx.selectFrom("user_roles").select("user_id").where("role", "=", "admin").execute();
  if (!admins.some((row) => row.user_id === userId)) return false;
  if (admins.length < 2) throw new LastAdminError("Refusing to revoke the last admin");
  return true;
}

export type PasswordChangeResult =
  | { ok: true; sessionsEnded: number }
  | { ok: false; reason: "notFound" | `password.${PasswordProblem}` };

/**
 * Sets a user's password and ends every session of the user in the same transaction: whoever held one (perhaps
 * with the old password) must sign in again. The account's failed sign-ins and password reset links are forgotten
 * too. The caller keeps the person changing their own password signed in, if it wants to, by signing them in afresh.
 */
export async function setPassword(
  db: Kysely<Database>,
  input: { email: string; password: string },
): Promise<PasswordChangeResult> {
  const email = normalizeEmail(input.email);
  const user = await findUserByEmail(db, email);
  if (!user) return { ok: false, reason: "notFound" };
  const problem = passwordProblem(input.password, email);
  if (problem) return { ok: false, reason: `password.${problem}` };
  // Hashing is slow on purpose; do it before the transaction holds any lock.
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  return db.transaction().execute(async (trx): Promise<PasswordChangeResult> => {
    const updated = await trx
      .updateTable("account")
      .set({ password: passwordHash, updatedAt: now })
      .where("userId", "=", user.id)
      .where("providerId", "=", "credential")
      .executeTakeFirst();
    // Every account made here has a password; one without (made elsewhere) is not this function's to give one.
    if (Number(updated.numUpdatedRows) === 0) return { ok: false, reason: "notFound" };
    const ended = await trx.deleteFrom("session").where("userId", "=", user.id).executeTakeFirst();
    await trx.deleteFrom("sign_in_failures").where("account", "=", email).execute();
    // A reset link mailed before the change must not undo it.
    await deleteAccountTokens(trx, user.id, "password-reset");
    return { ok: true, sessionsEnded: Number(ended.numDeletedRows ?? 0) };
  });
}
