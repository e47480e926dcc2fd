import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { deleteContactMessage, findContactMessage, markContactMessage } from "#app/domains/contact/contact.server.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { rowIdSchema } from "#app/lib/text-schema.ts";
import { AdminRefusal, adminAction } from "#app/web/admin-action.server.ts";

const messageForm = z.object({ intent: z.enum(["read", "unread", "delete"]), id: rowIdSchema });

/**
 * The Messages screens' writes (the list's and a message's own page post here): mark read or unread, delete.
 * Each is one transaction with its audit entry; a message that is gone is a 404 with the admin's words.
 */
export function contactMessageAction(args: { request: Request; url: URL; context: Readonly<RouterContextProvider> }) {
  return adminAction(args, async ({ admin, t, db, parse }) => {
    const { intent, id } = parse(messageForm, await readForm(args.request), {
      message: t("admin.messages.error.form"),
      fieldErrors: false,
    });
    const gone = () => new AdminRefusal(404, t("admin.messages.gone"));
    const message = await findContactMessage(db, id);
    if (!message) throw gone();
    if (intent === "delete") {
      if (!(await deleteContactMessage(db, admin, id))) throw gone();
      return { ok: true, message: t("admin.messages.deleted", { name: message.name }) } satisfies ActionResult;
    }
    if (!(await markContactMessage(db, admin, { id, read: intent === "read" }))) throw gone();
    return {
      ok: true,
      message: t(intent === "read" ? "admin.messages.markedRead" : "admin.messages.markedUnread"),
      id,
    } satisfies ActionResult;
  });
}
