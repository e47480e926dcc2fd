import { useEffect } from "react";
import { data, Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import {
  type EmailChangeProblem,
  pendingEmailChange,
  requestEmailChange,
} from "#app/domains/users/email-change.server.ts";
import { type AccountMessageKey, accountTranslatorFor } from "#app/i18n/account-dictionary.ts";
import { translatorFor } from "#app/i18n/i18n.server.ts";
import { useAccountData, useAccountTranslate } from "#app/lib/account-data.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { clientAddressContext } from "#app/lib/request-context.ts";
import { passRetryAfter } from "#app/lib/retry-after.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { tooManyAttempts } from "#app/web/auth-actions.server.ts";
import { requireUser } from "#app/web/session.server.ts";
import type { Route } from "./+types/account.email";

export async function loader({ url, context }: Route.LoaderArgs) {
  const user = requireUser(url, context);
  return { pending: await pendingEmailChange(runtimeOf(context).database.db, user.id) };
}

const emailForm = z.object({ newEmail: z.string().max(1000), password: z.string().max(1000) });

type EmailAnswer = {
  ok: boolean;
  title: string;
  message: string;
  fieldErrors?: { newEmail?: string; password?: string };
};

const PROBLEMS: Record<EmailChangeProblem, { key: AccountMessageKey; field: "newEmail" | "password" }> = {
  emailRequired: { key: "account.email.error.emailRequired", field: "newEmail" },
  emailInvalid: { key: "account.email.error.emailInvalid", field: "newEmail" },
  sameEmail: { key: "account.email.error.sameEmail", field: "newEmail" },
  emailTaken: { key: "account.email.error.emailTaken", field: "newEmail" },
  passwordRequired: { key: "account.email.error.passwordRequired", field: "password" },
  wrongPassword: { key: "account.email.error.wrongPassword", field: "password" },
};

export async function action({ request, url, context }: Route.ActionArgs) {
  const user = requireUser(url, context);
  const runtime = runtimeOf(context);
  const { lang } = languageOf(request);
  const t = accountTranslatorFor(lang);
  const parsed = emailForm.safeParse(await readForm(request));
  if (!parsed.success) {
    return data(
      { ok: false, title: t("account.email.failed"), message: t("account.email.error.form") } satisfies EmailAnswer,
      { status: 400 },
    );
  }
  // A password is checked: wrong ones count towards the client's limit like those of the sign-in form.
  const client = context.get(clientAddressContext);
  const wait = await runtime.authLimiter.begin(client);
  if (wait > 0) {
    const limited = tooManyAttempts(translatorFor(lang), wait);
    return data({ ok: false, title: limited.title, message: limited.description } satisfies EmailAnswer, {
      status: 429,
      headers: { "Retry-After": String(Math.ceil(wait / 1000)) },
    });
  }
  const result = await requestEmailChange(
    { db: runtime.database.db, mail: runtime.mail, baseUrl: runtime.env.baseUrl },
    {
      userId: user.id,
      email: user.email,
      newEmail: parsed.data.newEmail,
      password: parsed.data.password,
      language: lang,
    },
  );
  // Only a wrong password (or a taken address, which could be probing) stays counted.
  if (result.ok || (result.reason !== "wrongPassword" && result.reason !== "emailTaken")) {
    await runtime.authLimiter.forgive(client);
  }
  if (!result.ok) {
    const problem = PROBLEMS[result.reason];
    return data(
      {
        ok: false,
        title: t("account.email.failed"),
        message: t(problem.key),
        fieldErrors: { [problem.field]: t(problem.key) },
      } satisfies EmailAnswer,
      { status: 400 },
    );
  }
  return {
    ok: true,
    title: t("account.email.sent"),
    message: t("account.email.sentText", { email: result.newEmail }),
  } satisfies EmailAnswer;
}

// A plain form post answered 429 keeps its Retry-After on the page.
export const headers = passRetryAfter;

export default function AccountEmail({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAccountTranslate();
  const account = useAccountData();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/account/email") === true;
  const answer = actionData as EmailAnswer | undefined;
  useEffect(() => {
    if (!answer) return;
    if (answer.ok) toast.success(answer.title, { description: answer.message });
    else toast.error(answer.title, { description: answer.message });
  }, [answer]);
  const lang = account?.lang ?? "en";
  const pending = loaderData.pending;
  const until = pending
    ? dateTimeFormat(lang === "de" ? "de-DE" : "en-GB", {
        dateStyle: "medium",
        timeStyle: "short",
        timeZone: "UTC",
      }).format(new Date(pending.expiresAt))
    : "";
  return (
    <section>
      <PageHeader title={t("account.email.title")} />
      <p>{t("account.email.current", { email: account?.email ?? "" })}</p>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{t("account.email.intro")}</p>
      {pending ? (
        <p className="mt-4 rounded-md border border-indigo-300 bg-indigo-50 px-4 py-3 text-sm text-indigo-950 dark:border-indigo-700 dark:bg-indigo-950 dark:text-indigo-50">
          {t("account.email.pending", { email: pending.newEmail, until: `${until} UTC` })}
        </p>
      ) : null}
      <Form method="post" noValidate className="mt-6 max-w-md space-y-4" key={answer?.ok ? "sent" : "form"}>
        <TextField
          label={t("account.email.newEmail")}
          name="newEmail"
          type="email"
          autoComplete="email"
          error={answer?.fieldErrors?.newEmail}
        />
        <TextField
          label={t("account.email.password")}
          name="password"
          type="password"
          autoComplete="current-password"
          error={answer?.fieldErrors?.password}
        />
        <Button type="submit" disabled={busy}>
          {busy ? t("account.email.working") : t("account.email.submit")}
        </Button>
      </Form>
    </section>
  );
}
