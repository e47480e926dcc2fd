import { data, type RouterContextProvider, redirect } from "react-router";
import { z } from "zod";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import { isSubscribed, setSubscription } from "#app/domains/subscriptions/subscriptions.server.ts";
import {
  changeOwnPassword,
  deleteOwnAccount,
  getOwnAccount,
  passwordChangedMail,
  setOwnLanguage,
  setOwnName,
} from "#app/domains/users/account.server.ts";
import { type AccountMessageKey, type AccountTranslate, accountTranslatorFor } from "#app/i18n/account-dictionary.ts";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import { translatorFor } from "#app/i18n/i18n.server.ts";
import { languages } from "#app/i18n/i18n.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { clientAddressContext } from "#app/lib/request-context.ts";
import type { Runtime } from "#app/runtime/runtime-context.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { tooManyAttempts } from "#app/web/auth-actions.server.ts";
import { requireUser } from "#app/web/session.server.ts";

type Args = { request: Request; url: URL; context: Readonly<RouterContextProvider> };

export type AccountIntent = "name" | "password" | "language" | "subscriptions" | "delete";
export type AccountActionResult = ActionResult & { intent: AccountIntent | null };

export async function accountOverviewLoader({ url, context }: Omit<Args, "request">) {
  const user = requireUser(url, context);
  const db = runtimeOf(context).database.db;
  const [account, subscribed] = await Promise.all([getOwnAccount(db, user.id), isSubscribed(db, user.id, "post")]);
  // Deleted between the session check and here (by an admin): the layout sends the visitor to sign in next time.
  if (!account) throw redirect("/auth");
  return { account, subscribed };
}

// Passwords are bounded generously here: the policy (and its own maximum) speaks about them, not the form rule.
const secret = z.string().max(1000);
const accountForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("password"), currentPassword: secret, newPassword: secret }),
  z.object({ intent: z.literal("language"), language: z.enum(languages) }),
  // The switch's button sends the state it turns to: a repeated press (two tabs) asks for the same, not the opposite.
  z.object({ intent: z.literal("subscriptions"), posts: z.enum(["on", "off"]) }),
  // Checked by setOwnName (the shared text rule), which says what is wrong with it.
  z.object({ intent: z.literal("name"), name: z.unknown() }),
  z.object({ intent: z.literal("delete"), password: secret }),
]);

function refused(
  intent: AccountIntent | null,
  message: string,
  fieldErrors?: Record<string, string>,
  init: number | ResponseInit = 400,
) {
  return data({ ok: false, intent, message, fieldErrors } satisfies AccountActionResult, init);
}

const PASSWORD_PROBLEMS: Record<string, AccountMessageKey> = {
  "password.required": "account.password.error.required",
  "password.tooShort": "account.password.error.tooShort",
  "password.tooLong": "account.password.error.tooLong",
  "password.common": "account.password.error.common",
  notFound: "account.password.error.notFound",
};

/**
 * The account page's five forms. A wrong password (current one, or the one that confirms a deletion) counts
 * towards the per-address limit of sign-in failures, so this page cannot be used to guess a password faster than
 * the sign-in form; a refusal for any other reason is forgiven. Nothing is changed on any refusal.
 */
