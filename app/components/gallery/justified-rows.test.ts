import { describe, expect, it } from "vitest";
import {
  aspectRatioOf,
  justifiedItemStyle,
  justifiedSizes,
  MAX_STRETCH,
  ROW_HEIGHTS,
  ROWS_CLASS,
} from "./justified-rows.ts";

/** Widths of the boxes of one row as the flex layout gives them: basis plus the free space shared by grow. */
function layRow(ratios: number[], rowWidth: number, rowHeight: number, gap: number) {
  const basis = ratios.map((ratio) => ratio * rowHeight);
  const free = rowWidth - gap * (ratios.length - 1) - basis.reduce((sum, width) => sum + width, 0);
  const grow = ratios.reduce((sum, ratio) => sum + ratio, 0);
  return ratios.map((ratio, index) =>
    Math.min((basis[index] ?? 0) + (free * ratio) / grow, ratio * rowHeight * MAX_STRETCH),
  );
}

describe("justified rows", () => {
  it("grows each box by its aspect ratio from a basis of ratio × row height", () => {
    expect(justifiedItemStyle(3000, 2000)).toEqual({
      flexGrow: 1.5,
      flexBasis: "calc(var(--row) * 1.5)",
      maxWidth: "calc(var(--row) * 2.4)",
    });
    expect(justifiedItemStyle(800, 1200).flexGrow).toBe(0.6667);
    // A broken record without a size is a square rather than a division by zero.
    expect(aspectRatioOf(0, 0)).toBe(1);
  });

  it("gives every picture of a row one height, so each keeps its whole shape", () => {
    // Portrait, landscape, panorama, square in a 976 px row at 224 px planned height.
    const ratios = [2 / 3, 3 / 2, 4, 1].map((ratio) => aspectRatioOf(ratio * 1000, 1000));
    const widths = layRow(ratios, 976 + 1000, ROW_HEIGHTS.lg, 12);
    const heights = widths.map((width, index) => width / (ratios[index] ?? 1));
    for (const height of heights) expect(height).toBeCloseTo(heights[0] ?? 0, 6);
  });

  it("sets the row heights the sizes assume, and sizes never wider than the screen", () => {
    expect(ROWS_CLASS).toContain(`[--row:${ROW_HEIGHTS.base / 16}rem]`);
    expect(ROWS_CLASS).toContain(`sm:[--row:${ROW_HEIGHTS.sm / 16}rem]`);
    expect(ROWS_CLASS).toContain(`lg:[--row:${ROW_HEIGHTS.lg / 16}rem]`);
    expect(justifiedSizes(4000, 1000)).toBe(
      "(min-width: 1024px) min(1434px, 100vw), (min-width: 640px) min(1229px, 100vw), min(1024px, 100vw)",
    );
    expect(justifiedSizes(1000, 1500)).toMatch(/^\(min-width: 1024px\) min\(239px, 100vw\)/);
  });
});
