import { useEffect } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { PageHeader } from "#app/components/page-header.tsx";
import { buttonClass } from "#app/components/ui/button.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import {
  auditTwoFactorChange,
  issueRecoveryCodes,
  readTwoFactorStatus,
  TWO_FACTOR_AUDIT,
} from "#app/domains/users/two-factor.server.ts";
import { describeTotpUri, type TwoFactorSetup } from "#app/domains/users/two-factor-setup.server.ts";
import { groupSecret, normalizeTotpCode } from "#app/domains/users/two-factor-step.ts";
import { type AccountMessageKey, accountTranslatorFor } from "#app/i18n/account-dictionary.ts";
import { useAccountData, useAccountTranslate } from "#app/lib/account-data.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { clientAddressContext } from "#app/lib/request-context.ts";
import { passRetryAfter } from "#app/lib/retry-after.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { requireUser } from "#app/web/session.server.ts";
import type { Route } from "./+types/account.two-factor";

/*
 * Turning two-factor sign-in on and off. better-auth's plugin does the work (a secret encrypted with the auth
 * secret, the password checks, the first code's check, the session it renews on every change); this page adds the
 * QR code, the recovery codes shown once, the per-address limit on wrong passwords, and the audit records.
 */

export async function loader({ request, url, context }: Route.LoaderArgs) {
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
type Intent = z.infer<typeof twoFactorForm>["intent"];

type ActionResult =
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

export async function action({ request, url, context }: Route.ActionArgs) {
  const user = requireUser(url, context);
  const runtime = runtimeOf(context);
  const db = runtime.database.db;
  const t = accountTranslatorFor(languageOf(request).lang);
  const client = context.get(clientAddressContext);
  const parsed = twoFactorForm.safeParse(await readForm(request));
  if (!parsed.success) {
    return data<ActionResult>(
      { kind: "error", intent: "start", error: t("account.twoFactor.failed") },
      { status: 400 },
    );
  }
  const form = parsed.data;
  const refuse = (error: AccountMessageKey, status = 400, headers?: HeadersInit) =>
    data<ActionResult>({ kind: "error", intent: form.intent, error: t(error) }, { status, headers });
  const status = await readTwoFactorStatus(db, user.id);

  if (form.intent === "confirm") {
    if (status.enabled) return refuse("account.twoFactor.alreadyOn", 409);
    const setup = await describeTotpUri(form.uri);
    if (!setup || !status.pending) return refuse("account.twoFactor.startAgain", 409);
    const code = normalizeTotpCode(form.code);
    if (code === null) {
      return data<ActionResult>({ kind: "setup", setup, error: t("account.twoFactor.badCode") }, { status: 400 });
    }
    // With a session, the plugin's verifyTOTP confirms the enrolment: it marks the secret verified, turns
    // `twoFactorEnabled` on and replaces the session (its new cookie is passed on below).
    const response = await runtime.auth.api.verifyTOTP({ body: { code }, headers: request.headers, asResponse: true });
    if (!response.ok) {
      const problem = await errorCodeOf(response);
      if (problem !== "INVALID_CODE") getLogger().error({ code: problem }, "Two-factor confirmation was refused");
      return data<ActionResult>({ kind: "setup", setup, error: t("account.twoFactor.wrongCode") }, { status: 400 });
    }
    const headers = cookiesOf(response);
    const codes = await issueRecoveryCodes(db, user, { audit: false });
    await auditTwoFactorChange(db, user, TWO_FACTOR_AUDIT.enabled);
    return data<ActionResult>(
      { kind: "codes", codes: codes ?? [], message: t("account.twoFactor.enabled") },
      { headers },
    );
  }

  // The rest needs the password: wrong ones count towards the address's limit like those of the sign-in form.
  if (!form.password) return refuse("account.twoFactor.passwordRequired");
  if (form.intent === "start" && status.enabled) return refuse("account.twoFactor.alreadyOn", 409);
  if (form.intent !== "start" && !status.enabled) return refuse("account.twoFactor.notOn", 409);
  const retryAfterMs = runtime.authLimiter.begin(client);
  if (retryAfterMs > 0) {
    return data<ActionResult>(
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
    runtime.authLimiter.forgive(client);
    getLogger().error({ status: response.status, code: problem }, "Two-factor change was refused unexpectedly");
    return refuse("account.twoFactor.failed");
  }
  runtime.authLimiter.forgive(client);
  const headers = cookiesOf(response);
  if (form.intent === "start") {
    // The plugin also made backup codes here; they are replaced (and only then shown) once the first code confirms.
    const { totpURI } = (await response.json()) as { totpURI: string };
    const setup = await describeTotpUri(totpURI);
    if (!setup) throw new Error("better-auth made a TOTP URI this page cannot read");
    return data<ActionResult>({ kind: "setup", setup }, { headers });
  }
  if (form.intent === "regenerate") {
    const { backupCodes } = (await response.json()) as { backupCodes: string[] };
    await auditTwoFactorChange(db, user, TWO_FACTOR_AUDIT.codesRegenerated);
    return data<ActionResult>(
      { kind: "codes", codes: backupCodes, message: t("account.twoFactor.regenerated") },
      { headers },
    );
  }
  await auditTwoFactorChange(db, user, TWO_FACTOR_AUDIT.disabled);
  return data<ActionResult>({ kind: "done", message: t("account.twoFactor.disabled") }, { headers });
}

function PasswordForm(props: { intent: Intent; submit: string; danger?: boolean; error?: string; busy: boolean }) {
  const t = useAccountTranslate();
  return (
    <Form method="post" noValidate className="mt-4 max-w-sm space-y-4">
      <input type="hidden" name="intent" value={props.intent} />
      <TextField
        label={t("account.twoFactor.password")}
        hint={t("account.twoFactor.passwordHint")}
        error={props.error}
        name="password"
        type="password"
        autoComplete="current-password"
      />
      <button type="submit" disabled={props.busy} className={buttonClass(props.danger ? "danger" : "primary")}>
        {props.submit}
      </button>
    </Form>
  );
}

function SetupStep({ setup, error, busy }: { setup: TwoFactorSetup; error?: string; busy: boolean }) {
  const t = useAccountTranslate();
  return (
    <section aria-labelledby="setup-heading" className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
      <h2 id="setup-heading" className="text-xl font-semibold">
        {t("account.twoFactor.scanHeading")}
      </h2>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">{t("account.twoFactor.scanText")}</p>
      <div
        role="img"
        aria-label={t("account.twoFactor.qrLabel")}
        className="mt-4 w-48 rounded-md bg-white p-1 sm:w-56"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: an SVG drawn on this server by the qrcode package
        dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
      />
      <p className="mt-4 text-sm font-medium">{t("account.twoFactor.secretLabel")}</p>
      <code data-testid="totp-secret" className="mt-1 block break-all font-mono text-lg tracking-wide">
        {groupSecret(setup.secret)}
      </code>
      <Form method="post" noValidate className="mt-6 max-w-sm space-y-4">
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="uri" value={setup.uri} />
        <TextField
          label={t("account.twoFactor.code")}
          hint={t("account.twoFactor.codeHint")}
          error={error}
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          spellCheck={false}
        />
        <button type="submit" disabled={busy} className={buttonClass("primary")}>
          {t("account.twoFactor.confirm")}
        </button>
      </Form>
    </section>
  );
}

function RecoveryCodes({ codes, siteName }: { codes: string[]; siteName: string }) {
  const t = useAccountTranslate();
  const email = useAccountData()?.email ?? "";
  const text = `${t("account.twoFactor.codesFileIntro", { site: siteName, email })}\n\n${codes.join("\n")}\n`;
  return (
    <section aria-labelledby="codes-heading" className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
      <h2 id="codes-heading" className="text-xl font-semibold">
        {t("account.twoFactor.codesHeading")}
      </h2>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">{t("account.twoFactor.codesText")}</p>
      <ul data-testid="recovery-codes" className="mt-4 grid max-w-sm grid-cols-2 gap-2 font-mono text-lg">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="mt-6 flex flex-wrap gap-3">
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="recovery-codes.txt"
          className={buttonClass("secondary")}
        >
          {t("account.twoFactor.codesDownload")}
        </a>
        <Link to="/account/two-factor" className={buttonClass("primary")}>
          {t("account.twoFactor.codesDone")}
        </Link>
      </div>
    </section>
  );
}

// A plain form post answered 429 keeps its Retry-After on the page.
export const headers = passRetryAfter;

export default function AccountTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAccountTranslate();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const result = actionData as ActionResult | undefined;
  const { status } = loaderData;

  // A string, not `t`: the account layout's data is fetched anew after the answer (turning two-factor on renews
  // the session), which makes a new `t`, and an effect that depended on it showed the same toast a second time.
  const failedTitle = t("account.twoFactor.failed");
  useEffect(() => {
    if (result?.kind === "codes" || result?.kind === "done") toast.success(result.message);
    else if (result?.kind === "error") toast.error(failedTitle, { description: result.error });
  }, [result, failedTitle]);

  const errorFor = (intent: Intent) =>
    result?.kind === "error" && result.intent === intent ? result.error : undefined;

  let body: React.ReactNode;
  if (result?.kind === "codes") body = <RecoveryCodes codes={result.codes} siteName={loaderData.siteName} />;
  else if (result?.kind === "setup" && !status.enabled)
    body = <SetupStep setup={result.setup} error={result.error} busy={busy} />;
  else if (!status.enabled) {
    body = (
      <section aria-labelledby="on-heading">
        <h2 id="on-heading" className="text-xl font-semibold">
          {t("account.twoFactor.turnOnHeading")}
        </h2>
        <PasswordForm
          intent="start"
          submit={t("account.twoFactor.turnOn")}
          error={errorFor("start") ?? errorFor("confirm")}
          busy={busy}
        />
      </section>
    );
  } else {
    body = (
      <div className="space-y-10">
        <section aria-labelledby="regenerate-heading">
          <h2 id="regenerate-heading" className="text-xl font-semibold">
            {t("account.twoFactor.regenerateHeading")}
          </h2>
          <p className="mt-1 text-zinc-700 dark:text-zinc-300">{t("account.twoFactor.regenerateText")}</p>
          <PasswordForm
            intent="regenerate"
            submit={t("account.twoFactor.regenerate")}
            error={errorFor("regenerate")}
            busy={busy}
          />
        </section>
        <section aria-labelledby="off-heading">
          <h2 id="off-heading" className="text-xl font-semibold">
            {t("account.twoFactor.turnOffHeading")}
          </h2>
          <p className="mt-1 text-zinc-700 dark:text-zinc-300">{t("account.twoFactor.turnOffText")}</p>
          <PasswordForm
            intent="disable"
            submit={t("account.twoFactor.turnOff")}
            danger
            error={errorFor("disable")}
            busy={busy}
          />
        </section>
      </div>
    );
  }

  return (
    <div>
      <PageHeader title={t("account.twoFactor.title")} />
      {loaderData.required ? (
        <div
          role="alert"
          className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          <p className="font-semibold">{t("account.twoFactor.requiredTitle")}</p>
          <p className="mt-1 text-sm">{t("account.twoFactor.requiredText")}</p>
        </div>
      ) : null}
      <p className="text-zinc-700 dark:text-zinc-300">{t("account.twoFactor.intro")}</p>
      <p data-testid="two-factor-status" className="mt-4 font-medium">
        {status.enabled ? t("account.twoFactor.statusOn") : t("account.twoFactor.statusOff")}
        {status.enabled ? ` ${t("account.twoFactor.codesLeft", { count: status.recoveryCodesLeft })}` : ""}
      </p>
      <div className="mt-8">{body}</div>
    </div>
  );
}
