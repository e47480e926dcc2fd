import { useEffect, useMemo } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { Toaster, toast } from "sonner";
import { z } from "zod";
import { Button } from "#app/components/ui/button.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import { checkEmailChangeToken, confirmEmailChange } from "#app/domains/users/email-change.server.ts";
import { type AccountMessageKey, accountDictionaryFor, accountTranslatorFor } from "#app/i18n/account-dictionary.ts";
import { translatorFor } from "#app/i18n/i18n.server.ts";
import { createTranslator } from "#app/i18n/i18n.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { clientAddressContext } from "#app/lib/request-context.ts";
import { passRetryAfter } from "#app/lib/retry-after.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { tooManyAttempts } from "#app/web/auth-actions.server.ts";
import { noindexPageMeta } from "#app/web/meta.ts";
import { useShownTheme } from "#app/web/root-data.ts";
import type { Route } from "./+types/account.confirm-email";

/**
 * The link of an e-mail change, outside the account layout: it needs no session. It is often opened on another
 * device (a phone reading the new mailbox), and sending a visitor through the sign-in form would carry the token
 * in `redirectTo`. Instead the account's password is asked here: the token proves the new mailbox, the password
 * the account, so an address mistyped into someone else's hands gives them nothing. Opening the link (GET) only
 * shows the question; a mail scanner following it changes nothing.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { lang } = languageOf(request);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const change = await checkEmailChangeToken(runtimeOf(context).database.db, token);
  const dictionary = accountDictionaryFor(lang);
  // A 200 even so: after a successful change this loader runs again, and its status would become the answer's.
  if (!change) return { dictionary, valid: false as const, token: "", email: "", newEmail: "" };
  return { dictionary, valid: true as const, token, ...change };
}

const confirmForm = z.object({ token: z.string().max(1000), password: z.string().max(1000) });

type ConfirmAnswer = { ok: boolean; title: string; message: string; invalid?: boolean; passwordError?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const runtime = runtimeOf(context);
  const { lang } = languageOf(request);
  const t = accountTranslatorFor(lang);
  const parsed = confirmForm.safeParse(await readForm(request));
  const refuse = (key: AccountMessageKey, extra: Partial<ConfirmAnswer> = {}) =>
    data({ ok: false, title: t("account.email.failed"), message: t(key), ...extra } satisfies ConfirmAnswer, {
      status: 400,
    });
  if (!parsed.success) return refuse("account.email.error.form");
  const client = context.get(clientAddressContext);
  const wait = await runtime.authLimiter.begin(client);
  if (wait > 0) {
    const limited = tooManyAttempts(translatorFor(lang), wait);
    return data({ ok: false, title: limited.title, message: limited.description } satisfies ConfirmAnswer, {
      status: 429,
      headers: { "Retry-After": String(Math.ceil(wait / 1000)) },
    });
  }
  const result = await confirmEmailChange(
    { db: runtime.database.db, mail: runtime.mail, baseUrl: runtime.env.baseUrl },
    parsed.data,
  );
  // A wrong password or token stays counted; the rest is forgiven.
  if (result.ok || result.reason === "passwordRequired" || result.reason === "emailTaken") {
    await runtime.authLimiter.forgive(client);
  }
  if (!result.ok) {
    if (result.reason === "invalidToken") return refuse("account.confirmEmail.invalidText", { invalid: true });
    const key: AccountMessageKey =
      result.reason === "emailTaken"
        ? "account.email.error.emailTaken"
        : result.reason === "passwordRequired"
          ? "account.email.error.passwordRequired"
          : "account.email.error.wrongPassword";
    return refuse(key, { passwordError: result.reason === "emailTaken" ? undefined : t(key) });
  }
  return {
    ok: true,
    title: t("account.confirmEmail.done"),
    message: t("account.confirmEmail.doneText", { email: result.newEmail }),
  } satisfies ConfirmAnswer;
}

export function meta({ matches, location }: Route.MetaArgs) {
  return noindexPageMeta(matches, location.pathname, {
    en: "Confirm your new e-mail address",
    de: "Neue E-Mail-Adresse bestätigen",
  });
}

const linkClass =
  "font-medium text-indigo-700 underline hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-100";

// A plain form post answered 429 keeps its Retry-After on the page.
export const headers = passRetryAfter;

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const t = useMemo(() => createTranslator(loaderData.dictionary), [loaderData.dictionary]);
  const theme = useShownTheme();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/account/confirm-email") === true;
  const answer = actionData as ConfirmAnswer | undefined;
  useEffect(() => {
    if (!answer) return;
    if (answer.ok) toast.success(answer.title, { description: answer.message });
    else toast.error(answer.title, { description: answer.message });
  }, [answer]);

  let body: React.ReactNode;
  if (answer?.ok) {
    body = (
      <>
        <h1 className="text-2xl font-bold tracking-tight">{answer.title}</h1>
        <p className="mt-4">{answer.message}</p>
        <p className="mt-6">
          <Link to="/account" className={linkClass}>
            {t("account.confirmEmail.toAccount")}
          </Link>
        </p>
      </>
    );
  } else if (!loaderData.valid || answer?.invalid) {
    body = (
      <>
        <h1 className="text-2xl font-bold tracking-tight">{t("account.confirmEmail.invalid")}</h1>
        <p className="mt-4">{t("account.confirmEmail.invalidText")}</p>
        <p className="mt-6">
          <Link to="/account/email" className={linkClass}>
            {t("account.confirmEmail.toAccount")}
          </Link>
        </p>
      </>
    );
  } else {
    body = (
      <>
        <h1 className="text-2xl font-bold tracking-tight">{t("account.confirmEmail.title")}</h1>
        <p className="mt-4">
          {t("account.confirmEmail.intro", { email: loaderData.email, newEmail: loaderData.newEmail })}
        </p>
        {answer && !answer.passwordError ? (
          <p className="mt-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-50">
            {answer.message}
          </p>
        ) : null}
        <Form method="post" noValidate className="mt-6 space-y-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <input type="email" name="username" autoComplete="username" value={loaderData.email} readOnly hidden />
          <TextField
            label={t("account.email.password")}
            name="password"
            type="password"
            autoComplete="current-password"
            hint={t("account.confirmEmail.passwordHint")}
            error={answer?.passwordError}
          />
          <Button type="submit" disabled={busy}>
            {t("account.confirmEmail.submit")}
          </Button>
        </Form>
      </>
    );
  }
  return (
    <div className="mx-auto max-w-md">
      {body}
      <Toaster theme={theme} position="bottom-right" richColors closeButton />
    </div>
  );
}
