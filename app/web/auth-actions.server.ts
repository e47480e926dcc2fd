import { beginAccountAttempt, clearAccountFailures, sweepAccountFailures } from "#app/auth/account-throttle.server.ts";
import type { AuthToast } from "#app/components/auth-toasts.tsx";
import { isValidEmail, normalizeEmail } from "#app/domains/users/email.ts";
import { recordSignIn } from "#app/domains/users/sign-ins.server.ts";
import { SignUpError, signUpWithInvite } from "#app/domains/users/users.server.ts";
import type { Language, MessageKey, Translate } from "#app/i18n/i18n.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import type { Runtime } from "#app/runtime/runtime-context.ts";

// The toast's shape is the component's that shows it; the routes keep naming it from here.
export type { AuthToast };

export type AuthActionResult = { intent: "sign-in" | "sign-up"; ok: boolean; toast: AuthToast; email: string };

const signUpReasonText: Record<string, MessageKey> = {
  emailRequired: "auth.error.emailRequired",
  emailInvalid: "auth.error.emailInvalid",
  emailTaken: "auth.error.emailTaken",
  "password.required": "auth.error.passwordRequired",
  "password.tooShort": "auth.error.passwordTooShort",
  "password.tooLong": "auth.error.passwordTooLong",
  "password.common": "auth.error.passwordCommon",
};

// Failures that could be guessing (codes, addresses) stay counted towards the limit; the rest are forgiven.
const countedSignUpReasons = new Set(["inviteInvalid", "emailTaken"]);

export function tooManyAttempts(t: Translate, retryAfterMs: number): AuthToast {
  return {
    kind: "error",
    title: t("auth.tooManyAttempts"),
    description: t("auth.tooManyAttemptsText", { minutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)) }),
  };
}

/** The account waits before its next password check: many wrong passwords for it, from anywhere. */
export function accountWaiting(t: Translate, retryAfterMs: number): AuthToast {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return {
    kind: "error",
    title: t("auth.tooManyAttempts"),
    description:
      seconds < 60
        ? t("auth.accountWaitingSeconds", { seconds })
        : t("auth.accountWaitingMinutes", { minutes: Math.ceil(seconds / 60) }),
  };
}

const SWEEP_INTERVAL_MS = 10 * 60_000;
let lastSweep = 0;

export async function signUp(
  runtime: Runtime,
  t: Translate,
  client: string,
  form: { email: string; password: string; inviteCode: string; language?: Language },
): Promise<AuthActionResult> {
  const email = normalizeEmail(form.email);
  try {
    const account = await signUpWithInvite(runtime.database.db, form);
    await runtime.authLimiter.forgive(client);
    return {
      intent: "sign-up",
      ok: true,
      email: account.email,
      toast: { kind: "success", title: t("auth.success"), description: t("auth.successText") },
    };
  } catch (error) {
    if (!(error instanceof SignUpError)) throw error;
    if (!countedSignUpReasons.has(error.reason)) await runtime.authLimiter.forgive(client);
    const toast: AuthToast =
      error.reason === "inviteRequired"
        ? { kind: "error", title: t("auth.inviteRequired"), description: t("auth.inviteRequiredText") }
        : error.reason === "inviteInvalid"
          ? { kind: "error", title: t("auth.inviteInvalid"), description: t("auth.inviteInvalidText") }
          : {
              kind: "error",
              title: t("auth.signUpFailed"),
              description: t(signUpReasonText[error.reason] ?? "auth.error.unknown"),
            };
    return { intent: "sign-up", ok: false, email, toast };
  }
}

/**
 * Signs in through better-auth; on success returns its Set-Cookie headers, on failure a toast.
 * The caller has counted the attempt with `authLimiter.begin`; only a wrong password keeps it counted. The
 * account's own count (account-throttle.server.ts) is taken here: while it waits, no password is checked.
 */
export async function signIn(
  runtime: Runtime,
  t: Translate,
  client: string,
  request: Request,
  form: { email: string; password: string },
): Promise<
  { ok: true; headers: Headers; twoFactor: boolean } | (AuthActionResult & { ok: false; retryAfterMs?: number })
> {
  const email = normalizeEmail(form.email);
  const fail = (key: MessageKey): AuthActionResult & { ok: false } => ({
    intent: "sign-in",
    ok: false,
    email,
    toast: { kind: "error", title: t("auth.signInFailed"), description: t(key) },
  });
  if (!email || !form.password) {
    await runtime.authLimiter.forgive(client);
    return fail(email ? "auth.error.passwordRequired" : "auth.error.emailRequired");
  }
  // The shared rule before anything reaches better-auth and the database: no address, no lookup.
  if (!isValidEmail(email)) {
    await runtime.authLimiter.forgive(client);
    return fail("auth.error.emailInvalid");
  }

  const db = runtime.database.db;
  if (Date.now() - lastSweep > SWEEP_INTERVAL_MS) {
    lastSweep = Date.now();
    await sweepAccountFailures(db);
  }
  const accountWait = await beginAccountAttempt(db, email);
  if (accountWait > 0) {
    // Not checked, so not this address's failure either.
    await runtime.authLimiter.forgive(client);
    return { intent: "sign-in", ok: false, email, toast: accountWaiting(t, accountWait), retryAfterMs: accountWait };
  }

  const response = await runtime.auth.api.signInEmail({
    body: { email, password: form.password, rememberMe: true },
    headers: request.headers,
    asResponse: true,
  });
  if (response.ok) {
    await runtime.authLimiter.forgive(client);
    const headers = new Headers();
    for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
    // With two-factor sign-in on, better-auth's plugin has created no session: it answers with a pending-sign-in
    // cookie instead, for the second step (routes/auth.two-factor.tsx). The account's failure count stays until
    // that step succeeds, so that a known password does not reset the budget for guessing codes.
    const answer = (await response.json().catch(() => ({}))) as { twoFactorRedirect?: boolean; user?: { id?: string } };
    if (answer.twoFactorRedirect === true) return { ok: true, headers, twoFactor: true };
    await clearAccountFailures(db, email);
    if (answer.user?.id) await recordSignIn(db, answer.user.id, languageOf(request).lang);
    return { ok: true, headers, twoFactor: false };
  }
  const body = (await response.json().catch(() => ({}))) as { code?: string };
  if (body.code === "INVALID_EMAIL" || body.code === "VALIDATION_ERROR") return fail("auth.error.emailInvalid");
  // A password longer than any allowed one cannot be right: the same answer as a wrong one.
  if (response.status === 401 || body.code === "INVALID_EMAIL_OR_PASSWORD" || body.code === "PASSWORD_TOO_LONG")
    return fail("auth.error.invalidCredentials");
  getLogger().error({ status: response.status, code: body.code }, "Sign-in was rejected unexpectedly");
  return fail("auth.error.unknown");
}
