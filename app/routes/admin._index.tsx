import { CircleDashed } from "lucide-react";
import { Form, Link, useFetcher } from "react-router";
import { adminSections } from "#app/components/admin/admin-sections.ts";
import { FailedJobsSection } from "#app/components/admin/failed-jobs-section.tsx";
import { WeekVisitors } from "#app/components/admin/statistics/week-visitors.tsx";
import { StorageHealth } from "#app/components/admin/storage-health.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { buttonClass } from "#app/components/ui/button.tsx";
import { ScrollTable } from "#app/components/ui/scroll-table.tsx";
import { defaultBackupDir, lastBackup } from "#app/domains/backup/schedule.server.ts";
import { listFailedJobs } from "#app/domains/jobs/job-failures.server.ts";
import { listRecentMailFailures } from "#app/domains/mail/mail-failures.server.ts";
import { lastStorageSweep } from "#app/domains/media/storage-sweep-report.server.ts";
import { readOpenChecklistItems } from "#app/domains/settings/first-run-checklist.server.ts";
import type { ChecklistItem } from "#app/domains/settings/first-run-checklist.ts";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import { dayOf } from "#app/domains/statistics/statistics-range.ts";
import { readWeekVisitors } from "#app/domains/statistics/statistics-reads.server.ts";
import { adminsWithoutTwoFactor, isTwoFactorRequiredForAdmins } from "#app/domains/users/two-factor.server.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { maskSmtpUrl } from "#app/lib/env.server.ts";
import { dateTimeFormat, numberFormat } from "#app/lib/intl-format.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin._index";

export async function loader({ url, context }: Route.LoaderArgs) {
  const user = requireAdmin(url, context);
  const { env, database } = runtimeOf(context);
  const last = await lastBackup([env.backup.dir, defaultBackupDir(env.dataDir)]);
  const settings = await readSettings(database.db);
  const adminsWithout = await adminsWithoutTwoFactor(database.db);
  return {
    checklist: await readOpenChecklistItems(database.db, {
      settings,
      mailConfigured: Boolean(env.mail.smtpUrl),
      adminsWithoutTwoFactor: adminsWithout,
      viewerEmail: user.email,
    }),
    mail: {
      smtp: env.mail.smtpUrl ? maskSmtpUrl(env.mail.smtpUrl) : null,
      from: env.mail.from,
      failures: await listRecentMailFailures(database.db, new Date()),
    },
    twoFactor: {
      required: isTwoFactorRequiredForAdmins(settings),
      adminsWithout,
    },
    failedJobs: await listFailedJobs(database.db),
    storageSweep: await lastStorageSweep(database.db),
    // Nothing while the owner has counting off: last week's number would read as if it went on.
    weekVisitors:
      settings.statistics_enabled === "true" ? await readWeekVisitors(database.db, dayOf(new Date())) : null,
    lastBackup: last ? { createdAt: last.createdAt.toISOString(), size: last.size } : null,
    schedule: env.backup.dir
      ? { dir: env.backup.dir, keep: env.backup.keep, hours: env.backup.intervalMs / 3_600_000 }
      : null,
  };
}

