import type { Kysely, Transaction } from "kysely";
import type { AccountTokensTable, Database } from "#app/db/schema.ts";
import { createSecretToken, hashSecretToken } from "#app/lib/secret-token.server.ts";

/**
 * One-time links of an account: a password reset, the confirmation of a new e-mail address. The person gets the
 * token (256 random bits) in a link; the database keeps only its SHA-256, so a copy of the database (a backup)
 * opens no account. A newer token of the same purpose replaces the older ones, a password change removes every
 * reset token (setPassword in users.server.ts), and a token works once.
 */
export type TokenPurpose = AccountTokensTable["purpose"];

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  "password-reset": 60 * 60_000,
  // Mail to a new address may wait in a queue or a spam folder for a while; the change also needs the password.
  "email-change": 24 * 60 * 60_000,
};

/** Longer than any token (43 characters of base64url): anything longer is refused before it is hashed. */
export const TOKEN_MAX_LENGTH = 100;

type Db = Kysely<Database> | Transaction<Database>;

export type IssuedToken = { token: string; expiresAt: Date };

/** Creates a token for the user and removes the user's older ones of the same purpose, in one transaction. */
export async function issueAccountToken(
  db: Kysely<Database>,
  input: { userId: string; purpose: TokenPurpose; newEmail?: string | null },
  now = new Date(),
): Promise<IssuedToken> {
  const { token, hash } = createSecretToken();
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS[input.purpose]);
  await db.transaction().execute(async (trx) => {
    await deleteAccountTokens(trx, input.userId, input.purpose);
    // Every new link clears out long-expired ones (of anyone), so the table needs no timer of its own.
    await sweepAccountTokens(trx, now);
    await trx
      .insertInto("account_tokens")
      .values({
        token_hash: hash,
        user_id: input.userId,
        purpose: input.purpose,
        new_email: input.newEmail ?? null,
        expires_at: expiresAt,
        created_at: now,
        used_at: null,
      })
      .execute();
  });
  return { token, expiresAt };
}

export async function deleteAccountTokens(db: Db, userId: string, purpose?: TokenPurpose): Promise<void> {
  let query = db.deleteFrom("account_tokens").where("user_id", "=", userId);
  if (purpose) query = query.where("purpose", "=", purpose);
  await query.execute();
}

export type ValidToken = { userId: string; email: string; language: string; newEmail: string | null };

/** The account a token opens, while it is unused and unexpired; null for anything else (no reason is told). */
export async function findValidToken(
  db: Db,
  purpose: TokenPurpose,
  token: string,
  now = new Date(),
): Promise<ValidToken | null> {
  if (!token || token.length > TOKEN_MAX_LENGTH) return null;
  const row = await db
    .selectFrom("account_tokens")
    .innerJoin("user", "user.id", "account_tokens.user_id")
    .select(["user.id", "user.email", "user.language", "account_tokens.new_email"])
    .where("account_tokens.token_hash", "=", hashSecretToken(token))
    .where("account_tokens.purpose", "=", purpose)
    .where("account_tokens.used_at", "is", null)
    .where("account_tokens.expires_at", ">", now)
    .executeTakeFirst();
  return row ? { userId: row.id, email: row.email, language: row.language, newEmail: row.new_email } : null;
}

/**
 * Marks a token used if it still is valid. A conditional update: of two requests with one token at the same
 * moment exactly one claims it. Returns whether this call did.
 */
export async function claimToken(db: Db, purpose: TokenPurpose, token: string, now = new Date()): Promise<boolean> {
  if (!token || token.length > TOKEN_MAX_LENGTH) return false;
  const result = await db
    .updateTable("account_tokens")
    .set({ used_at: now })
    .where("token_hash", "=", hashSecretToken(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes tokens that expired a day ago or more (used ones of an e-mail change stay until then, as a record). */
export async function sweepAccountTokens(db: Db, now = new Date()): Promise<void> {
  await db.deleteFrom("account_tokens").where("expires_at", "<", dayBefore(now)).execute();
}

const dayBefore = (now: Date) => new Date(now.getTime() - 24 * 60 * 60_000);

/**
 * The recurring sweep (a job, app/runtime/job-handlers.server.ts): account tokens expired a day ago or more, as
 * every new link does, and better-auth's pending verifications (a second factor's sign-in in progress) expired as
 * long ago, which nothing else removes once their sign-in was given up. Answers how many rows went.
 */
export async function sweepExpiredTokens(db: Kysely<Database>, now = new Date()): Promise<number> {
  const dayAgo = dayBefore(now);
  const tokens = await db.deleteFrom("account_tokens").where("expires_at", "<", dayAgo).executeTakeFirst();
  const verifications = await db.deleteFrom("verification").where("expiresAt", "<", dayAgo).executeTakeFirst();
  return Number(tokens.numDeletedRows ?? 0) + Number(verifications.numDeletedRows ?? 0);
}
