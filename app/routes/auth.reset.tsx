import { lazy, Suspense } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { TextField } from "#app/components/ui/field.tsx";
import { checkResetToken, resetPasswordWithToken } from "#app/domains/users/password-recovery.server.ts";
import { translatorWith } from "#app/i18n/i18n.server.ts";
import type { MessageKey } from "#app/i18n/i18n.ts";
import { type RecoveryMessageKey, recoveryDictionaryFor } from "#app/i18n/recovery-dictionary.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import type { AuthToast } from "#app/web/auth-actions.server.ts";
import { noindexPageMeta } from "#app/web/meta.ts";
import { useShownTheme, useTranslateWith } from "#app/web/root-data.ts";
import type { Route } from "./+types/auth.reset";

const AuthToasts = lazy(() => import("#app/components/auth-toasts.tsx"));

type ResetAnswer = { ok: boolean; toast: AuthToast; fieldError?: string; invalid?: boolean };

const resetForm = z.object({ token: z.string().max(1000), password: z.string().max(1000) });

const problemText: Record<string, MessageKey> = {
  "password.required": "auth.error.passwordRequired",
  "password.tooShort": "auth.error.passwordTooShort",
  "password.tooLong": "auth.error.passwordTooLong",
  "password.common": "auth.error.passwordCommon",
};

/** Opening the link only looks at the token: a mail scanner that follows it changes nothing. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const account = await checkResetToken(runtimeOf(context).database.db, token);
  const dictionary = recoveryDictionaryFor(languageOf(request).lang);
  // A 200 even so: after a successful reset this loader runs again, and its status would become the answer's.
  if (!account) return { dictionary, valid: false as const, token: "", email: "" };
  return { dictionary, valid: true as const, token, email: account.email };
}

/**
 * Sets the new password; every session of the account ends (setPassword). The person is then asked to sign in
 * rather than signed in here: a sign-in with two-factor sign-in on needs its second step, which a reset link
 * must not skip, and the sign-in form is where the account's sign-ins are counted and recorded.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { lang } = languageOf(request);
  const t = translatorWith(lang, recoveryDictionaryFor(lang));
  const parsed = resetForm.safeParse(await readForm(request));
  const fail = (key: MessageKey | RecoveryMessageKey, status = 400, invalid = false) =>
    data(
      {
        ok: false,
        invalid,
        fieldError: invalid ? undefined : t(key),
        toast: { kind: "error", title: t("recovery.reset.failed"), description: t(key) },
      } satisfies ResetAnswer,
      { status },
    );
  if (!parsed.success) return fail("auth.error.incompleteForm");
  const result = await resetPasswordWithToken(runtimeOf(context).database.db, parsed.data);
  if (!result.ok) {
    if (result.reason === "invalidToken") return fail("recovery.reset.invalidText", 400, true);
    return fail(problemText[result.reason] ?? "auth.error.unknown");
  }
  return {
    ok: true,
    toast: { kind: "success", title: t("recovery.reset.done"), description: t("recovery.reset.doneText") },
  } satisfies ResetAnswer;
}

export function meta({ matches, location }: Route.MetaArgs) {
  return noindexPageMeta(matches, location.pathname, { en: "Choose a new password", de: "Neues Passwort wählen" });
}

const linkClass =
  "font-medium text-indigo-700 underline hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-100";
const buttonClass =
  "w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-70";

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const t = useTranslateWith(loaderData.dictionary);
  const theme = useShownTheme();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth/reset") === true;
  const result = actionData as ResetAnswer | undefined;
  const toast = result ? (
    <Suspense fallback={null}>
      <AuthToasts message={result.toast} theme={theme} />
    </Suspense>
  ) : null;

  if (result?.ok) {
    return (
      <div className="mx-auto max-w-md">
        {toast}
        <h1 className="text-2xl font-bold tracking-tight">{t("recovery.reset.done")}</h1>
        <p className="mt-4">{t("recovery.reset.doneText")}</p>
        <p className="mt-6">
          <Link to="/auth" className={linkClass}>
            {t("recovery.reset.signIn")}
          </Link>
        </p>
      </div>
    );
  }
  if (!loaderData.valid || result?.invalid) {
    return (
      <div className="mx-auto max-w-md">
        {toast}
        <h1 className="text-2xl font-bold tracking-tight">{t("recovery.reset.invalid")}</h1>
        <p className="mt-4">{t("recovery.reset.invalidText")}</p>
        <p className="mt-6">
          <Link to="/auth/forgot" className={linkClass}>
            {t("recovery.reset.requestNew")}
          </Link>
        </p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md">
      {toast}
      <h1 className="text-2xl font-bold tracking-tight">{t("recovery.reset.heading")}</h1>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">
        {t("recovery.reset.intro", { email: loaderData.email })}
      </p>
      <Form method="post" noValidate className="mt-6 space-y-4">
        <input type="hidden" name="token" value={loaderData.token} />
        {/* Lets a password manager store the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={loaderData.email} readOnly hidden />
        <TextField
          label={t("recovery.reset.newPassword")}
          name="password"
          type="password"
          autoComplete="new-password"
          hint={t("auth.passwordHint")}
          error={result?.fieldError}
        />
        <button type="submit" disabled={busy} className={buttonClass}>
          {busy ? t("auth.working") : t("recovery.reset.submit")}
        </button>
      </Form>
    </div>
  );
}
