import { verifyPassword } from "better-auth/crypto";
import type { Kysely } from "kysely";
import { PASSWORD_MAX_LENGTH, type PasswordProblem, passwordProblem } from "#app/auth/password-policy.ts";
import { isPastAbsoluteLifetime } from "#app/auth/session.server.ts";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import type { MailMessage } from "#app/domains/mail/mail-message.ts";
import { isLanguage, type Language } from "#app/i18n/i18n.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";
import { readableAddress } from "#app/lib/ip-address.server.ts";
import { type TextProblem, textSchema } from "#app/lib/text-schema.ts";
import { deleteUser } from "./user-admin.server.ts";
import { describeUserAgent } from "./user-agent.ts";
import { setPassword } from "./users.server.ts";

/**
 * A signed-in person's own account (/account): their password, mail language, sessions and the account itself.
 * `actor` is always the person, as the request's session resolved them; every change is audited under their name.
 */

export type OwnAccount = {
  email: string;
  /** The display name shown as a post's author; empty: the part of the e-mail before @ is shown. */
  name: string;
  language: Language;
  createdAt: string;
  lastSignInAt: string | null;
};

export async function getOwnAccount(db: Kysely<Database>, userId: string): Promise<OwnAccount | undefined> {
  const row = await db
    .selectFrom("user")
    .select(["email", "name", "language", "createdAt", "lastSignInAt"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    email: row.email,
    name: row.name,
    language: isLanguage(row.language) ? row.language : "en",
    createdAt: toIsoString(row.createdAt),
    lastSignInAt: row.lastSignInAt === null ? null : toIsoString(row.lastSignInAt),
  };
}

/**
 * Whether the password is the account's own, by better-auth's hash check on its credential. A password longer than
 * any allowed one is not checked at all (hashing it would only cost time): it cannot be right.
 */
export async function isOwnPassword(db: Kysely<Database>, userId: string, password: string): Promise<boolean> {
  if (!password || password.length > PASSWORD_MAX_LENGTH) return false;
  const credential = await db
    .selectFrom("account")
    .select("password")
    .where("userId", "=", userId)
    .where("providerId", "=", "credential")
    .executeTakeFirst();
  if (!credential?.password) return false;
  return verifyPassword({ hash: credential.password, password });
}

export type OwnPasswordChange =
  | { ok: true; sessionsEnded: number }
  | { ok: false; reason: "wrongPassword" | "notFound" | `password.${PasswordProblem}` };

/**
 * Changes the person's password after checking the current one: the new one must pass the policy, and every session
 * of the account ends (`setPassword`); the caller signs the person in afresh (auth.api.startFreshSession).
 * The policy is checked first, so that a weak new password is refused without spending a password check.
 */
export async function changeOwnPassword(
  db: Kysely<Database>,
  actor: AuditActor,
  input: { currentPassword: string; newPassword: string },
): Promise<OwnPasswordChange> {
  const problem = passwordProblem(input.newPassword, actor.email);
  if (problem) return { ok: false, reason: `password.${problem}` };
  if (!(await isOwnPassword(db, actor.id, input.currentPassword))) return { ok: false, reason: "wrongPassword" };
  const result = await setPassword(db, { email: actor.email, password: input.newPassword });
  if (!result.ok) return result;
  await recordAudit(db, actor, {
    action: "account.changePassword",
    target: actor.email,
    newValue: `${result.sessionsEnded} sessions ended`,
  });
  return result;
}

/** The language the person's mails are written in. Audited only when it changes. */
export async function setOwnLanguage(
  db: Kysely<Database>,
  actor: AuditActor,
  language: Language,
): Promise<{ changed: boolean }> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("user").select("language").where("id", "=", actor.id).executeTakeFirst();
    if (!row || row.language === language) return { changed: false };
    await trx.updateTable("user").set({ language, updatedAt: new Date() }).where("id", "=", actor.id).execute();
    await recordAudit(trx, actor, {
      action: "account.changeLanguage",
      target: actor.email,
      oldValue: row.language,
      newValue: language,
    });
    return { changed: true };
  });
}

export const DISPLAY_NAME_MAX = 80;
const displayNameSchema = textSchema({ max: DISPLAY_NAME_MAX });

/**
 * Sets the person's display name (better-auth's `name`; shown as the author of their posts). Empty is allowed:
 * the part of the e-mail before @ stands in. A refused name (too long, control characters, a line break)
 * changes nothing and says why, as the shared text rule's problem code.
 */
export async function setOwnName(
  db: Kysely<Database>,
  actor: AuditActor,
  name: unknown,
): Promise<{ ok: true; changed: boolean } | { ok: false; reason: TextProblem }> {
  const parsed = displayNameSchema.safeParse(name);
  if (!parsed.success) return { ok: false, reason: (parsed.error.issues[0]?.message ?? "invalid") as TextProblem };
  const value = parsed.data;
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("user").select("name").where("id", "=", actor.id).executeTakeFirst();
    if (!row || row.name === value) return { ok: true, changed: false } as const;
    await trx.updateTable("user").set({ name: value, updatedAt: new Date() }).where("id", "=", actor.id).execute();
    await recordAudit(trx, actor, {
      action: "account.changeName",
      target: actor.email,
      oldValue: row.name,
      newValue: value,
    });
    return { ok: true, changed: true } as const;
  });
}

export type OwnSession = {
  id: string;
  browser: string;
  system: string;
  ipAddress: string;
  createdAt: string;
  updatedAt: string;
  current: boolean;
};

