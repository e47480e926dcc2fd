import { Link } from "react-router";
import type { Trend } from "#app/domains/statistics/statistics-report.ts";
import { useAdminData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { numberFormat } from "#app/lib/intl-format.ts";
import { localeOf, trendText } from "./trend-text.ts";

/** The dashboard's line (issue 46): "312 visitors this week, +18 %", to the statistics screen. */
export function WeekVisitors({ week }: { week: { visitors: number; trend: Trend } }) {
  const t = useAdminTranslate();
  const locale = localeOf(useAdminData()?.lang ?? "en");
  const count = numberFormat(locale).format(week.visitors);
  const trend = week.trend === null ? null : trendText(week.trend, t, locale);
  const text =
    week.visitors === 1
      ? trend
        ? t("admin.statistics.weekOneTrend", { trend })
        : t("admin.statistics.weekOne")
      : trend
        ? t("admin.statistics.weekTrend", { count, trend })
        : t("admin.statistics.week", { count });
  return (
    <p className="mt-3" data-testid="week-visitors">
      <Link to="/admin/statistics?range=7d" className="font-medium underline underline-offset-2">
        {text}
      </Link>
    </p>
  );
}
