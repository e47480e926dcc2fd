import { type LighthouseResults, lighthouseRows } from "./lighthouse.ts";
import { memberRows } from "./member-pages.ts";
import { nodeFloorRows } from "./node-floor.ts";
import { describe, formatNumber, median, type Row, range, verdictOf } from "./stats.ts";

/*
 * The rows of the bench's site section (scripts/bench.ts), issue 23's table: each figure's median (with the spread
 * over the rounds), its goal and whether it meets it, from the figures the rounds recorded.
 */

export type SiteRowsInput = {
  values: (name: string) => number[];
  hasWrk: boolean;
  hasNginx: boolean;
  small: number;
  large: number;
  scalingPaths: { name: string; small: string; large: string }[];
  idleAfterMs: number;
  uploadSize: { width: number; height: number };
  /** Null without --lighthouse. */
  lighthouse: LighthouseResults | null;
};

export function siteRows(input: SiteRowsInput): Row[] {
  const { values, hasWrk, hasNginx, scalingPaths, small: smallCount, large: largeCount, uploadSize } = input;
  const skipped = (figure: string, goal: string, why: string): Row => ({
    figure,
    measured: "n/a",
    goal,
    verdict: `skipped (${why})`,
  });
  const rows: Row[] = [];
  for (const page of ["/", "/home"]) {
    const figure = `Anonymous \`${page}\`, req/s of the app (page cache on) ÷ nginx serving the same HTML bytes (10 connections)`;
    if (!hasWrk || !hasNginx) {
      rows.push(skipped(figure, "≥ 0.5", hasWrk ? "nginx missing" : "wrk missing"));
      continue;
    }
    const ratio = median(values(`app ${page} c10`)) / median(values(`nginx ${page} c10`));
    rows.push({
      figure,
      measured: `${formatNumber(ratio)} (rounds ${range(values(`app/nginx ${page}`))}); app ${describe(values(`app ${page} c10`), "req/s")}, nginx ${describe(values(`nginx ${page} c10`), "req/s")}`,
      goal: "≥ 0.5",
      verdict: verdictOf(ratio, (value) => value >= 0.5),
    });
  }
  for (const page of ["/", "/home"]) {
    const figure = `Latency at 50 connections, \`${page}\`, p99 (cache on)`;
    if (!hasWrk) {
      rows.push(skipped(figure, "≤ 10 ms", "wrk missing"));
      continue;
    }
    const p99 = median(values(`p99 ${page} c50`));
    rows.push({
      figure,
      measured: `${describe(values(`p99 ${page} c50`), "ms")}; p50 ${describe(values(`p50 ${page} c50`), "ms")}`,
      goal: "≤ 10 ms",
      verdict: verdictOf(p99, (value) => value <= 10),
    });
  }
  if (hasWrk && hasNginx) rows.push(...nodeFloorRows(values));
  {
    const figure =
      "Uncached render of `/` (PAGE_CACHE=off), req/s ÷ a bare React Router 8 app rendering the same 24 pictures";
    if (!hasWrk) {
      rows.push(skipped(figure, "≥ 1.0", "wrk missing"));
    } else {
      const ratio = median(values("uncached / c10")) / median(values("bare / c10"));
      rows.push({
        figure,
        measured: `${formatNumber(ratio)} (rounds ${range(values("uncached/bare"))}); app ${describe(values("uncached / c10"), "req/s")}, bare ${describe(values("bare / c10"), "req/s")}`,
        goal: "≥ 1.0",
        verdict: verdictOf(ratio, (value) => value >= 1),
      });
    }
  }
  rows.push(...memberRows(values, hasWrk));
  for (const entry of scalingPaths) {
    const figure = `${smallCount} → ${largeCount} pictures, server time (uncached, median of 1-connection runs): ${entry.name} (\`${entry.large}\`)`;
    if (!hasWrk) {
      rows.push(skipped(figure, "≤ ×1.2", "wrk missing"));
      continue;
    }
    const small = values(`time ${entry.name} small`);
    const large = values(`time ${entry.name} large`);
    const ratio = median(large) / median(small);
    rows.push({
      figure,
      measured: `×${formatNumber(ratio)} (rounds ${range(values(`scaling ${entry.name}`))}); ${describe(small, "ms")} → ${describe(large, "ms")}`,
      goal: "≤ ×1.2",
      verdict: verdictOf(ratio, (value) => value <= 1.2),
    });
  }
  {
    const idle = median(values("rss idle"));
    rows.push({
      figure: `Process memory (RSS) idle, ${input.idleAfterMs / 1000} s after the server answers (page cache on)`,
      measured: `${formatNumber(idle)} MB`,
      goal: "≤ 100 MB",
      verdict: verdictOf(idle, (value) => value <= 100),
    });
  }
  {
    const figure = "Process memory (RSS, max) under the 50-connection load";
    if (!hasWrk) {
      rows.push(skipped(figure, "≤ 200 MB", "wrk missing"));
    } else {
      const max = Math.max(...values("rss c50"));
      rows.push({
        figure,
        measured: `${formatNumber(max)} MB (per run ${range(values("rss c50"), "MB")})`,
        goal: "≤ 200 MB",
        verdict: verdictOf(max, (value) => value <= 200),
      });
    }
  }
  {
    const answered = median(values("upload answered"));
    const visible = median(values("upload visible"));
    const size = `${((uploadSize.width * uploadSize.height) / 1e6).toFixed(0)}-megapixel`;
    rows.push({
      figure: `One ${size} JPEG through the pipeline: upload answered`,
      measured: describe(values("upload answered"), "s"),
      goal: "≤ 1.5 s",
      verdict: verdictOf(answered, (value) => value <= 1.5),
    });
    rows.push({
      figure: `One ${size} JPEG through the pipeline: every derivative ready (picture visible in the gallery)`,
      measured: describe(values("upload visible"), "s"),
      goal: "≤ 3 s",
      verdict: verdictOf(visible, (value) => value <= 3),
    });
  }
  {
    const figure = "Compression done once: req/s of `/` (cache on) with `Accept-Encoding: gzip, br` ÷ without";
    if (!hasWrk) {
      rows.push(skipped(figure, "≈ 1 (≥ 0.9)", "wrk missing"));
    } else {
      const ratio = median(values("compressed rps")) / median(values("plain rps"));
      rows.push({
        figure,
        measured: `${formatNumber(ratio)} (rounds ${range(values("compressed/plain"))}); ${describe(values("compressed rps"), "req/s")} vs ${describe(values("plain rps"), "req/s")}`,
        goal: "≈ 1 (≥ 0.9)",
        verdict: verdictOf(ratio, (value) => value >= 0.9),
      });
    }
  }
  if (input.lighthouse) rows.push(...lighthouseRows(input.lighthouse));
  else
    rows.push(
      skipped(
        "Lighthouse mobile, every public page, a post and /auth",
        "performance 100; LCP ≤ 1.0 s; CLS 0; accessibility, best practices, SEO 100",
        "run with --lighthouse",
      ),
    );
  return rows;
}