export async function accountOverviewAction({ request, url, context }: Args) {
  const user = requireUser(url, context);
  const runtime = runtimeOf(context);
  const db = runtime.database.db;
  const lang = languageOf(request).lang;
  const t = accountTranslatorFor(lang);
  const parsed = accountForm.safeParse(await readForm(request));
  if (!parsed.success) return refused(null, t("account.common.formError"));
  const form = parsed.data;
  const actor = { id: user.id, email: user.email };

  if (form.intent === "name") {
    const result = await setOwnName(db, actor, form.name);
    if (!result.ok) {
      const message = t(`account.name.error.${result.reason}`);
      return refused(form.intent, message, { name: message });
    }
    return { ok: true, intent: form.intent, message: t("account.name.saved") };
  }

  if (form.intent === "language") {
    await setOwnLanguage(db, actor, form.language);
    const language = t(`account.language.${form.language}`);
    return { ok: true, intent: form.intent, message: t("account.language.saved", { language }) };
  }

  if (form.intent === "subscriptions") {
    const on = form.posts === "on";
    // One switch for new posts and new albums (issue 21: one click), each kind a subscription of its own.
    await setSubscription(db, actor, ["post", "album"], on);
    return {
      ok: true,
      intent: form.intent,
      message: t(on ? "account.subscriptions.savedOn" : "account.subscriptions.savedOff"),
    };
  }

  const client = context.get(clientAddressContext);
  const wait = await runtime.authLimiter.begin(client);
  if (wait > 0) {
    const toast = tooManyAttempts(translatorFor(lang), wait);
    return refused(form.intent, `${toast.title}: ${toast.description}`, undefined, {
      status: 429,
      headers: { "Retry-After": String(Math.ceil(wait / 1000)) },
    });
  }

  if (form.intent === "password") return changePassword(runtime, request, user.id, actor, form, t, client);

  if (!form.password) {
    await runtime.authLimiter.forgive(client);
    const message = t("account.delete.error.passwordRequired");
    return refused(form.intent, message, { password: message });
  }
  const deletion = await deleteOwnAccount(db, actor, form.password);
  if (!deletion.ok) {
    if (deletion.reason !== "wrongPassword") await runtime.authLimiter.forgive(client);
    const message =
      deletion.reason === "wrongPassword"
        ? t("account.delete.error.wrong")
        : deletion.reason === "lastAdmin"
          ? adminTranslatorFor(lang)("admin.users.error.lastAdmin")
          : t("account.common.formError");
    return refused(form.intent, message, deletion.reason === "wrongPassword" ? { password: message } : undefined);
  }
  await runtime.authLimiter.forgive(client);
  // The session row went with the account; this clears the cookie too (better-auth's sign-out, as /auth/sign-out).
  const headers = new Headers();
  try {
    const response = await runtime.auth.api.signOut({ headers: request.headers, asResponse: true });
    for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  } catch (error) {
    getLogger().warn({ err: error }, "Clearing the session cookie after deleting an account failed");
  }
  throw redirect("/account-deleted", { headers });
}

async function changePassword(
  runtime: Runtime,
  request: Request,
  userId: string,
  actor: { id: string; email: string },
  form: { currentPassword: string; newPassword: string },
  t: AccountTranslate,
  client: string,
) {
  if (!form.currentPassword) {
    await runtime.authLimiter.forgive(client);
    const message = t("account.password.error.currentRequired");
    return refused("password", message, { currentPassword: message });
  }
  const result = await changeOwnPassword(runtime.database.db, actor, form);
  if (!result.ok) {
    if (result.reason === "wrongPassword") {
      const message = t("account.password.error.wrong");
      return refused("password", message, { currentPassword: message });
    }
    await runtime.authLimiter.forgive(client);
    const message = t(PASSWORD_PROBLEMS[result.reason] ?? "account.common.formError");
    return refused("password", message, { newPassword: message });
  }
  await runtime.authLimiter.forgive(client);
  // Every session of the account has ended with the change, this one too: a new one keeps the person signed in.
  // It comes first, so that nothing after the change can leave the person signed out with an error page.
  const fresh = await runtime.auth.api.startFreshSession({
    body: { userId },
    headers: request.headers,
    returnHeaders: true,
  });
  try {
    await sendPasswordChangedNotice(runtime, actor.id);
  } catch (error) {
    // The password has changed; only the notice is lost, and the log says so.
    getLogger().error({ err: error }, "The password-changed notice could not be prepared");
  }
  const headers = new Headers();
  for (const cookie of fresh.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return data({ ok: true, intent: "password", message: t("account.password.changed") } satisfies AccountActionResult, {
    headers,
  });
}

/** Tells the account's own address that its password changed (a delivery failure never reaches the person). */
async function sendPasswordChangedNotice(runtime: Runtime, userId: string) {
  const db = runtime.database.db;
  const account = await getOwnAccount(db, userId);
  if (!account) return;
  const siteName = (await readSettings(db)).site_name;
  await runtime.mail.send(
    passwordChangedMail({
      to: account.email,
      language: account.language,
      siteName,
      baseUrl: runtime.env.baseUrl,
      when: new Date(),
    }),
  );
}
