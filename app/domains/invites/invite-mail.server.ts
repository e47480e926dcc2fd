import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import type { MailMessage, MailService } from "#app/domains/mail/mail-message.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { inviteAuditValue, resolveInviteGroups, writeInviteGroups } from "./invite-groups.server.ts";
import { createInviteCodes } from "./invites.server.ts";

/** What an invite mail says, in the language the admin chose for it. */
const INVITE_MAIL: Record<
  Language,
  { subject: string; invited: string; code: string; action: string; footer: string }
> = {
  en: {
    subject: "Your invitation to {site}",
    invited: "You have been invited to create an account on {site}.",
    code: "Your invite code is {code}. It can be used once.",
    action: "Create your account",
    footer: "If you did not expect this invitation, you can ignore this mail.",
  },
  de: {
    subject: "Ihre Einladung zu {site}",
    invited: "Sie wurden eingeladen, ein Konto bei {site} anzulegen.",
    code: "Ihr Einladungscode lautet {code}. Er kann einmal verwendet werden.",
    action: "Konto anlegen",
    footer: "Wenn Sie diese Einladung nicht erwartet haben, können Sie diese Mail ignorieren.",
  },
};

/** The sign-up link of a code: /auth opens on "create an account" with the code filled in. */
export function inviteLink(baseUrl: string, code: string): string {
  return `${baseUrl}/auth?invite=${encodeURIComponent(code)}`;
}

export function inviteMail(input: {
  to: string;
  language: Language;
  code: string;
  siteName: string;
  baseUrl: string;
}): MailMessage {
  const words = INVITE_MAIL[input.language];
  const fill = (text: string) => text.replaceAll("{site}", input.siteName).replaceAll("{code}", input.code);
  return {
    to: input.to,
    language: input.language,
    kind: "invite",
    subject: fill(words.subject),
    paragraphs: [fill(words.invited), fill(words.code)],
    action: { label: words.action, url: inviteLink(input.baseUrl, input.code) },
    footer: [words.footer],
  };
}

/** An address as the invite form takes it (trimmed; the longest a mail server accepts). */
export const inviteAddress = z.string().trim().max(254).pipe(z.email());

/**
 * Makes one invite code for `email` with the groups its account joins, records the address in its note and
 * `sent_to` (audited: created with its groups, and sent to whom), then hands the mail to the mail service. An
 * unknown group throws `UnknownInviteGroupError`: no code, no mail. The code exists once this returns, whatever
 * becomes of the mail (a failed delivery shows on the dashboard; the code can still be copied from the list).
 */
export async function sendInviteByMail(
  db: Kysely<Database>,
  mail: MailService,
  actor: AuditActor,
  input: { email: string; language: Language; siteName: string; baseUrl: string; groupIds?: readonly string[] },
): Promise<{ code: string; email: string }> {
  const email = inviteAddress.parse(input.email);
  const code = await db.transaction().execute(async (trx) => {
    const groups = await resolveInviteGroups(trx, input.groupIds ?? []);
    const [created] = await createInviteCodes(trx, { count: 1, note: email });
    if (!created) throw new Error("No invite code was created");
    await trx.updateTable("invite_codes").set({ sent_to: email }).where("code", "=", created).execute();
    await writeInviteGroups(trx, [created], groups);
    await recordAudit(trx, actor, [
      { action: "invites.create", target: created, newValue: inviteAuditValue(email, groups) },
      { action: "invites.send", target: created, newValue: email },
    ]);
    return created;
  });
  await mail.send(
    inviteMail({ to: email, language: input.language, code, siteName: input.siteName, baseUrl: input.baseUrl }),
  );
  return { code, email };
}
