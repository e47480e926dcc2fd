import { z } from "zod";

/*
 * The days the statistics screen shows (issue 46): a preset counted back from today, or two dates. Days are UTC, as
 * the counting writes them. Anything the address says that is not a usable range falls back to the default with a
 * reason to show, never an error page: the address is typed and bookmarked by hand.
 */

export const RANGE_PRESETS = ["today", "7d", "30d", "365d"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const DEFAULT_PRESET: RangePreset = "30d";
/** The longest range of two dates: a bound on one page's work (three years, a leap day included). */
export const MAX_RANGE_DAYS = 1096;

export type DayRange = { from: string; to: string };
export type RangeProblem = "badDate" | "reversed" | "tooLong" | "badPreset";
export type ChosenRange = DayRange & { preset: RangePreset | "custom"; problem: RangeProblem | null };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PRESET_DAYS: Record<RangePreset, number> = { today: 1, "7d": 7, "30d": 30, "365d": 365 };

export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The day `days` after `day` (before, when negative). */
export function addDays(day: string, days: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return dayOf(at);
}

/** How many days the range holds, both ends counted. */
export function lengthOf(range: DayRange): number {
  return Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The period of the same length just before the range: what its trend compares with. */
export function previousOf(range: DayRange): DayRange {
  const length = lengthOf(range);
  return { from: addDays(range.from, -length), to: addDays(range.from, -1) };
}

/** Every day of the range, in order. */
export function daysIn(range: DayRange): string[] {
  const days: string[] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** A real calendar day (2026-02-30 is not one), within years a site can have counted. */
const daySchema = z
  .string()
  .regex(DAY)
  .refine((value) => {
    const at = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(at.getTime()) && dayOf(at) === value && value >= "2000-01-01" && value <= "9999-12-31";
  });

export function presetRange(preset: RangePreset, today: string): DayRange {
  return { from: addDays(today, 1 - PRESET_DAYS[preset]), to: today };
}

/** The range the query asks for (`range`, or `from` and `to`), or the default with the reason it was not taken. */
export function chooseRange(query: { range?: string | null; from?: string | null; to?: string | null }, today: string) {
  const fallback = (problem: RangeProblem | null): ChosenRange => ({
    ...presetRange(DEFAULT_PRESET, today),
    preset: DEFAULT_PRESET,
    problem,
  });
  const range = query.range ?? "";
  const preset = z.enum(RANGE_PRESETS).safeParse(range);
  if (preset.success) return { ...presetRange(preset.data, today), preset: preset.data, problem: null } as ChosenRange;
  const hasDates = Boolean(query.from || query.to);
  if (range !== "" && range !== "custom") return fallback("badPreset");
  if (!hasDates) return fallback(range === "custom" ? "badDate" : null);
  const from = daySchema.safeParse(query.from ?? "");
  const to = daySchema.safeParse(query.to ?? "");
  if (!from.success || !to.success) return fallback("badDate");
  const chosen = { from: from.data, to: to.data };
  if (chosen.from > chosen.to) return fallback("reversed");
  if (lengthOf(chosen) > MAX_RANGE_DAYS) return fallback("tooLong");
  return { ...chosen, preset: "custom", problem: null } as ChosenRange;
}
