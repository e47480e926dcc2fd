import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { createInvitesAsAdmin, deleteUnusedInvite, listInvites } from "#app/domains/invites/invite-admin.server.ts";
import { MAX_CODES_AT_ONCE, MAX_NOTE_LENGTH } from "#app/domains/invites/invite-limits.ts";
import { inviteAddress, sendInviteByMail } from "#app/domains/invites/invite-mail.server.ts";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import { languages } from "#app/i18n/i18n.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { fieldErrorsOf, translateFieldErrors } from "#app/lib/field-errors.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { textSchema } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { type AdminCall, AdminRefusal, adminAction } from "#app/web/admin-action.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";

type Args = { request: Request; url: URL; context: Readonly<RouterContextProvider> };

/** The invites screen: every code (used by whom), the address they are redeemed at, and how mail is sent. */
export async function invitesLoader({ url, context }: Omit<Args, "request">) {
  requireAdmin(url, context);
  const { database, env, mail } = runtimeOf(context);
  return { invites: await listInvites(database.db), baseUrl: env.baseUrl, mailMode: mail.mode };
}

const inviteForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("create"),
    count: z.coerce.number({ error: "admin.invites.error.count" }).int().min(1).max(MAX_CODES_AT_ONCE),
    note: textSchema({
      max: MAX_NOTE_LENGTH,
      messages: {
        tooLong: "admin.invites.error.note",
        control: "admin.invites.error.noteControl",
        lineBreak: "admin.invites.error.noteControl",
      },
    }),
  }),
  z.object({
    intent: z.literal("delete"),
    code: textSchema({ max: 100, required: true }),
  }),
  z.object({
    intent: z.literal("send"),
    email: inviteAddress,
    language: z.enum(languages, { error: "admin.invites.error.mailLanguage" }),
  }),
]);

/** What a success answers besides its message: the codes made (or the one sent). */
type InviteResult = ActionResult<{ codes?: string[] }>;

/** Making codes, sending one by mail, deleting an unused one: each audited by the invites domain. */
export function invitesAction(args: Args) {
  return adminAction(args, async (call) => runInviteIntent(call, await readForm(args.request)));
}

/**
 * The form refused as the invites screen shows it: one problem per field (any problem with the count is the same
 * one, not a whole number in range; likewise the address), and the first of them as the message.
 */
function refusedForm(t: AdminCall["t"], error: z.ZodError): AdminRefusal {
  const { count, note, email, language } = fieldErrorsOf(error);
  const problems = {
    ...(count ? { count: "admin.invites.error.count" } : {}),
    ...(note ? { note } : {}),
    ...(email ? { email: "admin.invites.error.email" } : {}),
    ...(language ? { language: "admin.invites.error.mailLanguage" } : {}),
  };
  const fieldErrors = translateFieldErrors(t, problems, {
    count: { max: MAX_CODES_AT_ONCE },
    note: { max: MAX_NOTE_LENGTH },
  });
  const message =
    fieldErrors.count ?? fieldErrors.note ?? fieldErrors.email ?? fieldErrors.language ?? t("admin.invites.error.form");
  return new AdminRefusal(400, message, { fieldErrors });
}

async function runInviteIntent({ admin, t, db, runtime }: AdminCall, input: Record<string, string>) {
  const parsed = inviteForm.safeParse(input);
  if (!parsed.success) throw refusedForm(t, parsed.error);
  const form = parsed.data;
  if (form.intent === "create") {
    const codes = await createInvitesAsAdmin(db, admin, { count: form.count, note: form.note });
    return { ok: true, message: t("admin.invites.created", { count: codes.length }), codes } satisfies InviteResult;
  }
  if (form.intent === "send") {
    const { env, mail } = runtime;
    const siteName = (await readSettings(db)).site_name;
    const { code, email } = await sendInviteByMail(db, mail, admin, {
      email: form.email,
      language: form.language,
      siteName,
      baseUrl: env.baseUrl,
    });
    return {
      ok: true,
      message: t(mail.mode === "smtp" ? "admin.invites.sent" : "admin.invites.filed", { code, email }),
      codes: [code],
    } satisfies InviteResult;
  }
  const result = await deleteUnusedInvite(db, admin, form.code);
  if (!result.ok) {
    throw new AdminRefusal(
      400,
      t(result.reason === "used" ? "admin.invites.error.used" : "admin.invites.error.notFound"),
    );
  }
  return { ok: true, message: t("admin.invites.deleted", { code: result.code }) } satisfies InviteResult;
}
