import { ScrollTable } from "#app/components/ui/scroll-table.tsx";
import type { DayPoint } from "#app/domains/statistics/statistics-report.ts";
import type { AdminTranslate } from "#app/i18n/admin-dictionary.ts";
import { dateTimeFormat, numberFormat } from "#app/lib/intl-format.ts";

/*
 * Visitors and views per day (issue 46), drawn by the server as SVG markup: no chart library and no drawing in the
 * browser, so it shows without JavaScript and costs the page nothing to load. Its colours are Tailwind classes,
 * so the dark theme has its own. The same numbers are in the table beside it, which is what a screen reader reads;
 * the picture itself has one sentence as its name.
 */

// A small drawing area, so that its labels stay readable where the chart is scaled down to a phone's width.
const WIDTH = 480;
const HEIGHT = 200;
const LEFT = 44;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 26;

/** The smallest of 1, 2, 5 × 10ⁿ at or above the value: a scale whose middle line has a round number too. */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

export function VisitsChart({ series, t, locale }: { series: DayPoint[]; t: AdminTranslate; locale: string }) {
  const numbers = numberFormat(locale, { maximumFractionDigits: 1 });
  const dayLabel = dateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" });
  const fullDay = dateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const date = (day: string) => new Date(`${day}T00:00:00Z`);
  const first = series[0]?.day ?? "";
  const last = series[series.length - 1]?.day ?? "";
  const top = niceCeiling(Math.max(1, ...series.map((point) => Math.max(point.views, point.visitors))));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const step = plotWidth / Math.max(1, series.length);
  const barWidth = Math.max(step * 0.75, 0.6);
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const busiest = series.reduce<DayPoint | undefined>(
    (best, point) => (best === undefined || point.visitors > best.visitors ? point : best),
    undefined,
  );
  const totalViews = series.reduce((sum, point) => sum + point.views, 0);
  const totalVisitors = series.reduce((sum, point) => sum + point.visitors, 0);
  const label = t("admin.statistics.chartLabel", {
    from: first ? fullDay.format(date(first)) : "",
    to: last ? fullDay.format(date(last)) : "",
    visitors: numbers.format(totalVisitors),
    views: numbers.format(totalViews),
    busiest: busiest ? fullDay.format(date(busiest.day)) : "",
    most: numbers.format(busiest?.visitors ?? 0),
  });
  const caption = t("admin.statistics.chartCaption", {
    from: first ? fullDay.format(date(first)) : "",
    to: last ? fullDay.format(date(last)) : "",
  });
  const ticks =
    series.length > 2 ? [0, Math.floor((series.length - 1) / 2), series.length - 1] : [0, series.length - 1];
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <figure className="min-w-0">
        <svg
          role="img"
          aria-label={label}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          className="h-auto w-full"
          data-testid="visits-chart"
        >
          {[0, top / 2, top].map((value) => (
            <g key={value}>
              <line
                x1={LEFT}
                x2={WIDTH - RIGHT}
                y1={y(value)}
                y2={y(value)}
                className="stroke-zinc-200 dark:stroke-zinc-700"
                strokeWidth={1}
              />
              <text
                x={LEFT - 6}
                y={y(value) + 4}
                textAnchor="end"
                className="fill-zinc-600 text-[13px] dark:fill-zinc-300"
              >
                {numbers.format(value)}
              </text>
            </g>
          ))}
          {series.map((point, index) => {
            const x = LEFT + index * step + (step - barWidth) / 2;
            return (
              <g key={point.day}>
                <rect
                  x={x}
                  y={y(point.views)}
                  width={barWidth}
                  height={TOP + plotHeight - y(point.views)}
                  className="fill-indigo-200 dark:fill-indigo-800"
                />
                <rect
                  x={x}
                  y={y(point.visitors)}
                  width={barWidth}
                  height={TOP + plotHeight - y(point.visitors)}
                  className="fill-indigo-600 dark:fill-indigo-300"
                />
              </g>
            );
          })}
          {[...new Set(ticks)].map((index) => {
            const point = series[index];
            if (!point) return null;
            const anchor = index === 0 ? "start" : index === series.length - 1 ? "end" : "middle";
            const x = anchor === "start" ? LEFT : anchor === "end" ? WIDTH - RIGHT : LEFT + (index + 0.5) * step;
            return (
              <text
                key={point.day}
                x={x}
                y={HEIGHT - 8}
                textAnchor={anchor}
                className="fill-zinc-600 text-[13px] dark:fill-zinc-300"
              >
                {dayLabel.format(date(point.day))}
              </text>
            );
          })}
        </svg>
        <figcaption className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm text-zinc-700 dark:text-zinc-200">
          <span className="flex items-center gap-2">
            <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-indigo-600 dark:bg-indigo-300" />
            {t("admin.statistics.visitors")}
          </span>
          <span className="flex items-center gap-2">
            <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-indigo-200 dark:bg-indigo-800" />
            {t("admin.statistics.views")}
          </span>
        </figcaption>
      </figure>
      <ScrollTable caption={caption} minWidth="min-w-[14rem]" className="max-h-80 overflow-y-auto">
        <thead className="sticky top-0 bg-white dark:bg-zinc-950">
          <tr className="text-left text-zinc-600 dark:text-zinc-300">
            <th scope="col" className="py-1 pr-3 font-medium">
              {t("admin.statistics.column.day")}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t("admin.statistics.visitors")}
            </th>
            <th scope="col" className="py-1 pr-1 text-right font-medium">
              {t("admin.statistics.views")}
            </th>
          </tr>
        </thead>
        <tbody data-testid="visits-table">
          {series.map((point) => (
            <tr key={point.day} className="border-t border-zinc-200 dark:border-zinc-800">
              <th scope="row" className="py-1 pr-3 text-left font-normal whitespace-nowrap">
                <time dateTime={point.day}>{fullDay.format(date(point.day))}</time>
              </th>
              <td className="py-1 pr-3 text-right tabular-nums">{numbers.format(point.visitors)}</td>
              <td className="py-1 pr-1 text-right tabular-nums">{numbers.format(point.views)}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </div>
  );
}
