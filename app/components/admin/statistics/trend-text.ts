import type { Trend } from "#app/domains/statistics/statistics-report.ts";
import type { AdminTranslate } from "#app/i18n/admin-dictionary.ts";
import { numberFormat } from "#app/lib/intl-format.ts";

/** The admin's locale for numbers and dates. */
export function localeOf(lang: string): string {
  return lang === "de" ? "de-DE" : "en-GB";
}

/** A trend as read: "+18 %", "−5 %", "new", or an en dash where there is nothing to compare. */
export function trendText(trend: Trend, t: AdminTranslate, locale: string): string {
  if (trend === null) return "–";
  if (trend === "new") return t("admin.statistics.trendNew");
  const size = numberFormat(locale).format(Math.abs(trend.percent));
  if (trend.percent > 0) return `+${size} %`;
  if (trend.percent < 0) return `−${size} %`;
  return "±0 %";
}
