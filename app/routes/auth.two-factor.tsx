import { lazy, Suspense, useId } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { beginAccountAttempt, clearAccountFailures } from "#app/auth/account-throttle.server.ts";
import { recoveryCodeInput } from "#app/auth/recovery-codes.server.ts";
import { inputClass } from "#app/components/ui/field.tsx";
import { recordSignIn } from "#app/domains/users/sign-ins.server.ts";
import { normalizeTotpCode } from "#app/domains/users/two-factor-step.ts";
import { translatorFor } from "#app/i18n/i18n.server.ts";
import { type TwoFactorStepStrings, twoFactorStepStrings } from "#app/i18n/two-factor-step.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { safeRedirectPath } from "#app/lib/redirect.ts";
import { clientAddressContext } from "#app/lib/request-context.ts";
import { passRetryAfter } from "#app/lib/retry-after.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { type AuthToast, accountWaiting, tooManyAttempts } from "#app/web/auth-actions.server.ts";
import { noindexPageMeta } from "#app/web/meta.ts";
import { useShownTheme } from "#app/web/root-data.ts";
import { getSessionUser } from "#app/web/session.server.ts";
import type { Route } from "./+types/auth.two-factor";

/*
 * The second step of a sign-in with two-factor sign-in on. better-auth's plugin holds the pending sign-in (its
 * signed cookie and verification row, set when the password was right), checks the code and creates the session;
 * this route adds the site's own limits around it: the per-address limiter and the per-account throttle, the same
 * "Too many attempts" answers as the password step.
 */

const AuthToasts = lazy(() => import("#app/components/auth-toasts.tsx"));

/** The second step's form: a code from the app or a recovery code. Both are short; anything longer is no code. */
const twoFactorStepForm = z.object({
  intent: z.enum(["totp", "recovery"]),
  code: z.string().max(100),
  redirectTo: z.string().max(2000).optional(),
});

type StepResult = { toast: AuthToast; intent: "totp" | "recovery"; expired?: boolean };

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"), "/");
  if (getSessionUser(context)) throw redirect(redirectTo);
  const { lang } = languageOf(request);
  const pending = await runtimeOf(context).auth.api.pendingSignIn({ headers: request.headers });
  return { redirectTo, strings: twoFactorStepStrings(lang), pending: pending !== null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const runtime = runtimeOf(context);
  const { lang } = languageOf(request);
  const t = translatorFor(lang);
  const s = twoFactorStepStrings(lang);
  const client = context.get(clientAddressContext);
  const parsed = twoFactorStepForm.safeParse(await readForm(request));
  const fail = (intent: "totp" | "recovery", description: string, status = 400, headers?: HeadersInit) =>
    data<StepResult>({ intent, toast: { kind: "error", title: s.failed, description } }, { status, headers });
  if (!parsed.success) return fail("totp", t("auth.error.incompleteForm"));
  const { intent, code } = parsed.data;
  const redirectTo = safeRedirectPath(parsed.data.redirectTo, "/");

  // What cannot be a code is a typo, not a guess: answered before anything is counted.
  const submitted = intent === "totp" ? normalizeTotpCode(code) : recoveryCodeInput(code);
  if (submitted === null) return fail(intent, intent === "totp" ? s.badCode : s.badRecoveryCode);

  const retryAfterMs = await runtime.authLimiter.begin(client);
  if (retryAfterMs > 0) {
    return data<StepResult>(
      { intent, toast: tooManyAttempts(t, retryAfterMs) },
      { status: 429, headers: { "Retry-After": String(Math.ceil(retryAfterMs / 1000)) } },
    );
  }
  const pending = await runtime.auth.api.pendingSignIn({ headers: request.headers });
  if (!pending) {
    await runtime.authLimiter.forgive(client);
    return data<StepResult>(
      { intent, expired: true, toast: { kind: "error", title: s.expired, description: s.expiredText } },
      { status: 400 },
    );
  }
  const db = runtime.database.db;
  const accountWait = await beginAccountAttempt(db, pending.email);
  if (accountWait > 0) {
    await runtime.authLimiter.forgive(client);
    return data<StepResult>(
      { intent, toast: accountWaiting(t, accountWait) },
      { status: 429, headers: { "Retry-After": String(Math.ceil(accountWait / 1000)) } },
    );
  }

  // A recovery code goes to the plugin as its hash, the form the plugin stores (recovery-codes.server.ts).
  const response =
    intent === "totp"
      ? await runtime.auth.api.verifyTOTP({ body: { code: submitted }, headers: request.headers, asResponse: true })
      : await runtime.auth.api.verifyBackupCode({
          body: { code: submitted },
          headers: request.headers,
          asResponse: true,
        });
  if (response.ok) {
    await runtime.authLimiter.forgive(client);
    await clearAccountFailures(db, pending.email);
    await recordSignIn(db, pending.userId, lang);
    const headers = new Headers();
    for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
    throw redirect(redirectTo, { headers });
  }
  const body = (await response.json().catch(() => ({}))) as { code?: string };
  const passOn = new Headers();
  for (const cookie of response.headers.getSetCookie()) passOn.append("Set-Cookie", cookie);
  if (body.code === "INVALID_CODE" || body.code === "INVALID_BACKUP_CODE") {
    return fail(intent, intent === "totp" ? s.wrongCode : s.wrongRecoveryCode, 400, passOn);
  }
  if (body.code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE" || body.code === "ACCOUNT_TEMPORARILY_LOCKED") {
    // The plugin's own budgets (5 codes per sign-in, 10 in a row per account): the pending sign-in is gone.
    passOn.set("Retry-After", "60");
    return data<StepResult>(
      { intent, expired: true, toast: tooManyAttempts(t, 60_000) },
      { status: 429, headers: passOn },
    );
  }
  if (body.code === "INVALID_TWO_FACTOR_COOKIE") {
    return data<StepResult>(
      { intent, expired: true, toast: { kind: "error", title: s.expired, description: s.expiredText } },
      { status: 400, headers: passOn },
    );
  }
  getLogger().error({ status: response.status, code: body.code }, "Two-factor sign-in was rejected unexpectedly");
  return fail(intent, t("auth.error.unknown"), 400, passOn);
}

