import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { recordAudit } from "#app/domains/audit/audit.server.ts";
import type { MailService } from "#app/domains/mail/mail-message.ts";
import { isLanguage, type Language } from "#app/i18n/i18n.ts";
import { isOwnPassword } from "./account.server.ts";
import { emailChangeConfirmMail, emailChangedNoticeMail } from "./account-mails.ts";
import {
  claimToken,
  deleteAccountTokens,
  findValidToken,
  issueAccountToken,
  TOKEN_MAX_LENGTH,
} from "./account-tokens.server.ts";
import { isValidEmail, normalizeEmail } from "./email.ts";

export type EmailChangeDeps = { db: Kysely<Database>; mail: MailService; baseUrl: string };

export type EmailChangeProblem =
  | "emailRequired"
  | "emailInvalid"
  | "sameEmail"
  | "emailTaken"
  | "passwordRequired"
  | "wrongPassword";

export function confirmLinkFor(baseUrl: string, token: string): string {
  const url = new URL("/account/confirm-email", baseUrl);
  url.searchParams.set("token", token);
  return url.href;
}

async function emailInUse(db: Kysely<Database>, email: string): Promise<boolean> {
  return (await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirst()) !== undefined;
}

/** The change waiting for its confirmation, if any (the page shows where the link went). */
export async function pendingEmailChange(
  db: Kysely<Database>,
  userId: string,
  now = new Date(),
): Promise<{ newEmail: string; expiresAt: string } | null> {
  const row = await db
    .selectFrom("account_tokens")
    .select(["new_email", "expires_at"])
    .where("user_id", "=", userId)
    .where("purpose", "=", "email-change")
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return row?.new_email ? { newEmail: row.new_email, expiresAt: toIsoString(row.expires_at) } : null;
}

/**
 * Step one: the signed-in user names a new address and proves it is them with the password. A link goes to the
 * new address; nothing changes yet. A newer request replaces an older one's link.
 */
export async function requestEmailChange(
  deps: EmailChangeDeps,
  input: { userId: string; email: string; newEmail: string; password: string; language: Language },
  now = new Date(),
): Promise<{ ok: true; newEmail: string } | { ok: false; reason: EmailChangeProblem }> {
  const newEmail = normalizeEmail(input.newEmail);
  if (!newEmail) return { ok: false, reason: "emailRequired" };
  if (!isValidEmail(newEmail)) return { ok: false, reason: "emailInvalid" };
  if (newEmail === normalizeEmail(input.email)) return { ok: false, reason: "sameEmail" };
  if (!input.password) return { ok: false, reason: "passwordRequired" };
  if (!(await isOwnPassword(deps.db, input.userId, input.password))) {
    return { ok: false, reason: "wrongPassword" };
  }
  if (await emailInUse(deps.db, newEmail)) return { ok: false, reason: "emailTaken" };
  const { token } = await issueAccountToken(deps.db, { userId: input.userId, purpose: "email-change", newEmail }, now);
  await recordAudit(
    deps.db,
    { id: input.userId, email: input.email },
    { action: "users.email-change-request", target: input.email, newValue: newEmail },
  );
  await deps.mail.send(
    emailChangeConfirmMail(
      { oldEmail: input.email, newEmail, language: input.language },
      confirmLinkFor(deps.baseUrl, token),
    ),
  );
  return { ok: true, newEmail };
}

/** What the confirmation page shows before the change: from which address to which. */
export async function checkEmailChangeToken(
  db: Kysely<Database>,
  token: string,
  now = new Date(),
): Promise<{ email: string; newEmail: string } | null> {
  const valid = await findValidToken(db, "email-change", token, now);
  return valid?.newEmail ? { email: valid.email, newEmail: valid.newEmail } : null;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint/.test(e?.message ?? "");
}

class TokenLost extends Error {}

/**
 * Step two: the link from the mail (proof of the new mailbox) and the account's password (proof of the account:
 * a mistyped address whose owner follows the link gets nothing). The address changes, every other link of the
 * account goes (a reset link mailed to the old address must not open the account any more), and the old
 * address gets a notice. Sessions stay: the password they were signed in with has not changed.
 */
export async function confirmEmailChange(
  deps: EmailChangeDeps,
  input: { token: string; password: string },
  now = new Date(),
): Promise<
  | { ok: true; oldEmail: string; newEmail: string }
  | { ok: false; reason: "invalidToken" | "passwordRequired" | "wrongPassword" | "emailTaken" }
> {
  if (input.token.length > TOKEN_MAX_LENGTH) return { ok: false, reason: "invalidToken" };
  const valid = await findValidToken(deps.db, "email-change", input.token, now);
  if (!valid?.newEmail) return { ok: false, reason: "invalidToken" };
  if (!input.password) return { ok: false, reason: "passwordRequired" };
  if (!(await isOwnPassword(deps.db, valid.userId, input.password))) {
    return { ok: false, reason: "wrongPassword" };
  }
  const newEmail = valid.newEmail;
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (!(await claimToken(trx, "email-change", input.token, now))) throw new TokenLost();
      await trx
        .updateTable("user")
        .set({ email: newEmail, emailVerified: true, updatedAt: now })
        .where("id", "=", valid.userId)
        .execute();
      await deleteAccountTokens(trx, valid.userId, "password-reset");
      await recordAudit(
        trx,
        { id: valid.userId, email: newEmail },
        { action: "users.email-change", target: newEmail, oldValue: valid.email, newValue: newEmail },
      );
    });
  } catch (error) {
    if (error instanceof TokenLost) return { ok: false, reason: "invalidToken" };
    // Someone took the address between the request and now.
    if (isUniqueViolation(error)) return { ok: false, reason: "emailTaken" };
    throw error;
  }
  const language = isLanguage(valid.language) ? valid.language : "en";
  await deps.mail.send(emailChangedNoticeMail({ oldEmail: valid.email, newEmail, language }));
  return { ok: true, oldEmail: valid.email, newEmail };
}
