import { type Kysely, sql } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { DayRange } from "./statistics-range.ts";

/*
 * The statistics as a spreadsheet (issue 46): one line per day, kind and key of the range. Read page by page in the
 * primary key's order (day, kind, key), so that a year of a large site is never held in memory at once.
 */

export const CSV_HEADER = ["day", "kind", "key", "views", "visitors", "member_views"] as const;
const PAGE_SIZE = 5000;

/**
 * One CSV field (RFC 4180): quoted where it holds a comma, quote or line break. A search's words and a broken link's
 * path are typed by visitors: one beginning like a formula (`=`, `+`, `-`, `@`, a tab) is prefixed with `'`, so a
 * spreadsheet shows it as text instead of running it.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly (string | number)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** The range's lines, header first, in pages of a few thousand rows. */
export async function* statisticsCsv(db: Kysely<Database>, range: DayRange): AsyncGenerator<string> {
  yield csvLine(CSV_HEADER);
  type Position = { day: string; kind: string; key: string };
  let after: Position | null = null;
  for (;;) {
    const last: Position | null = after;
    const rows: { day: string; kind: string; key: string; views: unknown; visitors: unknown; member_views: unknown }[] =
      await db
        .selectFrom("stats_daily")
        .select(["day", "kind", "key", "views", "visitors", "member_views"])
        .where("day", ">=", range.from)
        .where("day", "<=", range.to)
        .$if(last !== null, (query) =>
          query.where(sql<boolean>`(day, kind, key) > (${last?.day}, ${last?.kind}, ${last?.key})`),
        )
        .orderBy("day")
        .orderBy("kind")
        .orderBy("key")
        .limit(PAGE_SIZE)
        .execute();
    if (rows.length === 0) return;
    yield rows
      .map((row) =>
        csvLine([row.day, row.kind, row.key, Number(row.views), Number(row.visitors), Number(row.member_views)]),
      )
      .join("");
    const end: Position | undefined = rows[rows.length - 1];
    if (!end || rows.length < PAGE_SIZE) return;
    after = { day: end.day, kind: end.kind, key: end.key };
  }
}