export const headers = passRetryAfter;

export function meta({ matches, location }: Route.MetaArgs) {
  return noindexPageMeta(matches, location.pathname, { en: "Two-factor sign-in", de: "Zwei-Faktor-Anmeldung" });
}

function CodeForm(props: {
  intent: "totp" | "recovery";
  label: string;
  hint: string;
  submit: string;
  busyLabel: string;
  busy: boolean;
  redirectTo: string;
  primary: boolean;
}) {
  const id = useId();
  return (
    <Form method="post" noValidate className="mt-4 space-y-4">
      <input type="hidden" name="intent" value={props.intent} />
      <input type="hidden" name="redirectTo" value={props.redirectTo} />
      <div>
        <label htmlFor={id} className="block text-sm font-medium">
          {props.label}
        </label>
        <input
          id={id}
          name="code"
          type="text"
          autoComplete={props.intent === "totp" ? "one-time-code" : "off"}
          inputMode={props.intent === "totp" ? "numeric" : "text"}
          spellCheck={false}
          aria-describedby={`${id}-hint`}
          className={inputClass}
        />
        <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">
          {props.hint}
        </p>
      </div>
      <button
        type="submit"
        disabled={props.busy}
        className={`w-full rounded-md px-4 py-2 font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-70 ${
          props.primary
            ? "bg-indigo-700 text-white hover:bg-indigo-800"
            : "border border-zinc-300 bg-white text-zinc-900 hover:bg-zinc-50 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
        }`}
      >
        {props.busy ? props.busyLabel : props.submit}
      </button>
    </Form>
  );
}

function Expired({ s }: { s: TwoFactorStepStrings }) {
  return (
    <div className="mt-6">
      <p>{s.expiredText}</p>
      <Link
        to="/auth"
        className="mt-4 inline-flex rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      >
        {s.startAgain}
      </Link>
    </div>
  );
}

export default function TwoFactorStep({ loaderData, actionData }: Route.ComponentProps) {
  const s = loaderData.strings;
  const theme = useShownTheme();
  const navigation = useNavigation();
  const busyIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const result = actionData as StepResult | undefined;
  const expired = !loaderData.pending || result?.expired === true;
  return (
    <div className="mx-auto max-w-md">
      {result ? (
        <Suspense fallback={null}>
          <AuthToasts message={result.toast} theme={theme} />
        </Suspense>
      ) : null}
      {result ? (
        <p
          role="alert"
          className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          <strong>{result.toast.title}</strong> {result.toast.description}
        </p>
      ) : null}
      <h1 className="text-2xl font-bold tracking-tight">{expired ? s.expired : s.title}</h1>
      {expired ? (
        <Expired s={s} />
      ) : (
        <>
          <p className="mt-2 text-zinc-700 dark:text-zinc-300">{s.intro}</p>
          <CodeForm
            intent="totp"
            label={s.codeLabel}
            hint={s.codeHint}
            submit={s.submit}
            busyLabel={s.working}
            busy={busyIntent === "totp"}
            redirectTo={loaderData.redirectTo}
            primary
          />
          <section
            aria-labelledby="recovery-heading"
            className="mt-10 border-t border-zinc-200 pt-6 dark:border-zinc-800"
          >
            <h2 id="recovery-heading" className="text-lg font-semibold">
              {s.recoveryHeading}
            </h2>
            <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{s.recoveryIntro}</p>
            <CodeForm
              intent="recovery"
              label={s.recoveryLabel}
              hint={s.recoveryHint}
              submit={s.recoverySubmit}
              busyLabel={s.working}
              busy={busyIntent === "recovery"}
              redirectTo={loaderData.redirectTo}
              primary={false}
            />
          </section>
        </>
      )}
    </div>
  );
}
