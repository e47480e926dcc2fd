import { useEffect } from "react";
import { Form, Link, useNavigation } from "react-router";
import { toast } from "sonner";
import { PageHeader } from "#app/components/page-header.tsx";
import { buttonClass } from "#app/components/ui/button.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import type { TwoFactorSetup } from "#app/domains/users/two-factor-setup.server.ts";
import { groupSecret } from "#app/domains/users/two-factor-step.ts";
import { useAccountData, useAccountTranslate } from "#app/lib/account-data.ts";
import { passRetryAfter } from "#app/lib/retry-after.ts";
import type { Route } from "./+types/account.two-factor";
import { type Intent, type TwoFactorAnswer, twoFactorAction, twoFactorLoader } from "./account.two-factor.server.ts";

// Turning two-factor sign-in on and off: the page; what it loads and how it answers are in account.two-factor.server.ts.

export function loader({ request, url, context }: Route.LoaderArgs) {
  return twoFactorLoader({ request, url, context });
}

export function action({ request, url, context }: Route.ActionArgs) {
  return twoFactorAction({ request, url, context });
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
  const result = actionData as TwoFactorAnswer | undefined;
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
