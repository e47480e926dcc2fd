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
  const { account } = loaderData;
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
