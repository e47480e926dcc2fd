import { Link } from "react-router";
import { RangeForm } from "#app/components/admin/statistics/range-form.tsx";
import { TopTable } from "#app/components/admin/statistics/top-table.tsx";
import { localeOf, trendText } from "#app/components/admin/statistics/trend-text.ts";
import { VisitsChart } from "#app/components/admin/statistics/visits-chart.tsx";
import { buttonClass } from "#app/components/ui/button.tsx";
import { lengthOf } from "#app/domains/statistics/statistics-range.ts";
import type { ListName, StatisticsReport, Trend } from "#app/domains/statistics/statistics-report.ts";
import type { AdminTranslate } from "#app/i18n/admin-dictionary.ts";
import { useAdminData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { dateTimeFormat, numberFormat } from "#app/lib/intl-format.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import type { Route } from "./+types/admin.statistics";
import { statisticsLoader } from "./admin.statistics.server.ts";

export function loader({ request, url, context }: Route.LoaderArgs) {
  return statisticsLoader({ request, url, context });
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.statistics");
}

/** The lists in the screen's order, two side by side on a wide screen. */
const LISTS: ListName[] = [
  "page",
  "post",
  "picture",
  "album",
  "entry",
  "exit",
  "referrer",
  "utm",
  "language",
  "device",
  "audience",
  "notfound",
  "search-empty",
  "search",
];

/** The referring sites of each broken link, from the `path\nhost` keys. */
function referrersOf(report: StatisticsReport): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const entry of report.lists["notfound-referrer"]) {
    const cut = entry.key.lastIndexOf("\n");
    if (cut < 0) continue;
    const path = entry.key.slice(0, cut);
    found.set(path, [...(found.get(path) ?? []), entry.key.slice(cut + 1)]);
  }
  return found;
}

function Total({
  label,
  value,
  trend,
  days,
  t,
  locale,
}: {
  label: string;
  value: number;
  trend?: Trend;
  days: number;
  t: AdminTranslate;
  locale: string;
}) {
  return (
    <div className="rounded-xl border border-zinc-200 p-4 dark:border-zinc-800">
      <dt className="text-sm text-zinc-600 dark:text-zinc-300">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{numberFormat(locale).format(value)}</dd>
      {trend !== undefined ? (
        <dd className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
          {t("admin.statistics.trendAgainst", { trend: trendText(trend, t, locale), days })}
        </dd>
      ) : null}
    </div>
  );
}

function Report({ report, t, locale }: { report: StatisticsReport; t: AdminTranslate; locale: string }) {
  const days = lengthOf(report.range);
  const csv = `/admin/statistics.csv?${new URLSearchParams({ from: report.range.from, to: report.range.to, range: "custom" })}`;
  const referrers = referrersOf(report);
  return (
    <>
      <dl className="grid gap-4 sm:grid-cols-3" data-testid="statistics-totals">
        <Total
          label={t("admin.statistics.visitors")}
          value={report.totals.visitors}
          trend={report.trend.visitors}
          days={days}
          t={t}
          locale={locale}
        />
        <Total
          label={t("admin.statistics.views")}
          value={report.totals.views}
          trend={report.trend.views}
          days={days}
          t={t}
          locale={locale}
        />
        <Total
          label={t("admin.statistics.memberViews")}
          value={report.totals.memberViews}
          days={days}
          t={t}
          locale={locale}
        />
      </dl>
      {report.totals.views === 0 ? (
        <p className="mt-6 text-zinc-600 dark:text-zinc-300">{t("admin.statistics.emptyRange")}</p>
      ) : null}
      <section aria-labelledby="statistics-chart" className="mt-8">
        <h2 id="statistics-chart" className="mb-3 text-lg font-semibold">
          {t("admin.statistics.chartHeading")}
        </h2>
        <VisitsChart series={report.series} t={t} locale={locale} />
      </section>
      <p className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-1">
        <a href={csv} download className={buttonClass("secondary", "sm")}>
          {t("admin.statistics.download")}
        </a>
        <span className="text-sm text-zinc-600 dark:text-zinc-300">{t("admin.statistics.downloadHint")}</span>
      </p>
      <div className="mt-10 grid gap-x-8 gap-y-10 lg:grid-cols-2">
        {LISTS.map((name) => (
          <TopTable
            key={name}
            name={name}
            entries={report.lists[name]}
            t={t}
            locale={locale}
            referrers={name === "notfound" ? referrers : undefined}
          />
        ))}
      </div>
    </>
  );
}

export default function AdminStatistics({ loaderData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const locale = localeOf(useAdminData()?.lang ?? "en");
  const { chosen, typed, enabled, report } = loaderData;
  const day = dateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const dayText = (value: string) => day.format(new Date(`${value}T00:00:00Z`));
  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.section.statistics")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.statistics.intro")}</p>
      </header>
      {enabled ? null : (
        <p
          data-testid="statistics-off"
          className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          {t("admin.statistics.off")}{" "}
          <Link to="/admin/settings?section=statistics" className="font-medium underline underline-offset-2">
            {t("admin.statistics.offLink")}
          </Link>
        </p>
      )}
      <RangeForm chosen={chosen} typed={typed} t={t} />
      <p className="mb-6 text-sm text-zinc-600 dark:text-zinc-300" data-testid="statistics-range">
        {t("admin.statistics.showing", { from: dayText(chosen.from), to: dayText(chosen.to) })}
      </p>
      {report ? (
        <Report report={report} t={t} locale={locale} />
      ) : (
        <p className="text-zinc-600 dark:text-zinc-300" data-testid="statistics-empty">
          {t("admin.statistics.empty")}
        </p>
      )}
    </div>
  );
}
