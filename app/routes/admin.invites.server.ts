import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { listGroupChoices } from "#app/domains/access/access.server.ts";
import { createInvitesAsAdmin, deleteUnusedInvite, listInvites } from "#app/domains/invites/invite-admin.server.ts";
import { UnknownInviteGroupError } from "#app/domains/invites/invite-groups.server.ts";
import { MAX_CODES_AT_ONCE, MAX_INVITE_GROUPS, MAX_NOTE_LENGTH } from "#app/domains/invites/invite-limits.ts";
import { inviteAddress, sendInviteByMail } from "#app/domains/invites/invite-mail.server.ts";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import { languages } from "#app/i18n/i18n.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { fieldErrorsOf, translateFieldErrors } from "#app/lib/field-errors.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { ROW_ID_PATTERN, textSchema } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { type AdminCall, AdminRefusal, adminAction } from "#app/web/admin-action.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";

type Args = { request: Request; url: URL; context: Readonly<RouterContextProvider> };

/**
 * The invites screen: every code (used by whom, with its groups), the address they are redeemed at, how mail is
 * sent, and the groups a new code may give.
 */
export async function invitesLoader({ url, context }: Omit<Args, "request">) {
  requireAdmin(url, context);
  const { database, env, mail } = runtimeOf(context);
  const [invites, groups] = await Promise.all([listInvites(database.db), listGroupChoices(database.db)]);
  return { invites, groups, baseUrl: env.baseUrl, mailMode: mail.mode };
}

/** The groups a new code gives: the ids of the ticked boxes; whether they exist is the domain's to check. */
const groupIdsField = z
  .array(z.string().regex(ROW_ID_PATTERN), { error: "admin.invites.error.groups" })
  .max(MAX_INVITE_GROUPS)
  .transform((ids) => [...new Set(ids)]);

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
    group_ids: groupIdsField,
  }),
  z.object({
    intent: z.literal("delete"),
    code: textSchema({ max: 100, required: true }),
  }),
  z.object({
    intent: z.literal("send"),
    email: inviteAddress,
    language: z.enum(languages, { error: "admin.invites.error.mailLanguage" }),
    group_ids: groupIdsField,
  }),
]);

/** What a success answers besides its message: the codes made (or the one sent). */
type InviteResult = ActionResult<{ codes?: string[] }>;

/** Making codes, sending one by mail, deleting an unused one: each audited by the invites domain. */
export function invitesAction(args: Args) {
  return adminAction(args, async (call) => runInviteIntent(call, await readInviteForm(args.request)));
}

/**
 * The form with every ticked group: `readForm` keeps one value per name, and the group boxes share the name
 * `group_ids` (one value each, so the form works without JavaScript), so that one field is read from a copy.
 */
async function readInviteForm(request: Request): Promise<Record<string, unknown>> {
  const copy = request.clone();
  const fields = await readForm(request);
  const groupIds = (await copy.formData()).getAll("group_ids").filter((value) => typeof value === "string");
  return { ...fields, group_ids: groupIds };
}

/** An unknown group (deleted since the screen was shown, or never there) is the groups field's problem. */
function unknownGroup(t: AdminCall["t"]): AdminRefusal {
  const message = t("admin.invites.error.groups");
  return new AdminRefusal(400, message, { fieldErrors: { group_ids: message } });
}

/**
 * The form refused as the invites screen shows it: one problem per field (any problem with the count is the same
 * one, not a whole number in range; likewise the address), and the first of them as the message.
 */
function refusedForm(t: AdminCall["t"], error: z.ZodError): AdminRefusal {
  const { count, note, email, language, group_ids } = fieldErrorsOf(error);
  const problems = {
    ...(count ? { count: "admin.invites.error.count" } : {}),
    ...(note ? { note } : {}),
    ...(email ? { email: "admin.invites.error.email" } : {}),
    ...(language ? { language: "admin.invites.error.mailLanguage" } : {}),
    ...(group_ids ? { group_ids: "admin.invites.error.groups" } : {}),
  };
  const fieldErrors = translateFieldErrors(t, problems, {
    count: { max: MAX_CODES_AT_ONCE },
    note: { max: MAX_NOTE_LENGTH },
  });
  const message =
    fieldErrors.count ??
    fieldErrors.note ??
    fieldErrors.email ??
    fieldErrors.language ??
    fieldErrors.group_ids ??
    t("admin.invites.error.form");
  return new AdminRefusal(400, message, { fieldErrors });
}

async function runInviteIntent(call: AdminCall, input: Record<string, unknown>) {
  try {
    return await runParsedIntent(call, input);
  } catch (error) {
    if (error instanceof UnknownInviteGroupError) throw unknownGroup(call.t);
    throw error;
  }
}

async function runParsedIntent({ admin, t, db, runtime }: AdminCall, input: Record<string, unknown>) {
  const parsed = inviteForm.safeParse(input);
  if (!parsed.success) throw refusedForm(t, parsed.error);
  const form = parsed.data;
  if (form.intent === "create") {
    const codes = await createInvitesAsAdmin(db, admin, {
      count: form.count,
      note: form.note,
      groupIds: form.group_ids,
    });
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
      groupIds: form.group_ids,
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
