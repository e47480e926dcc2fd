import { Link } from "react-router";
import { z } from "zod";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { ScrollTable } from "#app/components/ui/scroll-table.tsx";
import { dismissMailFailuresAsAdmin } from "#app/domains/mail/mail-failures.server.ts";
import { listOutbox } from "#app/domains/mail/outbox.server.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { maskSmtpUrl } from "#app/lib/env.server.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { adminAction } from "#app/web/admin-action.server.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.outbox";

/** The newest mails listed; the rest stay in the outbox until they are pruned. */
const LISTED = 200;

export async function loader({ url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  const { env, database } = runtimeOf(context);
  const { entries, total } = await listOutbox(database.db, LISTED);
  return { smtp: env.mail.smtpUrl ? maskSmtpUrl(env.mail.smtpUrl) : null, entries, total };
}

// The dashboard's "dismiss these notices" posts here (the dashboard itself has no action).
const outboxForm = z.object({ intent: z.literal("dismiss-failures") });

export function action(args: Route.ActionArgs) {
  return adminAction(args, async ({ admin, t, db, parse }) => {
    parse(outboxForm, await readForm(args.request), { message: t("admin.mail.error.form"), fieldErrors: false });
    await dismissMailFailuresAsAdmin(db, admin, new Date());
    return { ok: true, message: t("admin.mail.dismissed") } satisfies ActionResult;
  });
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.outbox");
}

function useUtcTime() {
  const lang = useAdminData()?.lang ?? "en";
  const format = dateTimeFormat(lang === "de" ? "de-DE" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "medium",
    timeZone: "UTC",
  });
  return (iso: string) => `${format.format(new Date(iso))} UTC`;
}

export default function AdminOutbox({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const time = useUtcTime();
  const { smtp, entries, total } = loaderData;
  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.section.outbox")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300" data-testid="outbox-mode">
          {smtp ? t("admin.outbox.introSmtp", { smtp }) : t("admin.outbox.introOutbox")}
        </p>
      </header>
      <ActionMessage result={actionData} />

      <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-300">
        {total > entries.length
          ? t("admin.outbox.countLimited", { count: total, shown: entries.length })
          : t("admin.outbox.count", { count: total })}
      </p>
      {entries.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-300">{t("admin.outbox.empty")}</p>
      ) : (
        <ScrollTable caption={t("admin.outbox.caption")} minWidth="min-w-[40rem]">
          <thead>
            <tr className="text-left text-zinc-600 dark:text-zinc-300">
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("admin.outbox.column.when")}
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("admin.outbox.column.to")}
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("admin.outbox.column.kind")}
              </th>
              <th scope="col" className="py-2 font-medium">
                {t("admin.outbox.column.subject")}
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} className="border-t border-zinc-200 align-top dark:border-zinc-800">
                <td className="whitespace-nowrap py-2 pr-4">
                  <time dateTime={entry.filedAt}>{time(entry.filedAt)}</time>
                </td>
                <td className="py-2 pr-4 break-all">{entry.to}</td>
                <td className="py-2 pr-4 font-mono">{entry.kind}</td>
                <td className="py-2">
                  <Link
                    to={`/admin/outbox/${encodeURIComponent(entry.id)}`}
                    className="font-medium text-indigo-700 underline hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:text-indigo-200"
                  >
                    {entry.subject || entry.id}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </div>
  );
}
