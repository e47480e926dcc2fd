import type { RouterContextProvider } from "react-router";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import { statisticsCsv } from "#app/domains/statistics/statistics-export.server.ts";
import { chooseRange, dayOf } from "#app/domains/statistics/statistics-range.ts";
import { hasAnyStatistics, readStatistics } from "#app/domains/statistics/statistics-reads.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { requireAdmin } from "#app/web/session.server.ts";

type Args = { request: Request; url: URL; context: Readonly<RouterContextProvider> };

/** The range the address asks for; a bad one is the default range with the reason (never an error page). */
function rangeOf(url: URL) {
  const asked = {
    range: url.searchParams.get("range"),
    from: url.searchParams.get("from"),
    to: url.searchParams.get("to"),
  };
  return chooseRange(asked, dayOf(new Date()));
}

/**
 * The statistics screen: the chosen range's numbers, whether counting is on, and what the form showed (the dates
 * as typed, so that a refused pair can be corrected rather than typed again).
 */
export async function statisticsLoader({ request, url, context }: Args) {
  requireAdmin(url, context);
  const { db } = runtimeOf(context).database;
  const chosen = rangeOf(url);
  const settings = await readSettings(db);
  const anything = await hasAnyStatistics(db);
  return {
    chosen,
    typed: { from: url.searchParams.get("from") ?? "", to: url.searchParams.get("to") ?? "" },
    enabled: settings.statistics_enabled === "true",
    report: anything ? await readStatistics(db, chosen, { lang: languageOf(request).lang }) : null,
  };
}

/** GET /admin/statistics.csv: the chosen range's daily rows, written as they are read. */
export function statisticsCsvResponse({ url, context }: Omit<Args, "request">): Response {
  requireAdmin(url, context);
  const { db } = runtimeOf(context).database;
  const range = rangeOf(url);
  const lines = statisticsCsv(db, range);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="statistics-${range.from}-${range.to}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
