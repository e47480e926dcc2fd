import { Form, Link } from "react-router";
import { requireAdmin } from "#app/auth/session.server.ts";
import { adminSections } from "#app/components/admin/admin-sections.ts";
import { buttonClass } from "#app/components/ui/button.tsx";
import { defaultBackupDir, lastBackup } from "#app/domains/backup/schedule.server.ts";
import { useAdminData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { getRuntime } from "#app/lib/runtime.server.ts";
import type { Route } from "./+types/admin._index";

export async function loader({ url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  const { env } = getRuntime();
  const last = await lastBackup([env.backup.dir, defaultBackupDir(env.dataDir)]);
  return {
    lastBackup: last ? { createdAt: last.createdAt.toISOString(), size: last.size } : null,
    schedule: env.backup.dir
      ? { dir: env.backup.dir, keep: env.backup.keep, hours: env.backup.intervalMs / 3_600_000 }
      : null,
  };
}

function BackupSection({ data }: { data: Route.ComponentProps["loaderData"] }) {
  const t = useAdminTranslate();
  const lang = useAdminData()?.lang ?? "en";
  const locale = lang === "de" ? "de-DE" : "en-GB";
  const { lastBackup: last, schedule } = data;
  const time = (iso: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" }).format(
      new Date(iso),
    );
  const size = (bytes: number) =>
    `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(bytes / 1024 / 1024)} MB`;
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
      </header>
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
      <BackupSection data={loaderData} />
    </div>
  );
}