/** The first-run steps still open; gone once every one is done. */
function FirstRunChecklist({ items }: { items: ChecklistItem[] }) {
  const t = useAdminTranslate();
  if (items.length === 0) return null;
  return (
    <section
      aria-labelledby="checklist-heading"
      data-testid="first-run-checklist"
      className="mb-10 rounded-xl border border-indigo-200 bg-indigo-50 p-5 text-indigo-950 dark:border-indigo-800 dark:bg-indigo-950 dark:text-indigo-50"
    >
      <h2 id="checklist-heading" className="text-xl font-semibold">
        {t("admin.checklist.heading")}
      </h2>
      <p className="mt-2">{t("admin.checklist.intro")}</p>
      <ul className="mt-4 space-y-4">
        {items.map((item) => (
          <li key={item.id} data-testid={`checklist-${item.id}`} className="flex gap-3">
            <CircleDashed aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-indigo-700 dark:text-indigo-300" />
            <div>
              <h3 className="font-semibold">{t(`admin.checklist.${item.id}.title`)}</h3>
              <p className="mt-0.5 text-sm">
                {t(`admin.checklist.${item.id}.text`, { emails: item.emails?.join(", ") ?? "" })}
              </p>
              <Link to={item.to} className="mt-1 inline-block text-sm font-medium underline underline-offset-2">
                {item.id === "two-factor" && item.to === "/admin/users"
                  ? t("admin.checklist.two-factor.linkOthers")
                  : t(`admin.checklist.${item.id}.link`)}
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A recommendation while the site does not require two-factor sign-in of admins, or while admins lack it. */
function TwoFactorSection({ data }: { data: Route.ComponentProps["loaderData"]["twoFactor"] }) {
  const t = useAdminTranslate();
  const attention = !data.required || data.adminsWithout.length > 0;
  return (
    <section
      aria-labelledby="two-factor-heading"
      data-testid="two-factor-recommendation"
      className={`mt-10 rounded-xl border p-5 ${
        attention
          ? "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          : "border-zinc-200 dark:border-zinc-800"
      }`}
    >
      <h2 id="two-factor-heading" className="text-xl font-semibold">
        {t("admin.twoFactor.heading")}
      </h2>
      <p className="mt-2">{data.required ? t("admin.twoFactor.requiredOn") : t("admin.twoFactor.recommendOff")}</p>
      <p className="mt-1">
        {data.adminsWithout.length > 0
          ? t("admin.twoFactor.adminsWithout", { emails: data.adminsWithout.join(", ") })
          : t("admin.twoFactor.allAdminsHave")}
      </p>
      <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1">
        <Link to="/admin/settings?section=security" className="font-medium underline underline-offset-2">
          {t("admin.twoFactor.settingsLink")}
        </Link>
        <Link to="/account/two-factor" className="font-medium underline underline-offset-2">
          {t("admin.twoFactor.accountLink")}
        </Link>
      </p>
    </section>
  );
}

function BackupSection({ data }: { data: Route.ComponentProps["loaderData"] }) {
  const t = useAdminTranslate();
  const lang = useAdminData()?.lang ?? "en";
  const locale = lang === "de" ? "de-DE" : "en-GB";
  const { lastBackup: last, schedule } = data;
  const time = (iso: string) =>
    dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" }).format(new Date(iso));
  const size = (bytes: number) =>
    `${numberFormat(locale, { maximumFractionDigits: 1 }).format(bytes / 1024 / 1024)} MB`;
  return (
    <section
      aria-labelledby="backup-heading"
      className="mt-10 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800"
    >
      <h2 id="backup-heading" className="text-xl font-semibold">
        {t("admin.backup.heading")}
      </h2>
      <p className="mt-2" data-testid="last-backup">
        {last ? t("admin.backup.last", { time: time(last.createdAt), size: size(last.size) }) : t("admin.backup.none")}
      </p>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
        {schedule
          ? t("admin.backup.scheduled", {
              hours: String(schedule.hours),
              dir: schedule.dir,
              keep: String(schedule.keep),
            })
          : t("admin.backup.notScheduled")}
      </p>
      <Form method="post" action="/admin/backup" reloadDocument className="mt-4">
        <button type="submit" className={buttonClass("secondary")}>
          {t("admin.backup.download")}
        </button>
      </Form>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.backup.downloadHint")}</p>
    </section>
  );
}

function MailSection({ mail }: { mail: Route.ComponentProps["loaderData"]["mail"] }) {
  const t = useAdminTranslate();
  const lang = useAdminData()?.lang ?? "en";
  const dismisser = useFetcher<ActionResult>();
  useResultToast(dismisser.data, t("admin.common.error"));
  const time = (iso: string) =>
    `${dateTimeFormat(lang === "de" ? "de-DE" : "en-GB", {
      dateStyle: "medium",
      timeStyle: "medium",
      timeZone: "UTC",
    }).format(new Date(iso))} UTC`;
  return (
    <section
      id="mail"
      aria-labelledby="mail-heading"
      className="mt-10 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800"
    >
      <h2 id="mail-heading" className="text-xl font-semibold">
        {t("admin.mail.heading")}
      </h2>
      <p className="mt-2" data-testid="mail-status">
        {mail.smtp ? t("admin.mail.smtp", { smtp: mail.smtp, from: mail.from }) : t("admin.mail.outboxOnly")}
      </p>
      <p className="mt-4">
        <Link to="/admin/outbox" className={buttonClass("secondary")}>
          {t("admin.mail.openOutbox")}
        </Link>
      </p>
      {mail.failures.length > 0 ? (
        <div className="mt-6" data-testid="mail-failures">
          <h3 className="text-lg font-semibold text-red-800 dark:text-red-300">{t("admin.mail.failuresHeading")}</h3>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.mail.failuresIntro")}</p>
          <ScrollTable caption={t("admin.mail.failuresCaption")} minWidth="min-w-[36rem]" className="mt-3">
            <thead>
              <tr className="text-left text-zinc-600 dark:text-zinc-300">
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("admin.mail.column.when")}
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("admin.mail.column.to")}
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("admin.mail.column.kind")}
                </th>
                <th scope="col" className="py-2 font-medium">
                  {t("admin.mail.column.reason")}
                </th>
              </tr>
            </thead>
            <tbody>
              {mail.failures.map((failure) => (
                <tr key={failure.id} className="border-t border-zinc-200 align-top dark:border-zinc-800">
                  <td className="whitespace-nowrap py-2 pr-4">
                    <time dateTime={failure.createdAt}>{time(failure.createdAt)}</time>
                  </td>
                  <td className="py-2 pr-4 break-all">{failure.recipient}</td>
                  <td className="py-2 pr-4 font-mono">{failure.kind}</td>
                  <td className="py-2 break-words">{failure.reason}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
          <dismisser.Form method="post" action="/admin/outbox" className="mt-3">
            <input type="hidden" name="intent" value="dismiss-failures" />
            <button type="submit" className={buttonClass("secondary", "sm")} disabled={dismisser.state !== "idle"}>
              {t("admin.mail.dismiss")}
            </button>
          </dismisser.Form>
        </div>
      ) : null}
    </section>
  );
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const admin = useAdminData();
  return (
    <div>
      <header className="mb-8">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.heading")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.intro")}</p>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
          {t("admin.signedInAs", { email: admin?.email ?? "" })}
        </p>
        {loaderData.weekVisitors ? <WeekVisitors week={loaderData.weekVisitors} /> : null}
      </header>
      <FirstRunChecklist items={loaderData.checklist} />
      <ul className="grid gap-4 sm:grid-cols-2">
        {adminSections.map(({ to, title, text, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="block h-full rounded-xl border border-zinc-200 p-5 hover:border-indigo-400 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-zinc-800 dark:hover:border-indigo-500 dark:hover:bg-zinc-900"
            >
              <span className="flex items-center gap-3">
                <Icon aria-hidden="true" className="size-5 text-indigo-700 dark:text-indigo-300" />
                <span className="font-semibold">{t(title)}</span>
              </span>
              <span className="mt-2 block text-sm text-zinc-600 dark:text-zinc-300">{t(text)}</span>
            </Link>
          </li>
        ))}
      </ul>
      <FailedJobsSection jobs={loaderData.failedJobs} />
      <MailSection mail={loaderData.mail} />
      <TwoFactorSection data={loaderData.twoFactor} />
      <BackupSection data={loaderData} />
      <StorageHealth sweep={loaderData.storageSweep} />
    </div>
  );
}
