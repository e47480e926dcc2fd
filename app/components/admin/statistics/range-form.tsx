import { Form, Link } from "react-router";
import { buttonClass } from "#app/components/ui/button.tsx";
import { inputClass } from "#app/components/ui/field.tsx";
import { type ChosenRange, RANGE_PRESETS } from "#app/domains/statistics/statistics-range.ts";
import type { AdminTranslate } from "#app/i18n/admin-dictionary.ts";

/*
 * The statistics screen's period (issue 46): the presets are plain links, and two dates a GET form, so both work
 * without JavaScript and every period has an address of its own to bookmark. A refused pair of dates is shown again
 * as typed, beside the reason.
 */

export function RangeForm({
  chosen,
  typed,
  t,
}: {
  chosen: ChosenRange;
  typed: { from: string; to: string };
  t: AdminTranslate;
}) {
  const custom = chosen.preset === "custom";
  const problemId = "statistics-range-problem";
  const dates = chosen.problem === "badDate" || chosen.problem === "reversed" || chosen.problem === "tooLong";
  const from = dates ? typed.from : custom ? chosen.from : "";
  const to = dates ? typed.to : custom ? chosen.to : "";
  return (
    <div className="mb-6 flex flex-wrap items-end gap-x-6 gap-y-4">
      <nav aria-label={t("admin.statistics.rangeLegend")}>
        <ul className="flex flex-wrap gap-2">
          {RANGE_PRESETS.map((preset) => (
            <li key={preset}>
              <Link
                to={`/admin/statistics?range=${preset}`}
                aria-current={chosen.preset === preset ? "page" : undefined}
                className={`${buttonClass(chosen.preset === preset ? "primary" : "secondary", "sm")}`}
              >
                {t(`admin.statistics.range.${preset}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Form
        method="get"
        action="/admin/statistics"
        key={`${from}-${to}`}
        className="flex flex-wrap items-end gap-3"
        aria-label={t("admin.statistics.range.custom")}
      >
        <input type="hidden" name="range" value="custom" />
        <div>
          <label htmlFor="statistics-from" className="block text-sm font-medium">
            {t("admin.statistics.from")}
          </label>
          <input
            id="statistics-from"
            name="from"
            type="date"
            defaultValue={from}
            required
            aria-invalid={dates || undefined}
            aria-describedby={dates ? problemId : undefined}
            className={`${inputClass} w-44`}
          />
        </div>
        <div>
          <label htmlFor="statistics-to" className="block text-sm font-medium">
            {t("admin.statistics.to")}
          </label>
          <input
            id="statistics-to"
            name="to"
            type="date"
            defaultValue={to}
            required
            aria-invalid={dates || undefined}
            aria-describedby={dates ? problemId : undefined}
            className={`${inputClass} w-44`}
          />
        </div>
        <button type="submit" className={buttonClass("secondary")}>
          {t("admin.statistics.show")}
        </button>
      </Form>
      {chosen.problem ? (
        <p id={problemId} role="alert" className="w-full text-sm font-medium text-red-700 dark:text-red-300">
          {t(`admin.statistics.problem.${chosen.problem}`)}
        </p>
      ) : null}
    </div>
  );
}
