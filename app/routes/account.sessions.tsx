import { LogOut } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { OwnSession } from "#app/domains/users/account.server.ts";
import { useAccountData, useAccountTranslate } from "#app/lib/account-data.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";
import type { Route } from "./+types/account.sessions";
import { sessionsAction, sessionsLoader } from "./account.sessions.server.ts";

export function loader({ url, context }: Route.LoaderArgs) {
  return sessionsLoader({ url, context });
}

export function action({ request, url, context }: Route.ActionArgs) {
  return sessionsAction({ request, url, context });
}

function useDateFormat() {
  const lang = useAccountData()?.lang ?? "en";
  const format = dateTimeFormat(lang === "de" ? "de-DE" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  });
  return (iso: string) => `${format.format(new Date(iso))} UTC`;
}

function SessionRow({ session, busy }: { session: OwnSession; busy: boolean }) {
  const t = useAccountTranslate();
  const formatDate = useDateFormat();
  const device = t("account.sessions.on", {
    browser: session.browser || t("account.sessions.unknownBrowser"),
    system: session.system || t("account.sessions.unknownSystem"),
  });
  return (
    <tr className="border-t border-zinc-200 align-top dark:border-zinc-800" data-current={session.current || undefined}>
      <th scope="row" className="py-3 pr-4 text-left text-sm font-medium">
        {device}
        {session.current ? (
          <span className="ml-2 inline-block rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-medium text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100">
            {t("account.sessions.thisDevice")}
          </span>
        ) : null}
      </th>
      <td className="py-3 pr-4 font-mono text-sm break-all">
        {session.ipAddress || t("account.sessions.unknownAddress")}
      </td>
      <td className="py-3 pr-4 text-sm">{formatDate(session.createdAt)}</td>
      <td className="py-3 pr-4 text-sm">{formatDate(session.updatedAt)}</td>
      <td className="py-3 text-sm">
        {session.current ? (
          // Signing out here is the header's sign-out: the session ends and the cookie goes.
          <Form method="post" action="/auth/sign-out">
            <Button type="submit" variant="secondary" size="sm" aria-label={t("account.sessions.signOutThis")}>
              <LogOut aria-hidden="true" className="size-4" />
              <span aria-hidden="true">{t("account.sessions.signOut")}</span>
            </Button>
          </Form>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="signOut" />
            <input type="hidden" name="sessionId" value={session.id} />
            <Button
              type="submit"
              variant="secondary"
              size="sm"
              disabled={busy}
              aria-label={t("account.sessions.signOutOne", { device })}
            >
              <LogOut aria-hidden="true" className="size-4" />
              <span aria-hidden="true">{t("account.sessions.signOut")}</span>
            </Button>
          </Form>
        )}
      </td>
    </tr>
  );
}

export default function AccountSessions({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAccountTranslate();
  const { sessions } = loaderData;
  useResultToast(actionData as ActionResult | undefined, t("account.common.error"));
  const busy = useNavigation().state === "submitting";
  const hasOthers = sessions.some((session) => !session.current);
  return (
    <div>
      <PageHeader title={t("account.sessions.heading")} subtitle={t("account.sessions.intro")} />
      <noscript>
        <ActionMessage result={actionData} />
      </noscript>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[36rem] border-collapse">
          <caption className="sr-only">{t("account.sessions.caption", { count: sessions.length })}</caption>
          <thead>
            <tr className="text-left text-sm text-zinc-600 dark:text-zinc-300">
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("account.sessions.column.device")}
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("account.sessions.column.address")}
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("account.sessions.column.signedIn")}
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("account.sessions.column.lastActive")}
              </th>
              <th scope="col" className="py-2 font-medium">
                {t("account.sessions.column.actions")}
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => (
              <SessionRow key={session.id} session={session} busy={busy} />
            ))}
          </tbody>
        </table>
      </div>
      <Form method="post" className="mt-6">
        <input type="hidden" name="intent" value="signOutOthers" />
        <Button type="submit" variant="secondary" disabled={busy || !hasOthers}>
          {t("account.sessions.signOutOthers")}
        </Button>
        {hasOthers ? null : (
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{t("account.sessions.noOthers")}</p>
        )}
      </Form>
    </div>
  );
}
