import { describe, expect, it } from "vitest";
import { aspectRatioOf, BREAKPOINTS, breakRows, justifiedLayout } from "./justified-rows.ts";

const PHONE = BREAKPOINTS[0].target;
const WIDE = BREAKPOINTS[2].target;

/** The rows as lists of picture indexes. */
const rowsOf = (ratios: number[], target: number) =>
  breakRows(ratios, target).map((row) => Array.from({ length: row.end - row.start }, (_, i) => row.start + i));

/**
 * Lays out one breakpoint's flex values as a browser would (one line per planned row, no wrapping inside):
 * each item's basis from `calc((100% - Grem) * share)`, plus the line's free space shared by grow.
 */
function lay(flexes: string[], width: number, gap = 12) {
  const parsed = flexes.map((flex) => {
    const match = /^([\d.]+) 1 calc\(\(100% - ([\d.]+)rem\) \* ([\d.]+)\)$/.exec(flex);
    if (!match) throw new Error(`unexpected flex ${flex}`);
    const [, grow, gaps, share] = match.map(Number) as [number, number, number, number];
    return { grow, basis: (width - gaps * 16) * share };
  });
  // Lines break where the bases (and gaps) no longer fit, as flex-wrap does.
  const lines: (typeof parsed)[] = [];
  let used = 0;
  for (const item of parsed) {
    const line = lines.at(-1);
    if (line && used + gap + item.basis <= width) {
      line.push(item);
      used += gap + item.basis;
    } else {
      lines.push([item]);
      used = item.basis;
    }
  }
  return lines.map((line) => {
    const free = width - gap * (line.length - 1) - line.reduce((sum, item) => sum + item.basis, 0);
    const grow = line.reduce((sum, item) => sum + item.grow, 0);
    return line.map((item) => item.basis + (grow > 0 ? (free * item.grow) / grow : 0));
  });
}

describe("justified rows", () => {
  it("puts a portrait beside its neighbour on a phone rather than alone at half width", () => {
    // A portrait among landscapes and wide pictures joins one of them, wherever it stands.
    for (const ratios of [
      [1.5, 0.6667, 1.7778],
      [1.7778, 0.6667, 1.7778],
      [1.5, 0.6667, 1.5, 1.5],
      [0.6667, 1.5, 1.5],
      [1.5, 1.5, 0.6667],
    ]) {
      for (const row of rowsOf(ratios, PHONE)) {
        expect(row.length > 1 || ratios[row[0] ?? 0] !== 0.6667, JSON.stringify(ratios)).toBe(true);
      }
    }
    // Landscapes on a phone: one a row, full width; three portraits share one.
    expect(rowsOf([1.5, 1.5, 1.5], PHONE)).toEqual([[0], [1], [2]]);
    expect(rowsOf([0.6667, 0.6667, 0.6667], PHONE)).toEqual([[0, 1, 2]]);
  });

  it("fills rows of several on a wide screen, and leaves a short last row at the planned height", () => {
    const ratios = [1.5, 0.6667, 1.5, 1, 1.5, 1.5, 0.75, 1.5, 1.3333];
    const rows = breakRows(ratios, WIDE);
    for (const row of rows.slice(0, -1)) {
      expect(row.end - row.start).toBeGreaterThan(1);
      // Within a quarter either side of the planned height.
      expect(row.ratio / WIDE).toBeGreaterThan(0.75);
      expect(row.ratio / WIDE).toBeLessThan(1.34);
    }
    const short = breakRows([1.5, 1.5], WIDE).at(-1);
    expect(short?.ratio).toBeLessThan(WIDE * 0.75);
    expect(short?.stretched).toBe(false);
  });

  it("gives every picture of a row one height, rows end where planned, and a short last row its plan's height", () => {
    const images = [
      [800, 1200],
      [2400, 600],
      [1500, 1000],
      [1000, 1000],
      [3000, 2000],
      [900, 1200],
      [1600, 900],
    ].map(([width = 1, height = 1]) => ({ width, height }));
    const ratios = images.map((image) => aspectRatioOf(image.width, image.height));
    const layout = justifiedLayout(images);
    for (const [level, width] of [
      [0, 358],
      [1, 700],
      [2, 976],
    ] as const) {
      const flexes = layout.map((entry) => (entry.style as Record<string, string>)[`--flex-${level}`] ?? "");
      const lines = lay(flexes, width);
      const planned = breakRows(ratios, BREAKPOINTS[level].target);
      expect(lines.map((line) => line.length)).toEqual(planned.map((row) => row.end - row.start));
      let index = 0;
      for (const [number, line] of lines.entries()) {
        const heights = line.map((w) => w / (ratios[index++] ?? 1));
        for (const height of heights) expect(height).toBeCloseTo(heights[0] ?? 0, 2);
        const filled = line.reduce((sum, w) => sum + w, 0) + 12 * (line.length - 1);
        if (planned[number]?.stretched) expect(filled).toBeCloseTo(width, 2);
        else expect(filled).toBeLessThan(width);
      }
    }
  });

  it("gives each picture its share of the content's width as its sizes", () => {
    const [only] = justifiedLayout([{ width: 3000, height: 2000 }]);
    // Alone, a 3:2 picture is a whole row on a phone and short of the plan (shown at its height) wider up.
    expect(only?.sizes).toBe(
      "(min-width: 1024px) calc(976px * 0.341), (min-width: 640px) calc((100vw - 3rem) * 0.429), calc((100vw - 2rem) * 1.000)",
    );
    // A broken record without a size is a square rather than a division by zero.
    expect(aspectRatioOf(0, 0)).toBe(1);
    expect(justifiedLayout([])).toEqual([]);
  });
});
