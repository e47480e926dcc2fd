import type { ListName, TopEntry } from "#app/domains/statistics/statistics-report.ts";
import type { AdminMessageKey, AdminTranslate } from "#app/i18n/admin-dictionary.ts";
import { numberFormat } from "#app/lib/intl-format.ts";
import { trendText } from "./trend-text.ts";

/*
 * One list of the statistics screen (issue 46): its first keys with views, visitors and the trend against the period
 * before; the classes (languages, devices, visitors and members) with their share of the views instead of visitors;
 * broken links with the sites that link to them. Keys are shown as text, never as links: a broken link's address is
 * whatever a visitor typed.
 */

/** How a list's keys read: a class by its name, a page by its content's title (its address beneath). */
const CLASS_LISTS = new Set<ListName>(["language", "device", "audience"]);
const NO_VISITORS = new Set<ListName>(["entry", "exit"]);

function KeyCell({ name, entry, t }: { name: ListName; entry: TopEntry; t: AdminTranslate }) {
  if (CLASS_LISTS.has(name)) {
    const key = `admin.statistics.key.${name}.${entry.key}` as AdminMessageKey;
    const known = t(key);
    return <>{known === key ? entry.key : known}</>;
  }
  if (entry.key === "/s/…") return <>{t("admin.statistics.shareLink")}</>;
  if (entry.title) {
    return (
      <>
        <span className="block">{entry.title}</span>
        <span className="block text-xs text-zinc-600 dark:text-zinc-300">{entry.key}</span>
      </>
    );
  }
  return <span className="[overflow-wrap:anywhere]">{entry.key}</span>;
}

export function TopTable({
  name,
  entries,
  t,
  locale,
  referrers,
}: {
  name: ListName;
  entries: TopEntry[];
  t: AdminTranslate;
  locale: string;
  /** For broken links: the referring sites of each address. */
  referrers?: Map<string, string[]>;
}) {
  const numbers = numberFormat(locale);
  const percent = numberFormat(locale, { style: "percent", maximumFractionDigits: 0 });
  const heading = t(`admin.statistics.list.${name}` as AdminMessageKey);
  const headingId = `statistics-${name}`;
  const share = CLASS_LISTS.has(name);
  const total = entries.reduce((sum, entry) => sum + entry.views, 0);
  const cell = "py-1.5 pr-3 align-top";
  return (
    <section aria-labelledby={headingId} className="min-w-0" data-testid={`statistics-list-${name}`}>
      <h2 id={headingId} className="text-lg font-semibold">
        {heading}
      </h2>
      {entries.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.statistics.listEmpty")}</p>
      ) : (
        <table className="mt-2 w-full table-fixed border-collapse text-sm">
          <caption className="sr-only">{heading}</caption>
          <thead>
            <tr className="text-left text-zinc-600 dark:text-zinc-300">
              <th scope="col" className={`${cell} font-medium`}>
                {t(`admin.statistics.column.${name}` as AdminMessageKey)}
              </th>
              {referrers ? (
                <th scope="col" className={`${cell} font-medium`}>
                  {t("admin.statistics.column.referrers")}
                </th>
              ) : null}
              <th scope="col" className={`${cell} w-16 text-right font-medium`}>
                {t("admin.statistics.views")}
              </th>
              {share ? (
                <th scope="col" className={`${cell} w-16 text-right font-medium`}>
                  {t("admin.statistics.column.share")}
                </th>
              ) : NO_VISITORS.has(name) || referrers ? null : (
                <th scope="col" className={`${cell} w-16 text-right font-medium`}>
                  {t("admin.statistics.visitors")}
                </th>
              )}
              <th scope="col" className="w-16 py-1.5 text-right align-top font-medium">
                {t("admin.statistics.column.trend")}
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.key} className="border-t border-zinc-200 dark:border-zinc-800">
                <th scope="row" className={`${cell} text-left font-normal break-words`}>
                  <KeyCell name={name} entry={entry} t={t} />
                </th>
                {referrers ? (
                  <td className={`${cell} break-words`}>{(referrers.get(entry.key) ?? []).join(", ") || "–"}</td>
                ) : null}
                <td className={`${cell} text-right tabular-nums`}>{numbers.format(entry.views)}</td>
                {share ? (
                  <td className={`${cell} text-right tabular-nums`}>
                    {percent.format(total === 0 ? 0 : entry.views / total)}
                  </td>
                ) : NO_VISITORS.has(name) || referrers ? null : (
                  <td className={`${cell} text-right tabular-nums`}>{numbers.format(entry.visitors)}</td>
                )}
                <td className="py-1.5 text-right align-top tabular-nums">{trendText(entry.trend, t, locale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
