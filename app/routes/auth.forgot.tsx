import { lazy, Suspense } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { TextField } from "#app/components/ui/field.tsx";
import { isValidEmail, normalizeEmail } from "#app/domains/users/email.ts";
import { requestPasswordReset } from "#app/domains/users/password-recovery.server.ts";
import { translatorWith } from "#app/i18n/i18n.server.ts";
import { recoveryDictionaryFor } from "#app/i18n/recovery-dictionary.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { clientAddressContext } from "#app/lib/request-context.ts";
import { passRetryAfter } from "#app/lib/retry-after.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { type AuthToast, tooManyAttempts } from "#app/web/auth-actions.server.ts";
import { noindexPageMeta } from "#app/web/meta.ts";
import { useShownTheme, useTranslateWith } from "#app/web/root-data.ts";
import { getSessionUser } from "#app/web/session.server.ts";
import type { Route } from "./+types/auth.forgot";

const AuthToasts = lazy(() => import("#app/components/auth-toasts.tsx"));

type ForgotResult = { ok: boolean; toast: AuthToast; email: string; fieldError?: string; outbox?: boolean };

/** What an owner without a mail server types on the server to read the link (scripts/cli.ts). */
const OUTBOX_COMMAND = "npm run cli -- outbox latest";

const forgotForm = z.object({ email: z.string().max(1000) });

export async function loader({ request, context }: Route.LoaderArgs) {
  // Signed in, the account page is the place to change the password.
  if (getSessionUser(context)) throw redirect("/account");
  return { dictionary: recoveryDictionaryFor(languageOf(request).lang) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const runtime = runtimeOf(context);
  const { lang } = languageOf(request);
  const t = translatorWith(lang, recoveryDictionaryFor(lang));
  const client = context.get(clientAddressContext);
  const parsed = forgotForm.safeParse(await readForm(request));
  const refuse = (description: string, email: string, status: number, headers?: HeadersInit) =>
    data(
      {
        ok: false,
        email,
        fieldError: status === 400 ? description : undefined,
        toast: { kind: "error", title: t("recovery.forgot.failed"), description },
      } satisfies ForgotResult,
      { status, headers },
    );
  if (!parsed.success) return refuse(t("auth.error.incompleteForm"), "", 400);
  const email = normalizeEmail(parsed.data.email);
  // Typing mistakes are answered at once and counted nowhere: they say nothing about any account.
  if (!email) return refuse(t("auth.error.emailRequired"), email, 400);
  if (!isValidEmail(email)) return refuse(t("auth.error.emailInvalid"), email, 400);

  // Every request counts towards both limits: each may send a mail.
  const wait = (await runtime.authLimiter.begin(client)) || (await runtime.resetRequestLimiter.begin(email));
  if (wait > 0) {
    return data({ ok: false, email, toast: tooManyAttempts(t, wait) } satisfies ForgotResult, {
      status: 429,
      headers: { "Retry-After": String(Math.ceil(wait / 1000)) },
    });
  }

  // The account is looked up, the token written and the mail sent after the answer: the answer is the same and
  // takes the same time whether or not the address has an account.
  requestPasswordReset(
    { db: runtime.database.db, mail: runtime.mail, baseUrl: runtime.env.baseUrl },
    { email, language: lang },
  ).catch((error: unknown) => {
    getLogger().error({ err: error instanceof Error ? error.message : String(error) }, "A password reset failed");
  });
  return {
    ok: true,
    email,
    toast: { kind: "success", title: t("recovery.forgot.sent"), description: t("recovery.forgot.sentText", { email }) },
    // Without SMTP_URL no mail leaves the server: the answer says where the link is instead (the same for every
    // address, so it tells nothing about accounts). Usually the owner is the one asking, locked out of their site.
    outbox: runtime.mail.mode === "outbox",
  } satisfies ForgotResult;
}

export const headers = passRetryAfter;

export function meta({ matches, location }: Route.MetaArgs) {
  return noindexPageMeta(matches, location.pathname, { en: "Forgot password", de: "Passwort vergessen" });
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const t = useTranslateWith(loaderData.dictionary);
  const theme = useShownTheme();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth/forgot") === true;
  const result = actionData as ForgotResult | undefined;
  return (
    <div className="mx-auto max-w-md">
      {result ? (
        <Suspense fallback={null}>
          <AuthToasts message={result.toast} theme={theme} />
        </Suspense>
      ) : null}
      <h1 className="text-2xl font-bold tracking-tight">{t("recovery.forgot.heading")}</h1>
      {result?.ok ? (
        <div
          role="status"
          className="mt-6 rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-50"
        >
          <p className="font-medium">{result.toast.title}</p>
          <p className="mt-1">{result.toast.description}</p>
          {result.outbox ? (
            <>
              <p className="mt-3">{t("recovery.forgot.outbox")}</p>
              <pre className="mt-2 overflow-x-auto rounded bg-white px-3 py-2 font-mono text-xs text-zinc-900 dark:bg-zinc-900 dark:text-zinc-50">
                <code>{OUTBOX_COMMAND}</code>
              </pre>
            </>
          ) : null}
        </div>
      ) : (
        <>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{t("recovery.forgot.intro")}</p>
          {result && !result.fieldError ? (
            <p className="mt-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-50">
              <strong>{result.toast.title}</strong> {result.toast.description}
            </p>
          ) : null}
          <Form method="post" noValidate className="mt-6 space-y-4">
            <TextField
              label={t("auth.email")}
              name="email"
              type="email"
              autoComplete="email"
              defaultValue={result?.email}
              error={result?.fieldError}
            />
            <button
              type="submit"
              disabled={busy}
              className="w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-70"
            >
              {busy ? t("auth.working") : t("recovery.forgot.submit")}
            </button>
          </Form>
        </>
      )}
      <p className="mt-6 text-sm">
        <Link
          to="/auth"
          className="font-medium text-indigo-700 underline hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-100"
        >
          {t("recovery.backToSignIn")}
        </Link>
      </p>
    </div>
  );
}
