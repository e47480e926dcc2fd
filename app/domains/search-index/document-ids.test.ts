import { describe, expect, it } from "vitest";
import { firstIdOf, ID_SLOTS, SCOPE_SPAN, scopeRange } from "./document-ids.server.ts";

const KINDS = ["post", "picture", "faq", "video", "link"] as const;

describe("the index's ids", () => {
  it("give each kind and language its own range, below 2^53, and the FAQ, videos and links of a language one range", () => {
    const ranges = (["en", "de"] as const).flatMap((lang) => KINDS.map((kind) => scopeRange([kind], lang)));
    const sorted = ranges.toSorted((a, b) => a.from - b.from);
    for (const [index, range] of sorted.entries()) {
      expect(range.to - range.from).toBe(SCOPE_SPAN);
      if (index > 0) expect(range.from).toBe(sorted[index - 1]?.to);
    }
    expect(Math.max(...ranges.map((range) => range.to))).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    for (const lang of ["en", "de"] as const) {
      expect(scopeRange(["faq", "video", "link"], lang)).toEqual({
        from: scopeRange(["faq"], lang).from,
        to: scopeRange(["link"], lang).to,
      });
    }
    // Kinds that are not side by side have no one range.
    expect(() => scopeRange(["post", "faq"], "en")).toThrow();
  });

  it("order an item's rows by its date inside its range, from 1970 to the year 2248", () => {
    const range = scopeRange(["picture"], "de");
    const older = firstIdOf("picture", "de", "2020-01-01T00:00:00.000Z");
    const newer = firstIdOf("picture", "de", "2020-01-01T00:00:00.001Z");
    expect(newer - older).toBe(ID_SLOTS);
    expect(older - range.from).toBe(Date.parse("2020-01-01T00:00:00.000Z") * ID_SLOTS);
    // Dates outside what a range can order stay inside it, at its ends.
    expect(firstIdOf("picture", "de", "1960-01-01T00:00:00.000Z")).toBe(range.from);
    const last = firstIdOf("picture", "de", "2300-01-01T00:00:00.000Z");
    expect(last).toBeLessThan(range.to);
    expect(last).toBe(firstIdOf("picture", "de", "2248-12-31T00:00:00.000Z"));
  });
});
