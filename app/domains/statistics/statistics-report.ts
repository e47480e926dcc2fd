import type { DayRange } from "./statistics-range.ts";

/*
 * The shape of what the statistics screen shows (issue 46), shared by the reads on the server and the screen's
 * components in the browser.
 */

/** The kinds shown as lists; `site` is the daily series. */
export const LIST_KINDS = [
  "page",
  "picture",
  "entry",
  "exit",
  "referrer",
  "utm",
  "language",
  "device",
  "audience",
  "notfound",
  "notfound-referrer",
  "search",
  "search-empty",
] as const;
export type ListKind = (typeof LIST_KINDS)[number];
/** The lists of the screen: each kind, and the pages split into posts and albums as well. */
export type ListName = ListKind | "post" | "album";

/** Against the period before: a change in per cent, `new` where it had nothing, null where both had nothing. */
export type Trend = { percent: number } | "new" | null;

export type TopEntry = {
  key: string;
  /** The content the key names, in the reader's language where it has one; null for a plain or deleted one. */
  title: string | null;
  views: number;
  visitors: number;
  previousViews: number;
  trend: Trend;
};

export type DayPoint = { day: string; views: number; visitors: number; memberViews: number };
export type Totals = { views: number; visitors: number; memberViews: number };

export type StatisticsReport = {
  range: DayRange;
  series: DayPoint[];
  totals: Totals;
  previousTotals: Totals;
  trend: { views: Trend; visitors: Trend };
  lists: Record<ListName, TopEntry[]>;
};

export function trendOf(now: number, before: number): Trend {
  if (before === 0) return now === 0 ? null : "new";
  return { percent: Math.round(((now - before) / before) * 100) };
}
