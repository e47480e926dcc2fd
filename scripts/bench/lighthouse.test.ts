import { describe, expect, it } from "vitest";
import { type LighthouseRun, lighthouseRows, readReport } from "./lighthouse.ts";

const run = (lcpMs: number, scores: Partial<LighthouseRun["scores"]> = {}, cls = 0): LighthouseRun => ({
  scores: { performance: 100, accessibility: 100, "best-practices": 100, seo: 100, ...scores },
  lcpMs,
  fcpMs: lcpMs / 2,
  cls,
});

describe("readReport", () => {
  it("reads the four categories as 0–100, LCP, FCP and CLS", () => {
    const report = {
      categories: {
        performance: { score: 0.91 },
        accessibility: { score: 1 },
        "best-practices": { score: 0.96 },
        seo: { score: null },
      },
      audits: {
        "largest-contentful-paint": { numericValue: 2950 },
        "first-contentful-paint": { numericValue: 1210 },
        "cumulative-layout-shift": { numericValue: 0.02 },
      },
    };
    const result = readReport(report);
    expect(result).toMatchObject({ lcpMs: 2950, fcpMs: 1210, cls: 0.02 });
    if (typeof result === "string") throw new Error(result);
    expect(result.scores.performance).toBeCloseTo(91);
    expect(result.scores["best-practices"]).toBeCloseTo(96);
    expect(result.scores.seo).toBeNaN();
  });

  it("passes Lighthouse's own error on", () => {
    expect(readReport({ categories: {}, audits: {}, runtimeError: { message: "NO_FCP" } })).toBe("NO_FCP");
  });
});

describe("lighthouseRows", () => {
  it("takes the median of a page's runs and holds it to every goal", () => {
    const [fast, slow, shifting] = lighthouseRows(
      new Map([
        ["/links", [run(900), run(1400), run(800)]],
        ["/", [run(2900, { performance: 91 }), run(3100, { performance: 90 }), run(3000, { performance: 92 })]],
        ["/faq", [run(700, {}, 0.1), run(700, {}, 0.1), run(700)]],
      ]),
    );
    expect(fast).toMatchObject({ verdict: "meets goal" });
    expect(fast?.measured).toContain("LCP 0.900 s (0.800–1.40 s)");
    expect(slow).toMatchObject({ verdict: "MISSES goal" });
    expect(slow?.measured).toContain("performance 91; LCP 3.00 s");
    expect(shifting).toMatchObject({ verdict: "MISSES goal" });
    expect(shifting?.measured).toContain("CLS 0.1");
  });

  it("does not hold the noindex sign-in page's SEO score to 100, and says so", () => {
    const [auth, faq] = lighthouseRows(
      new Map([
        ["/auth", [run(800, { seo: 66 })]],
        ["/faq", [run(800, { seo: 66 })]],
      ]),
    );
    expect(auth).toMatchObject({ verdict: "meets goal" });
    expect(auth?.measured).toContain("SEO 66 (noindex on purpose");
    expect(faq).toMatchObject({ verdict: "MISSES goal" });
  });

  it("reports a page whose runs all failed as skipped, with Lighthouse's reason", () => {
    const [row] = lighthouseRows(new Map([["/home", ["Chrome could not be started"]]]));
    expect(row).toMatchObject({ measured: "n/a", verdict: "skipped: Chrome could not be started" });
  });
});
