import type { CSSProperties } from "react";

/**
 * Justified rows (as in Flickr or Google Photos): every picture of a row has the row's height and its own
 * whole shape, and the rows fill the width. Which pictures share a row is decided here, from the stored
 * sizes, once per breakpoint (`BREAKPOINTS`), by the least total badness over the whole list (`breakRows`):
 * a row is bad as its height strays from the breakpoint's planned one, measured as the ratio of the two, so a
 * portrait is put beside its neighbours instead of standing alone at half width, and a run of landscapes on a
 * phone is one per row rather than squeezed two by two. The decision is written into each picture's
 * `flex` (one custom property per breakpoint, picked in app.css): a basis of its share of its row, which makes
 * the row end where it was planned, and a grow of its aspect ratio, so the last sliver is shared out in
 * proportion and the heights stay equal. The breakpoints are expressed as a row's total aspect ratio, not a
 * height in pixels, so the plan holds at any width of the breakpoint. CSS then lays it out: nothing runs in
 * the browser, nothing moves as the pixels arrive, and DOM order (and Tab order) is the visual order.
 */

/** Tailwind's breakpoints (`sm`, `lg`) and the list's horizontal gap (`gap-3`), as app.css and `ROWS_CLASS` (picture-rows.tsx) set them. */
const GAP_REM = 0.75;

/**
 * Per breakpoint: from which width it applies, the width of the page's content there (the main column's
 * padding, at most 1024 px wide), and the planned row as its total aspect ratio (width over height). A
 * phone's plan of 1.9 gives a 3:2 landscape a row of its own, a portrait beside a landscape, three portraits
 * together; the wider ones keep the row heights of before (about 190 and 224 px).
 */
export const BREAKPOINTS = [
  { minWidth: 0, content: "(100vw - 2rem)", target: 1.9 },
  { minWidth: 640, content: "(100vw - 3rem)", target: 3.5 },
  { minWidth: 1024, content: "976px", target: 4.4 },
] as const;

/** Most pictures a row may hold (a long run of narrow portraits is cut into rows of this many at most). */
const MAX_PER_ROW = 8;

/** The last row is laid out full width when it is at least this share of the plan, else at the planned height. */
const LAST_ROW_STRETCH = 0.75;

/** A short last row is not filled, so it costs less than a full row that is as far off its plan. */
const SHORT_LAST_ROW_WEIGHT = 0.3;

/** The basis is a hair less than the exact share, so rounding never pushes a row's last picture onto the next. */
const BASIS_SHARE = 0.998;

/** The width-to-height ratio of a picture (1 for a broken record without a size). */
export function aspectRatioOf(width: number, height: number): number {
  if (!(width > 0 && height > 0)) return 1;
  return width / height;
}

export type Row = { start: number; end: number; ratio: number; stretched: boolean };

function rowCost(ratio: number, target: number, last: boolean): number {
  const off = Math.log(ratio / target) ** 2;
  if (!last || ratio >= target * LAST_ROW_STRETCH) return off;
  return SHORT_LAST_ROW_WEIGHT * off;
}

/**
 * The rows of least total cost for pictures of these aspect ratios and a planned row ratio (dynamic
 * programming over where each row ends: n × MAX_PER_ROW steps). `end` is exclusive.
 */
export function breakRows(ratios: readonly number[], target: number): Row[] {
  const n = ratios.length;
  const best = new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Array<number>(n + 1).fill(0);
  best[0] = 0;
  for (let end = 1; end <= n; end++) {
    let ratio = 0;
    for (let start = end - 1; start >= 0 && end - start <= MAX_PER_ROW; start--) {
      ratio += ratios[start] ?? 1;
      const cost = (best[start] ?? 0) + rowCost(ratio, target, end === n);
      if (cost < (best[end] ?? Number.POSITIVE_INFINITY)) {
        best[end] = cost;
        from[end] = start;
      }
    }
  }
  const rows: Row[] = [];
  for (let end = n, start: number; end > 0; end = start) {
    start = from[end] ?? 0;
    let ratio = 0;
    for (let index = start; index < end; index++) ratio += ratios[index] ?? 1;
    rows.unshift({ start, end, ratio, stretched: end < n || ratio >= target * LAST_ROW_STRETCH });
  }
  return rows;
}

export type PictureLayout = { style: CSSProperties; sizes: string };

/**
 * Each picture's place in the rows: its `flex` per breakpoint (`--flex-0` …, see app.css) and its `sizes`,
 * its share of the content's width at each breakpoint.
 */
export function justifiedLayout(images: readonly { width: number; height: number }[]): PictureLayout[] {
  const ratios = images.map((image) => aspectRatioOf(image.width, image.height));
  const perBreakpoint = BREAKPOINTS.map(({ target }) => {
    const shares: { flex: string; share: number }[] = [];
    for (const row of breakRows(ratios, target)) {
      const gaps = (row.end - row.start - 1) * GAP_REM;
      // A stretched row shares its width by ratio; a short last row keeps the planned height.
      const whole = row.stretched ? row.ratio : target;
      for (let index = row.start; index < row.end; index++) {
        const ratio = ratios[index] ?? 1;
        const share = ((ratio / whole) * BASIS_SHARE).toFixed(6);
        const grow = row.stretched ? ratio : 0;
        shares.push({ flex: `${grow} 1 calc((100% - ${gaps}rem) * ${share})`, share: ratio / whole });
      }
    }
    return shares;
  });
  return images.map((_, index) => {
    const style: Record<string, string> = {};
    const sizes: string[] = [];
    BREAKPOINTS.forEach(({ minWidth, content }, level) => {
      const entry = perBreakpoint[level]?.[index];
      if (!entry) return;
      style[`--flex-${level}`] = entry.flex;
      const width = `calc(${content} * ${entry.share.toFixed(3)})`;
      sizes.unshift(minWidth > 0 ? `(min-width: ${minWidth}px) ${width}` : width);
    });
    return { style: style as CSSProperties, sizes: sizes.join(", ") };
  });
}
