import type { Kysely } from "kysely";
import { data } from "react-router";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import type { AuditActor } from "#app/domains/audit/audit.server.ts";
import type { AdminTranslate } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { rowIdSchema } from "#app/lib/text-schema.ts";
import { deleteContactMessage, findContactMessage, markContactMessage } from "./contact.server.ts";

const messageForm = z.object({ intent: z.enum(["read", "unread", "delete"]), id: rowIdSchema });

/**
 * The Messages screens' writes (the list's and a message's own page post here): mark read or unread, delete.
 * Each is one transaction with its audit entry; a message that is gone is a 404 with the admin's words.
 */
export async function contactMessageAction(
  db: Kysely<Database>,
  admin: AuditActor,
  t: AdminTranslate,
  form: Record<string, string>,
) {
  const parsed = messageForm.safeParse(form);
  if (!parsed.success) {
    return data({ ok: false, message: t("admin.messages.error.form") } satisfies ActionResult, { status: 400 });
  }
  const { intent, id } = parsed.data;
  const message = await findContactMessage(db, id);
  const gone = () => data({ ok: false, message: t("admin.messages.gone") } satisfies ActionResult, { status: 404 });
  if (!message) return gone();
  if (intent === "delete") {
    if (!(await deleteContactMessage(db, admin, id))) return gone();
    return { ok: true, message: t("admin.messages.deleted", { name: message.name }) } satisfies ActionResult;
  }
  if (!(await markContactMessage(db, admin, { id, read: intent === "read" }))) return gone();
  return {
    ok: true,
    message: t(intent === "read" ? "admin.messages.markedRead" : "admin.messages.markedUnread"),
    id,
  } satisfies ActionResult;
}