/**
 * The account's live sessions, the current one first, then the most recently used. Expired ones and those past their
 * absolute lifetime (session.server.ts) are left out: they can no longer be used, whatever their row says.
 */
export async function listOwnSessions(
  db: Kysely<Database>,
  userId: string,
  currentSessionId: string,
  now = new Date(),
): Promise<OwnSession[]> {
  const rows = await db
    .selectFrom("session")
    .select(["id", "userAgent", "ipAddress", "createdAt", "updatedAt"])
    .where("userId", "=", userId)
    .where("expiresAt", ">", now)
    .execute();
  return rows
    .filter((row) => !isPastAbsoluteLifetime(row.createdAt, now))
    .map((row) => ({
      id: row.id,
      ...describeUserAgent(row.userAgent),
      ipAddress: readableAddress(row.ipAddress ?? ""),
      createdAt: toIsoString(row.createdAt),
      updatedAt: toIsoString(row.updatedAt),
      current: row.id === currentSessionId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.updatedAt.localeCompare(a.updatedAt));
}

function deviceName(row: { userAgent: string | null }): string {
  const { browser, system } = describeUserAgent(row.userAgent);
  return [browser, system].filter(Boolean).join(", ") || "unknown device";
}

/**
 * Ends one of the person's other sessions (that device is signed out at its next request). Their current session
 * is not ended here: signing out is /auth/sign-out's. `false` when there is no such session of theirs (any more).
 */
export async function endOwnSession(
  db: Kysely<Database>,
  actor: AuditActor & { sessionId: string },
  sessionId: string,
): Promise<boolean> {
  if (sessionId === actor.sessionId) return false;
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("session")
      .select(["id", "userAgent"])
      .where("id", "=", sessionId)
      .where("userId", "=", actor.id)
      .executeTakeFirst();
    if (!row) return false;
    await trx.deleteFrom("session").where("id", "=", row.id).execute();
    await recordAudit(trx, actor, {
      action: "account.endSession",
      target: actor.email,
      newValue: `1 session ended (${deviceName(row)})`,
    });
    return true;
  });
}

/** Ends every session of the person but the current one. Returns how many ended. */
export async function endOtherOwnSessions(
  db: Kysely<Database>,
  actor: AuditActor & { sessionId: string },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom("session")
      .where("userId", "=", actor.id)
      .where("id", "!=", actor.sessionId)
      .executeTakeFirst();
    const ended = Number(result.numDeletedRows ?? 0);
    if (ended > 0) {
      await recordAudit(trx, actor, {
        action: "account.endSession",
        target: actor.email,
        newValue: `${ended} sessions ended (all others)`,
      });
    }
    return ended;
  });
}

export type OwnAccountDeletion = { ok: true } | { ok: false; reason: "wrongPassword" | "lastAdmin" | "notFound" };

/**
 * Deletes the person's account after checking their password, as an admin would (user-admin.server.ts: sessions,
 * credentials and roles go, the invite history keeps "deleted account", the last admin is refused; audited as
 * `users.delete` by the person themselves).
 */
export async function deleteOwnAccount(
  db: Kysely<Database>,
  actor: AuditActor,
  password: string,
): Promise<OwnAccountDeletion> {
  if (!(await isOwnPassword(db, actor.id, password))) return { ok: false, reason: "wrongPassword" };
  const result = await deleteUser(db, actor, { userId: actor.id, confirmSelf: true });
  if (result.ok) return { ok: true };
  return { ok: false, reason: result.reason === "lastAdmin" ? "lastAdmin" : "notFound" };
}

const PASSWORD_CHANGED_MAIL: Record<
  Language,
  { subject: string; changed: string; yours: string; notYours: string; action: string }
> = {
  en: {
    subject: "Your password on {site} was changed",
    changed: "The password of your account {email} on {site} was changed on {when} UTC.",
    yours: "If you changed it, there is nothing more to do: you are now signed in only where you changed it.",
    notYours:
      "If you did not, someone else knows your password: set a new one at once with “Forgot password?” on the sign-in page, and tell the site's owner.",
    action: "Go to the sign-in page",
  },
  de: {
    subject: "Ihr Passwort bei {site} wurde geändert",
    changed: "Das Passwort Ihres Kontos {email} bei {site} wurde am {when} UTC geändert.",
    yours:
      "Wenn Sie es geändert haben, ist nichts weiter zu tun: Sie sind jetzt nur dort angemeldet, wo Sie es geändert haben.",
    notYours:
      "Wenn nicht, kennt jemand anderes Ihr Passwort: Legen Sie sofort mit „Passwort vergessen?“ auf der Anmeldeseite ein neues fest, und sagen Sie es dem Betreiber der Website.",
    action: "Zur Anmeldeseite",
  },
};

/** The notice to the account's own address after its password changed: nothing secret, in the account's language. */
export function passwordChangedMail(input: {
  to: string;
  language: Language;
  siteName: string;
  baseUrl: string;
  when: Date;
}): MailMessage {
  const words = PASSWORD_CHANGED_MAIL[input.language];
  const when = dateTimeFormat(input.language === "de" ? "de-DE" : "en-GB", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(input.when);
  const fill = (text: string) =>
    text.replaceAll("{site}", input.siteName).replaceAll("{email}", input.to).replaceAll("{when}", when);
  return {
    to: input.to,
    language: input.language,
    kind: "password-changed",
    subject: fill(words.subject),
    paragraphs: [fill(words.changed), words.yours, words.notYours],
    action: { label: words.action, url: `${input.baseUrl}/auth` },
  };
}
