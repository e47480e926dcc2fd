import { lazy, Suspense, useEffect, useId, useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { authForm } from "#app/domains/users/auth-forms.ts";
import { normalizeEmail } from "#app/domains/users/email.ts";
import { twoFactorStepPath } from "#app/domains/users/two-factor-step.ts";
import { translatorFor } from "#app/i18n/i18n.server.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { safeRedirectPath } from "#app/lib/redirect.ts";
import { clientAddressContext } from "#app/lib/request-context.ts";
import { passRetryAfter } from "#app/lib/retry-after.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import {
  type AuthActionResult,
  type AuthToast,
  signIn,
  signUp,
  tooManyAttempts,
} from "#app/web/auth-actions.server.ts";
import { noindexPageMeta } from "#app/web/meta.ts";
import { useShownTheme, useTranslate } from "#app/web/root-data.ts";
import { getSessionUser } from "#app/web/session.server.ts";
import type { Route } from "./+types/auth";

type Mode = "sign-in" | "sign-up";

// The toast library arrives with the first answer that needs a toast, not with the page.
const AuthToasts = lazy(() => import("#app/components/auth-toasts.tsx"));

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"), "/");
  if (getSessionUser(context)) throw redirect(redirectTo);
  const invite = (url.searchParams.get("invite") ?? "").slice(0, 100);
  const mode: Mode = invite || url.searchParams.get("mode") === "sign-up" ? "sign-up" : "sign-in";
  return { invite, redirectTo, mode };
}

export async function action({ request, context }: Route.ActionArgs) {
  const runtime = runtimeOf(context);
  const t = translatorFor(languageOf(request).lang);
  const client = context.get(clientAddressContext);
  const parsed = authForm.safeParse(await readForm(request));
  if (!parsed.success) {
    const toast: AuthToast = {
      kind: "error",
      title: t("auth.error.unknown"),
      description: t("auth.error.incompleteForm"),
    };
    return data({ intent: "sign-in" as const, ok: false, email: "", toast }, { status: 400 });
  }
  const form = parsed.data;
  const retryAfterMs = await runtime.authLimiter.begin(client);
  if (retryAfterMs > 0) {
    return data(
      {
        intent: form.intent,
        ok: false,
        email: normalizeEmail(form.email),
        toast: tooManyAttempts(t, retryAfterMs),
      },
      { status: 429, headers: { "Retry-After": String(Math.ceil(retryAfterMs / 1000)) } },
    );
  }
  if (form.intent === "sign-up") {
    const result = await signUp(runtime, t, client, { ...form, language: languageOf(request).lang });
    return data(result, { status: result.ok ? 200 : 400 });
  }
  const result = await signIn(runtime, t, client, request, form);
  if (result.ok) {
    const target = safeRedirectPath(form.redirectTo, "/");
    // Two-factor sign-in on: the second step, carrying better-auth's pending-sign-in cookie.
    if (result.twoFactor) throw redirect(twoFactorStepPath(target), { headers: result.headers });
    throw redirect(target, { headers: result.headers });
  }
  const { retryAfterMs: accountWait, ...answer } = result;
  if (accountWait) {
    return data(answer, { status: 429, headers: { "Retry-After": String(Math.ceil(accountWait / 1000)) } });
  }
  return data(answer, { status: 400 });
}

export const headers = passRetryAfter;

export function meta({ matches, location }: Route.MetaArgs) {
  return noindexPageMeta(matches, location.pathname, { en: "Sign in", de: "Anmelden" });
}

const inputClass =
  "mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 placeholder:text-zinc-500 focus:border-indigo-600 focus:outline-2 focus:outline-indigo-500 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400";
const labelClass = "block text-sm font-medium";

