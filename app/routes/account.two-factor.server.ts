import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import {
  auditTwoFactorChange,
  issueRecoveryCodes,
  readTwoFactorStatus,
  TWO_FACTOR_AUDIT,
} from "#app/domains/users/two-factor.server.ts";
import { describeTotpUri, type TwoFactorSetup } from "#app/domains/users/two-factor-setup.server.ts";
import { normalizeTotpCode } from "#app/domains/users/two-factor-step.ts";
import { type AccountMessageKey, accountTranslatorFor } from "#app/i18n/account-dictionary.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { clientAddressContext } from "#app/lib/request-context.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { requireUser } from "#app/web/session.server.ts";

type Args = { request: Request; url: URL; context: Readonly<RouterContextProvider> };

/*
 * Turning two-factor sign-in on and off. better-auth's plugin does the work (a secret encrypted with the auth
 * secret, the password checks, the first code's check, the session it renews on every change); this page adds the
 * QR code, the recovery codes shown once, the per-address limit on wrong passwords, and the audit records.
 */

export async function twoFactorLoader({ request, url, context }: Args) {
  const user = requireUser(url, context);
  const runtime = runtimeOf(context);
  const status = await readTwoFactorStatus(runtime.database.db, user.id);
  const settings = await readSettings(runtime.database.db);
  return {
    status,
    required: url.searchParams.get("required") === "admin" && user.isAdmin && !status.enabled,
    siteName: settings.site_name.trim() || "Vitrine",
    lang: languageOf(request).lang,
  };
}

const passwordField = z.string().max(1000);
const twoFactorForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start"), password: passwordField }),
  z.object({ intent: z.literal("confirm"), code: z.string().max(100), uri: z.string().max(1000) }),
  z.object({ intent: z.literal("regenerate"), password: passwordField }),
  z.object({ intent: z.literal("disable"), password: passwordField }),
]);
export type Intent = z.infer<typeof twoFactorForm>["intent"];

/** What the page answers a form with: the QR code to scan, the recovery codes to keep, a message, or why not. */
export type TwoFactorAnswer =
  | { kind: "setup"; setup: TwoFactorSetup; error?: string; message?: undefined }
  | { kind: "codes"; codes: string[]; message: string }
  | { kind: "done"; message: string }
  | { kind: "error"; intent: Intent; error: string };

function cookiesOf(response: Response): Headers {
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

async function errorCodeOf(response: Response): Promise<string | undefined> {
  return ((await response.json().catch(() => ({}))) as { code?: string }).code;
}

export async function twoFactorAction({ request, url, context }: Args) {
  const user = requireUser(url, context);
  const runtime = runtimeOf(context);
  const db = runtime.database.db;
  const t = accountTranslatorFor(languageOf(request).lang);
  const client = context.get(clientAddressContext);
  const parsed = twoFactorForm.safeParse(await readForm(request));
  if (!parsed.success) {
    return data<TwoFactorAnswer>(
      { kind: "error", intent: "start", error: t("account.twoFactor.failed") },
      { status: 400 },
    );
  }
  const form = parsed.data;
  const refuse = (error: AccountMessageKey, status = 400, headers?: HeadersInit) =>
    data<TwoFactorAnswer>({ kind: "error", intent: form.intent, error: t(error) }, { status, headers });
  const status = await readTwoFactorStatus(db, user.id);

  if (form.intent === "confirm") {
    if (status.enabled) return refuse("account.twoFactor.alreadyOn", 409);
    const setup = await describeTotpUri(form.uri);
    if (!setup || !status.pending) return refuse("account.twoFactor.startAgain", 409);
    const code = normalizeTotpCode(form.code);
    if (code === null) {
      return data<TwoFactorAnswer>({ kind: "setup", setup, error: t("account.twoFactor.badCode") }, { status: 400 });
    }
    // With a session, the plugin's verifyTOTP confirms the enrolment: it marks the secret verified, turns
    // `twoFactorEnabled` on and replaces the session (its new cookie is passed on below).
    const response = await runtime.auth.api.verifyTOTP({ body: { code }, headers: request.headers, asResponse: true });
    if (!response.ok) {
      const problem = await errorCodeOf(response);
      if (problem !== "INVALID_CODE") getLogger().error({ code: problem }, "Two-factor confirmation was refused");
      return data<TwoFactorAnswer>({ kind: "setup", setup, error: t("account.twoFactor.wrongCode") }, { status: 400 });
    }
    const headers = cookiesOf(response);
    // The new codes and the audit entry of the change: one transaction.
    const codes = await issueRecoveryCodes(db, user, { audit: TWO_FACTOR_AUDIT.enabled });
    return data<TwoFactorAnswer>(
      { kind: "codes", codes: codes ?? [], message: t("account.twoFactor.enabled") },
      { headers },
    );
  }

  // The rest needs the password: wrong ones count towards the address's limit like those of the sign-in form.
  if (!form.password) return refuse("account.twoFactor.passwordRequired");
  if (form.intent === "start" && status.enabled) return refuse("account.twoFactor.alreadyOn", 409);
  if (form.intent !== "start" && !status.enabled) return refuse("account.twoFactor.notOn", 409);
  const retryAfterMs = await runtime.authLimiter.begin(client);
  if (retryAfterMs > 0) {
    return data<TwoFactorAnswer>(
      {
        kind: "error",
        intent: form.intent,
        error: t("account.twoFactor.tooManyAttempts", { minutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)) }),
      },
      { status: 429, headers: { "Retry-After": String(Math.ceil(retryAfterMs / 1000)) } },
    );
  }
  const body = { password: form.password };
  const response =
    form.intent === "start"
      ? await runtime.auth.api.enableTwoFactor({
          body: { ...body, issuer: (await readSettings(db)).site_name.trim() || "Vitrine" },
          headers: request.headers,
          asResponse: true,
        })
      : form.intent === "regenerate"
        ? await runtime.auth.api.generateBackupCodes({ body, headers: request.headers, asResponse: true })
        : await runtime.auth.api.disableTwoFactor({ body, headers: request.headers, asResponse: true });
  if (!response.ok) {
    const problem = await errorCodeOf(response);
    if (problem === "INVALID_PASSWORD" || problem === "PASSWORD_TOO_LONG") {
      return refuse("account.twoFactor.wrongPassword");
    }
    await runtime.authLimiter.forgive(client);
    getLogger().error({ status: response.status, code: problem }, "Two-factor change was refused unexpectedly");
    return refuse("account.twoFactor.failed");
  }
  await runtime.authLimiter.forgive(client);
  const headers = cookiesOf(response);
  if (form.intent === "start") {
    // The plugin also made backup codes here; they are replaced (and only then shown) once the first code confirms.
    const { totpURI } = (await response.json()) as { totpURI: string };
    const setup = await describeTotpUri(totpURI);
    if (!setup) throw new Error("better-auth made a TOTP URI this page cannot read");
    return data<TwoFactorAnswer>({ kind: "setup", setup }, { headers });
  }
  if (form.intent === "regenerate") {
    const { backupCodes } = (await response.json()) as { backupCodes: string[] };
    await auditTwoFactorChange(db, user, TWO_FACTOR_AUDIT.codesRegenerated);
    return data<TwoFactorAnswer>(
      { kind: "codes", codes: backupCodes, message: t("account.twoFactor.regenerated") },
      { headers },
    );
  }
  await auditTwoFactorChange(db, user, TWO_FACTOR_AUDIT.disabled);
  return data<TwoFactorAnswer>({ kind: "done", message: t("account.twoFactor.disabled") }, { headers });
}
