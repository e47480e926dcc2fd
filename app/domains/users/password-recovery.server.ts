import type { Kysely } from "kysely";
import { type PasswordProblem, passwordProblem } from "#app/auth/password-policy.ts";
import type { Database } from "#app/db/schema.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import type { MailService } from "#app/domains/mail/mail-message.ts";
import { isLanguage, type Language } from "#app/i18n/i18n.ts";
import { passwordResetMail } from "./account-mails.ts";
import { claimToken, findValidToken, type IssuedToken, issueAccountToken } from "./account-tokens.server.ts";
import { normalizeEmail } from "./email.ts";
import { findUserByEmail, setPassword } from "./users.server.ts";

export type RecoveryDeps = { db: Kysely<Database>; mail: MailService; baseUrl: string };

/** The page a reset link opens; the token travels in the query (the request log hides `token` values). */
export function resetLinkFor(baseUrl: string, token: string): string {
  const url = new URL("/auth/reset", baseUrl);
  url.searchParams.set("token", token);
  return url.href;
}

/**
 * A "Forgot password?" request. Does nothing visible for an address without an account: the caller answers
 * the same either way, and runs this in the background so that the answer takes the same time too. For an
 * account: the language of its mails becomes the one it asked in, a new link replaces any older one, the mail
 * goes out, and the request is audited (the account as actor: nobody else is known).
 */
export async function requestPasswordReset(
  deps: RecoveryDeps,
  input: { email: string; language: Language },
  now = new Date(),
): Promise<void> {
  const user = await findUserByEmail(deps.db, input.email);
  if (!user) return;
  await deps.db.updateTable("user").set({ language: input.language }).where("id", "=", user.id).execute();
  const { token } = await issueAccountToken(deps.db, { userId: user.id, purpose: "password-reset" }, now);
  await recordAudit(
    deps.db,
    { id: user.id, email: user.email },
    { action: "users.password-reset-request", target: user.email },
  );
  await deps.mail.send(passwordResetMail(user.email, input.language, resetLinkFor(deps.baseUrl, token)));
}

export class UnknownAccountError extends Error {
  override name = "UnknownAccountError";
}

/**
 * A reset link for the command line (an operator helping someone locked out, or the owner on a machine without
 * mail): the same kind of token as a mailed one, so it replaces older ones, lasts an hour and works once.
 */
export async function createResetLink(
  db: Kysely<Database>,
  input: { email: string; baseUrl: string; actor: AuditActor },
  now = new Date(),
): Promise<IssuedToken & { url: string }> {
  const user = await findUserByEmail(db, input.email);
  if (!user) throw new UnknownAccountError(`No account with the e-mail address ${normalizeEmail(input.email)}`);
  const issued = await issueAccountToken(db, { userId: user.id, purpose: "password-reset" }, now);
  await recordAudit(db, input.actor, { action: "users.password-reset-link", target: user.email });
  return { ...issued, url: resetLinkFor(input.baseUrl, issued.token) };
}

/** Whether a reset link still works, and for which account (the page shows the address). */
export async function checkResetToken(
  db: Kysely<Database>,
  token: string,
  now = new Date(),
): Promise<{ email: string; language: Language } | null> {
  const valid = await findValidToken(db, "password-reset", token, now);
  if (!valid) return null;
  return { email: valid.email, language: isLanguage(valid.language) ? valid.language : "en" };
}

export type ResetResult =
  | { ok: true; email: string; sessionsEnded: number }
  | { ok: false; reason: "invalidToken" | `password.${PasswordProblem}` };

/**
 * Sets the new password a reset link allows. The password is checked against the policy before the token is
 * used, so a refused password leaves the link working; then the token is claimed (once, whoever races), and
 * setPassword ends every session of the account and removes its other reset links.
 */
export async function resetPasswordWithToken(
  db: Kysely<Database>,
  input: { token: string; password: string },
  now = new Date(),
): Promise<ResetResult> {
  const valid = await findValidToken(db, "password-reset", input.token, now);
  if (!valid) return { ok: false, reason: "invalidToken" };
  const problem = passwordProblem(input.password, valid.email);
  if (problem) return { ok: false, reason: `password.${problem}` };
  if (!(await claimToken(db, "password-reset", input.token, now))) return { ok: false, reason: "invalidToken" };
  const result = await setPassword(db, { email: valid.email, password: input.password });
  if (!result.ok) return { ok: false, reason: result.reason === "notFound" ? "invalidToken" : result.reason };
  await recordAudit(
    db,
    { id: valid.userId, email: valid.email },
    { action: "users.password-reset", target: valid.email },
  );
  return { ok: true, email: valid.email, sessionsEnded: result.sessionsEnded };
}