function Field(props: {
  label: string;
  name: string;
  type: string;
  autoComplete: string;
  defaultValue?: string;
  hint?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type}
        autoComplete={props.autoComplete}
        defaultValue={props.defaultValue}
        aria-describedby={props.hint ? hintId : undefined}
        className={inputClass}
      />
      {props.hint ? (
        <p id={hintId} className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useTranslate();
  const theme = useShownTheme();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth") === true;
  const [mode, setMode] = useState<Mode>(loaderData.mode);
  const [signInEmail, setSignInEmail] = useState("");
  const result = actionData && "toast" in actionData ? (actionData as AuthActionResult) : undefined;

  useEffect(() => {
    if (!result) return;
    if (result.intent === "sign-up" && result.ok) {
      setSignInEmail(result.email);
      setMode("sign-in");
    }
  }, [result]);

  const tabs: { id: Mode; label: string }[] = [
    { id: "sign-in", label: t("auth.signInTab") },
    { id: "sign-up", label: t("auth.signUpTab") },
  ];

  return (
    <div className="mx-auto max-w-md">
      {result ? (
        <Suspense fallback={null}>
          <AuthToasts message={result.toast} theme={theme} />
        </Suspense>
      ) : null}
      <div
        role="tablist"
        aria-label={t("auth.title")}
        className="mb-6 grid grid-cols-2 rounded-lg bg-zinc-100 p-1 dark:bg-zinc-800"
      >
        {tabs.map((tab) => (
          <a
            key={tab.id}
            id={`tab-${tab.id}`}
            role="tab"
            href={`?mode=${tab.id}`}
            aria-selected={mode === tab.id}
            aria-controls={`panel-${tab.id}`}
            tabIndex={mode === tab.id ? 0 : -1}
            onClick={(event) => {
              event.preventDefault();
              setMode(tab.id);
            }}
            onKeyDown={(event) => {
              if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
                event.preventDefault();
                const next = mode === "sign-in" ? "sign-up" : "sign-in";
                setMode(next);
                document.getElementById(`tab-${next}`)?.focus();
              }
            }}
            className={`rounded-md px-3 py-2 text-center text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
              mode === tab.id
                ? "bg-white text-zinc-900 shadow dark:bg-zinc-950 dark:text-white"
                : "text-zinc-700 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-white"
            }`}
          >
            {tab.label}
          </a>
        ))}
      </div>

      {result ? (
        <noscript>
          <p role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
            <strong>{result.toast.title}</strong> {result.toast.description}
          </p>
        </noscript>
      ) : null}

      {mode === "sign-in" ? (
        <section id="panel-sign-in" role="tabpanel" aria-labelledby="tab-sign-in">
          <h1 className="text-2xl font-bold tracking-tight">{t("auth.signInHeading")}</h1>
          <Form method="post" noValidate className="mt-6 space-y-4" key={`sign-in-${signInEmail}`}>
            <input type="hidden" name="intent" value="sign-in" />
            <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
            <Field label={t("auth.email")} name="email" type="email" autoComplete="email" defaultValue={signInEmail} />
            <Field label={t("auth.password")} name="password" type="password" autoComplete="current-password" />
            <SubmitButton busy={busy} label={t("auth.submitSignIn")} busyLabel={t("auth.working")} />
          </Form>
          <p className="mt-4 text-sm">
            <a href="/auth/forgot" className="font-medium text-indigo-700 underline dark:text-indigo-300">
              {t("auth.forgotLink")}
            </a>
          </p>
        </section>
      ) : (
        <section id="panel-sign-up" role="tabpanel" aria-labelledby="tab-sign-up">
          <h1 className="text-2xl font-bold tracking-tight">{t("auth.signUpHeading")}</h1>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{t("auth.signUpIntro")}</p>
          <Form method="post" noValidate className="mt-6 space-y-4">
            <input type="hidden" name="intent" value="sign-up" />
            <Field label={t("auth.email")} name="email" type="email" autoComplete="email" />
            <Field
              label={t("auth.password")}
              name="password"
              type="password"
              autoComplete="new-password"
              hint={t("auth.passwordHint")}
            />
            <Field
              label={t("auth.inviteCode")}
              name="inviteCode"
              type="text"
              autoComplete="off"
              defaultValue={loaderData.invite}
            />
            <SubmitButton busy={busy} label={t("auth.submitSignUp")} busyLabel={t("auth.working")} />
          </Form>
        </section>
      )}
    </div>
  );
}

function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-70"
    >
      {busy ? busyLabel : label}
    </button>
  );
}
