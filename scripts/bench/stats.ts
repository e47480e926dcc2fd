/** One line of the bench's table: the figure, what was measured, its goal and whether it meets it. */
export type Row = { figure: string; measured: string; goal: string; verdict: string };

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The nearest-rank percentile (0–100) of the values; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

export function spread(values: number[]): { min: number; max: number } {
  return { min: Math.min(...values), max: Math.max(...values) };
}

/** A number with as many digits as are worth reading at its size (three significant ones below 10). */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  const size = Math.abs(value);
  if (size >= 100) return value.toFixed(0);
  if (size >= 10) return value.toFixed(1);
  if (size === 0) return "0";
  return value.toPrecision(3);
}

/** "median (min–max)", each with the unit. */
export function describe(values: number[], unit = ""): string {
  if (values.length === 0) return "n/a";
  const { min, max } = spread(values);
  const suffix = unit ? ` ${unit}` : "";
  if (values.length === 1) return `${formatNumber(values[0] as number)}${suffix}`;
  return `${formatNumber(median(values))}${suffix} (${formatNumber(min)}–${formatNumber(max)})`;
}

/** "min–max" of the values (the value alone when there is one), for per-round ratios beside a headline figure. */
export function range(values: number[], unit = ""): string {
  if (values.length === 0) return "n/a";
  const suffix = unit ? ` ${unit}` : "";
  const { min, max } = spread(values);
  return values.length === 1 ? `${formatNumber(min)}${suffix}` : `${formatNumber(min)}–${formatNumber(max)}${suffix}`;
}

/** A figure against its goal: a figure that is no number (no run, or runs that got no answer) meets none. */
export function verdictOf(value: number, meets: (value: number) => boolean, otherwise = "skipped"): string {
  return Number.isFinite(value) ? (meets(value) ? "meets goal" : "MISSES goal") : otherwise;
}
