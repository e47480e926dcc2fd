import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import type { MailService } from "#app/domains/mail/mail-message.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import { isLanguage, type Language } from "#app/i18n/i18n.ts";
import { contactMail } from "./contact-mail.ts";

/** The contact form is offered (the page answers, the menu links it) only while the owner has it on. */
export function contactEnabled(settings: SiteSettings): boolean {
  return settings.contact_enabled === "true";
}

export type ContactMessage = {
  id: string;
  name: string;
  email: string;
  message: string;
  language: Language;
  createdAt: string;
  readAt: string | null;
};

type Row = Database["contact_messages"];

function toMessage(row: Row): ContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    message: row.message,
    language: isLanguage(row.language) ? row.language : "en",
    createdAt: toIsoString(row.created_at),
    readAt: row.read_at === null ? null : toIsoString(row.read_at),
  };
}

/**
 * Where messages go and in which language: the settings' address, or (empty) the first admin's. The language is
 * that of the account with the address (the one its mails are written in), else the first admin's.
 */
export async function contactRecipient(
  db: Kysely<Database>,
  settings: SiteSettings,
): Promise<{ address: string; language: Language } | null> {
  const firstAdmin = await db
    .selectFrom("user_roles")
    .innerJoin("user", "user.id", "user_roles.user_id")
    .select(["user.email", "user.language"])
    .where("user_roles.role", "=", "admin")
    .orderBy("user_roles.created_at")
    .orderBy("user.id")
    .limit(1)
    .executeTakeFirst();
  const address = settings.contact_email.trim() || firstAdmin?.email;
  if (!address) return null;
  const account = await db.selectFrom("user").select("language").where("email", "=", address).executeTakeFirst();
  const language = account?.language ?? firstAdmin?.language;
  return { address, language: isLanguage(language) ? language : "en" };
}

export type ContactSubmission = { name: string; email: string; message: string; language: Language };

/**
 * Keeps the message (first, in its own transaction: it is in the admin area whatever becomes of the mail), then
 * hands the mail to the mail service, which delivers it after the answer and records a failure for the
 * dashboard. Returns the message's id.
 */
export async function receiveContactMessage(
  deps: { db: Kysely<Database>; mail: MailService; baseUrl: string; settings: SiteSettings },
  input: ContactSubmission,
  now = new Date(),
): Promise<string> {
  const id = randomUUID();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("contact_messages")
      .values({ id, ...input, created_at: now, read_at: null })
      .execute();
  });
  const recipient = await contactRecipient(deps.db, deps.settings);
  if (recipient) {
    await deps.mail.send(
      contactMail({
        to: recipient.address,
        language: recipient.language,
        siteName: deps.settings.site_name.trim() || "Vitrine",
        adminUrl: `${deps.baseUrl}/admin/messages/${id}`,
        from: input,
        receivedAt: now,
      }),
    );
  }
  return id;
}

/** How many messages the admin list shows at most (the rest stay until deleted). */
export const MESSAGES_LISTED = 200;

export async function listContactMessages(
  db: Kysely<Database>,
  limit = MESSAGES_LISTED,
): Promise<{ messages: ContactMessage[]; total: number; unread: number }> {
  const [rows, counts] = await Promise.all([
    db
      .selectFrom("contact_messages")
      .selectAll()
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .execute(),
    db
      .selectFrom("contact_messages")
      .select((eb) => [
        eb.fn.countAll<string | number>().as("total"),
        eb.fn.count<string | number>("read_at").as("read"),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  const total = Number(counts.total);
  return { messages: rows.map(toMessage), total, unread: total - Number(counts.read) };
}

export async function findContactMessage(
  db: Kysely<Database> | Transaction<Database>,
  id: string,
): Promise<ContactMessage | null> {
  const row = await db.selectFrom("contact_messages").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toMessage(row) : null;
}

/** How the audit log names a message: its sender (the text stays out of the log). */
function auditTarget(message: ContactMessage): string {
  return `${message.name} <${message.email}>`;
}

/** Marks a message read or unread (audited); false when there is no such message. */
export async function markContactMessage(
  db: Kysely<Database>,
  actor: AuditActor,
  input: { id: string; read: boolean },
  now = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const message = await findContactMessage(trx, input.id);
    if (!message) return false;
    if ((message.readAt !== null) === input.read) return true;
    await trx
      .updateTable("contact_messages")
      .set({ read_at: input.read ? now : null })
      .where("id", "=", input.id)
      .execute();
    await recordAudit(trx, actor, {
      action: input.read ? "messages.read" : "messages.unread",
      target: auditTarget(message),
    });
    return true;
  });
}

/** Deletes a message (audited); false when there is no such message. */
export async function deleteContactMessage(db: Kysely<Database>, actor: AuditActor, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const message = await findContactMessage(trx, id);
    if (!message) return false;
    await trx.deleteFrom("contact_messages").where("id", "=", id).execute();
    await recordAudit(trx, actor, { action: "messages.delete", target: auditTarget(message) });
    return true;
  });
}
