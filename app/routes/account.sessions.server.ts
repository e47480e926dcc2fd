import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { endOtherOwnSessions, endOwnSession, listOwnSessions } from "#app/domains/users/account.server.ts";
import { accountTranslatorFor } from "#app/i18n/account-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { rowIdSchema } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { requireUser } from "#app/web/session.server.ts";

type Args = { request: Request; url: URL; context: Readonly<RouterContextProvider> };

export async function sessionsLoader({ url, context }: Omit<Args, "request">) {
  const user = requireUser(url, context);
  return { sessions: await listOwnSessions(runtimeOf(context).database.db, user.id, user.sessionId) };
}

const sessionsForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("signOut"), sessionId: rowIdSchema }),
  z.object({ intent: z.literal("signOutOthers") }),
]);

/**
 * Ends one other session or all others, by the session's row id and only among the person's own: the page never
 * holds a session token (better-auth's revokeSession takes one), and the change is audited with it in one
 * transaction. Signing out this device is /auth/sign-out's form.
 */
export async function sessionsAction({ request, url, context }: Args) {
  const user = requireUser(url, context);
  const t = accountTranslatorFor(languageOf(request).lang);
  const parsed = sessionsForm.safeParse(await readForm(request));
  if (!parsed.success) {
    return data({ ok: false, message: t("account.common.formError") } satisfies ActionResult, { status: 400 });
  }
  const db = runtimeOf(context).database.db;
  const actor = { id: user.id, email: user.email, sessionId: user.sessionId };
  if (parsed.data.intent === "signOutOthers") {
    const count = await endOtherOwnSessions(db, actor);
    const message = count > 0 ? t("account.sessions.endedOthers", { count }) : t("account.sessions.noOthers");
    return { ok: true, message } satisfies ActionResult;
  }
  if (!(await endOwnSession(db, actor, parsed.data.sessionId))) {
    return data({ ok: false, message: t("account.sessions.error.gone") } satisfies ActionResult, { status: 404 });
  }
  return { ok: true, message: t("account.sessions.endedOne") } satisfies ActionResult;
}
