import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { inputClass, TextField } from "#app/components/ui/field.tsx";
import { useAccountData, useAccountTranslate } from "#app/lib/account-data.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";
import { passRetryAfter } from "#app/lib/retry-after.ts";
import type { Route } from "./+types/account._index";
import { type AccountActionResult, accountOverviewAction, accountOverviewLoader } from "./account._index.server.ts";

export function loader({ url, context }: Route.LoaderArgs) {
  return accountOverviewLoader({ url, context });
}

export function action({ request, url, context }: Route.ActionArgs) {
  return accountOverviewAction({ request, url, context });
}

export const headers = passRetryAfter;

const sectionClass = "rounded-xl border border-zinc-200 p-5 sm:p-6 dark:border-zinc-800";

function Section(props: { id: string; title: string; intro: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={props.id} className={sectionClass}>
      <h2 id={props.id} className="text-xl font-semibold">
        {props.title}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">{props.intro}</p>
      {props.children}
    </section>
  );
}

/**
 * "E-mail me new posts": a switch that is a form's submit button, so it works without JavaScript (a form post) and
 * with it (the router's form, shown turned at once). It sends the state it turns to, and says its own state.
 */
function SubscriptionSwitch({ subscribed, busy }: { subscribed: boolean; busy: boolean }) {
  const t = useAccountTranslate();
  return (
    <Form method="post" className="mt-4">
      <input type="hidden" name="intent" value="subscriptions" />
      <button
        type="submit"
        role="switch"
        aria-checked={subscribed}
        aria-busy={busy || undefined}
        name="posts"
        value={subscribed ? "off" : "on"}
        className="group inline-flex items-center gap-3 rounded-md py-1 pr-2 text-left font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      >
        <span
          aria-hidden="true"
          className={`relative inline-block h-6 w-11 shrink-0 rounded-full border-2 transition-colors ${
            subscribed
              ? "border-indigo-700 bg-indigo-700 dark:border-indigo-400 dark:bg-indigo-400"
              : "border-zinc-500 bg-zinc-200 dark:border-zinc-400 dark:bg-zinc-700"
          }`}
        >
          <span
            className={`absolute top-0.5 left-0.5 h-4 w-4 rounded-full bg-white shadow transition-transform dark:bg-zinc-950 ${
              subscribed ? "translate-x-5" : ""
            }`}
          />
        </span>
        <span>{t("account.subscriptions.label")}</span>
        <span aria-hidden="true" className="text-sm font-normal text-zinc-600 dark:text-zinc-300">
          {subscribed ? t("account.subscriptions.on") : t("account.subscriptions.off")}
        </span>
      </button>
    </Form>
  );
}

export default function AccountOverview({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAccountTranslate();
  const lang = useAccountData()?.lang ?? "en";
  const navigation = useNavigation();
  const busyWith = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const result = actionData as AccountActionResult | undefined;
  useResultToast(result, t("account.common.error"));
  const errorsFor = (intent: string) => (result && !result.ok && result.intent === intent ? result.fieldErrors : {});
  // A changed password clears the form; a refused one keeps what was typed.
  const [passwordFormKey, setPasswordFormKey] = useState(0);
  useEffect(() => {
    if (result?.ok && result.intent === "password") setPasswordFormKey((key) => key + 1);
  }, [result]);
  const { account, subscribed } = loaderData;
  const lastSignIn = account.lastSignInAt
    ? dateTimeFormat(lang === "de" ? "de-DE" : "en-GB", {
        dateStyle: "medium",
        timeStyle: "short",
        timeZone: "UTC",
      }).format(new Date(account.lastSignInAt))
    : null;

  return (
    <div>
      <PageHeader title={t("account.title")} subtitle={t("account.overview.intro", { email: account.email })} />
      {lastSignIn ? (
        <p className="-mt-8 mb-8 text-sm text-zinc-600 dark:text-zinc-300">
          {t("account.overview.lastSignIn", { when: `${lastSignIn} UTC` })}
        </p>
      ) : null}
      <noscript>
        <ActionMessage result={result} />
      </noscript>
      <div className="space-y-8">
        <Section id="password-heading" title={t("account.password.heading")} intro={t("account.password.intro")}>
          <Form method="post" noValidate className="mt-4 max-w-md space-y-4" key={passwordFormKey}>
            <input type="hidden" name="intent" value="password" />
            {/* Tells password managers which account this is, for the new password they offer to save. */}
            <input type="hidden" name="username" autoComplete="username" value={account.email} />
            <TextField
              label={t("account.password.current")}
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              error={errorsFor("password")?.currentPassword}
            />
            <TextField
              label={t("account.password.new")}
              name="newPassword"
              type="password"
              autoComplete="new-password"
              hint={t("account.password.newHint")}
              error={errorsFor("password")?.newPassword}
            />
            <Button type="submit" disabled={busyWith === "password"}>
              {busyWith === "password" ? t("account.common.working") : t("account.password.submit")}
            </Button>
          </Form>
        </Section>

        <Section id="name-heading" title={t("account.name.heading")} intro={t("account.name.intro")}>
          <Form method="post" noValidate className="mt-4 flex max-w-md flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="name" />
            <div className="min-w-48 flex-1">
              <TextField
                label={t("account.name.label")}
                name="name"
                autoComplete="name"
                maxLength={80}
                defaultValue={account.name}
                key={account.name}
                error={errorsFor("name")?.name}
              />
            </div>
            <Button type="submit" variant="secondary" disabled={busyWith === "name"}>
              {t("account.name.submit")}
            </Button>
          </Form>
        </Section>

        <Section id="language-heading" title={t("account.language.heading")} intro={t("account.language.intro")}>
          <Form method="post" className="mt-4 flex max-w-md flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="language" />
            <div className="min-w-48 flex-1">
              <label htmlFor="account-language" className="block text-sm font-medium">
                {t("account.language.label")}
              </label>
              <select
                id="account-language"
                name="language"
                defaultValue={account.language}
                key={account.language}
                className={inputClass}
              >
                <option value="en">{t("account.language.en")}</option>
                <option value="de">{t("account.language.de")}</option>
              </select>
            </div>
            <Button type="submit" variant="secondary" disabled={busyWith === "language"}>
              {t("account.language.submit")}
            </Button>
          </Form>
        </Section>

        <Section
          id="subscriptions-heading"
          title={t("account.subscriptions.heading")}
          intro={t("account.subscriptions.intro")}
        >
          <SubscriptionSwitch
            subscribed={busyWith === "subscriptions" ? navigation.formData?.get("posts") === "on" : subscribed}
            busy={busyWith === "subscriptions"}
          />
        </Section>

        <Section id="delete-heading" title={t("account.delete.heading")} intro={t("account.delete.intro")}>
          <Form method="post" noValidate className="mt-4 max-w-md space-y-4">
            <input type="hidden" name="intent" value="delete" />
            <TextField
              label={t("account.delete.password")}
              name="password"
              type="password"
              autoComplete="current-password"
              error={errorsFor("delete")?.password}
            />
            <Button type="submit" variant="danger" disabled={busyWith === "delete"}>
              {busyWith === "delete" ? t("account.common.working") : t("account.delete.submit")}
            </Button>
          </Form>
        </Section>
      </div>
    </div>
  );
}
