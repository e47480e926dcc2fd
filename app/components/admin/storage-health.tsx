import type { StorageSweepCounts } from "#app/domains/media/storage-sweep-report.server.ts";
import { useAdminData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { dateTimeFormat, numberFormat } from "#app/lib/intl-format.ts";

/**
 * The dashboard's health line for stored files (issue 42): what the last storage sweep removed, orphaned files and
 * stale temporary upload files. Counts that keep coming back point at crashes or uploads cut short.
 */
export function StorageHealth({ sweep }: { sweep: (StorageSweepCounts & { at: string }) | null }) {
  const t = useAdminTranslate();
  const lang = useAdminData()?.lang ?? "en";
  const locale = lang === "de" ? "de-DE" : "en-GB";
  // The backups' format (admin._index.tsx): every admin reads the same time, in UTC.
  const time = (iso: string) =>
    dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" }).format(new Date(iso));
  const count = (value: number) => numberFormat(locale).format(value);
  return (
    <section
      aria-labelledby="storage-health-heading"
      className="mt-10 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800"
    >
      <h2 id="storage-health-heading" className="text-xl font-semibold">
        {t("admin.health.heading")}
      </h2>
      <p className="mt-2" data-testid="storage-health">
        {sweep
          ? t("admin.health.sweep", {
              time: time(sweep.at),
              orphans: count(sweep.orphans),
              tempFiles: count(sweep.tempFiles),
            })
          : t("admin.health.sweepNone")}
      </p>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.health.sweepHint")}</p>
    </section>
  );
}
