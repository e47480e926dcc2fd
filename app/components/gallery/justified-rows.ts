import type { CSSProperties } from "react";

/**
 * Justified rows (as in Flickr or Google Photos) in CSS alone: each picture's box has its own aspect ratio
 * and a flex basis of that ratio times the row height (`--row` on the list, set per breakpoint), and grows by
 * its ratio. The space left in a row is shared out in proportion to the ratios, so every picture of a row
 * keeps one height and its whole shape, however the row wraps; nothing is cropped and, the sizes being known
 * from the data, nothing moves as the pixels arrive. The DOM order is the visual order (rows, left to right).
 */

/** The row height per breakpoint, in CSS pixels (Tailwind's sm and lg): `ROWS_CLASS` sets the same. */
export const ROW_HEIGHTS = { base: 160, sm: 192, lg: 224 } as const;

/**
 * How far a row may grow past its row height: a lone portrait before a panorama that wraps would otherwise
 * fill a whole row, many times its planned size; it stays at most this much larger (the row then ends short).
 */
export const MAX_STRETCH = 1.6;

/** The list's classes: wrapping flex rows; the last row keeps its planned height (the `::after` takes the rest). */
export const ROWS_CLASS =
  "flex flex-wrap gap-3 [--row:10rem] sm:[--row:12rem] lg:[--row:14rem] after:grow-[1000000] after:content-['']";

/** The width-to-height ratio of a picture (1 for a broken record without a size). */
export function aspectRatioOf(width: number, height: number): number {
  if (!(width > 0 && height > 0)) return 1;
  return Math.round((width / height) * 10_000) / 10_000;
}

/** The style of one picture's box in the rows. */
export function justifiedItemStyle(width: number, height: number): CSSProperties {
  const ratio = aspectRatioOf(width, height);
  return {
    flexGrow: ratio,
    flexBasis: `calc(var(--row) * ${ratio})`,
    maxWidth: `calc(var(--row) * ${Math.round(ratio * MAX_STRETCH * 10_000) / 10_000})`,
  };
}

/**
 * The `sizes` of one picture in the rows: at most its widest stretch at each breakpoint's row height, never
 * wider than the screen (a panorama shrinks to the row's width).
 */
export function justifiedSizes(width: number, height: number): string {
  const widest = (rowHeight: number) => Math.ceil(aspectRatioOf(width, height) * rowHeight * MAX_STRETCH);
  return [
    `(min-width: 1024px) min(${widest(ROW_HEIGHTS.lg)}px, 100vw)`,
    `(min-width: 640px) min(${widest(ROW_HEIGHTS.sm)}px, 100vw)`,
    `min(${widest(ROW_HEIGHTS.base)}px, 100vw)`,
  ].join(", ");
}
