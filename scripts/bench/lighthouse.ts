import { execFile } from "node:child_process";
import { openDatabase } from "#app/db/database.server.ts";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import { createUser } from "#tests/support/factories.ts";
import type { ServerProcess } from "#tests/support/server-process.ts";
import { BENCH_POST } from "./bench-post.ts";
import { formatNumber, median, type Row, range } from "./stats.ts";

/*
 * The Lighthouse section of the bench (`--lighthouse`, issue 23): every public page, a blog post among them, on
 * Lighthouse's default mobile run (an emulated phone, simulated throttling), each page several times, the median
 * reported. All four categories, LCP and CLS, against the issue's goals.
 */

/** Pinned, so that scores from different days come from the same audits. */
export const LIGHTHOUSE_VERSION = "13.5.0";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];

/** One run's figures: category scores 0–100, LCP and FCP in ms, CLS. */
export type LighthouseRun = { scores: Record<Category, number>; lcpMs: number; fcpMs: number; cls: number };

type Report = {
  categories: Partial<Record<Category, { score: number | null }>>;
  audits: Record<string, { numericValue?: number }>;
  runtimeError?: { message: string };
};

/** A report's figures, or why it has none (Lighthouse's own error). */
export function readReport(report: Report): LighthouseRun | string {
  if (report.runtimeError) return report.runtimeError.message;
  const score = (category: Category) => {
    const value = report.categories[category]?.score;
    return value === null || value === undefined ? Number.NaN : value * 100;
  };
  return {
    scores: {
      performance: score("performance"),
      accessibility: score("accessibility"),
      "best-practices": score("best-practices"),
      seo: score("seo"),
    },
    lcpMs: report.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN,
    fcpMs: report.audits["first-contentful-paint"]?.numericValue ?? Number.NaN,
    cls: report.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
  };
}

/**
 * Lighthouse's mobile run of one page (its default: emulated phone, throttled); a string says why it failed. Run
 * without blocking this process: a page this process serves itself (measure-lcp-variants.ts) must still answer.
 */
export async function runLighthouse(
  url: string,
  categories: readonly Category[] = CATEGORIES,
): Promise<LighthouseRun | string> {
  const args = [
    "--yes",
    `lighthouse@${LIGHTHOUSE_VERSION}`,
    url,
    "--quiet",
    "--output=json",
    "--output-path=stdout",
    `--only-categories=${categories.join(",")}`,
    "--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking",
  ];
  const options = {
    encoding: "utf8" as const,
    env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 180_000,
  };
  const result = await new Promise<{ stdout: string; stderr: string; error: Error | null }>((resolve) => {
    execFile("npx", args, options, (error, stdout, stderr) => resolve({ stdout, stderr, error }));
  });
  try {
    return readReport(JSON.parse(result.stdout) as Report);
  } catch {
    return (result.stderr || result.error?.message || "failed").trim().split("\n").at(-1) ?? "failed";
  }
}

/** The published post of the Lighthouse pages (bench-post.ts), made in the site's database; its address. */
export async function publishBenchPost(sqliteFile: string): Promise<string> {
  const database = openDatabase({ sqliteFile });
  try {
    const author = await createUser(database.db, { admin: true, email: "bench-author@example.test" });
    const actor = { id: author.id, email: author.email };
    const created = await createPost(database.db, actor, BENCH_POST);
    if (!created.ok) throw new Error("The bench's post was not created");
    const published = await setPostStatus(database.db, actor, created.id, { status: "published" });
    if (!published.ok) throw new Error("The bench's post was not published");
    return `/blog/${created.post.slug}`;
  } finally {
    await database.close();
  }
}

/** A server to run Lighthouse on: its post's address, and where its figures are recorded. */
export type LighthouseTarget = {
  server: ServerProcess;
  postPath: string;
  record: (name: string, value: number) => void;
};

/**
 * Every page of `lighthousePages` `runs` times on each target (this build's server, and the `--before` one's),
 * a page's runs one after the other, the targets taking turns run by run; each run's performance score and LCP
 * recorded. A failed run ends that target's runs of the page (it says why in the table). The results per target.
 */
export async function measureLighthousePages(targets: LighthouseTarget[], runs: number): Promise<LighthouseResults[]> {
  const results = targets.map((): LighthouseResults => new Map());
  // Each target's own list: a post's address differs from one build's data to the other's.
  const pages = targets.map((target) => lighthousePages(target.postPath));
  const pageCount = pages[0]?.length ?? 0;
  for (let index = 0; index < pageCount; index++) {
    for (let run = 1; run <= runs; run++) {
      for (const [at, target] of targets.entries()) {
        const page = pages[at]?.[index] as string;
        const pageRuns = results[at]?.get(page) ?? [];
        results[at]?.set(page, pageRuns);
        if (pageRuns.some((entry) => typeof entry === "string")) continue;
        console.log(`Lighthouse ${page} (${run} of ${runs}${targets.length > 1 ? `, side ${at + 1}` : ""})…`);
        const result = await runLighthouse(target.server.url(page));
        pageRuns.push(result);
        if (typeof result === "string") continue;
        target.record(`lighthouse ${page} score`, result.scores.performance);
        target.record(`lighthouse ${page} lcp`, result.lcpMs / 1000);
      }
    }
  }
  return results;
}

/** The pages measured: every public page a visitor lands on, and the sign-in page. */
export function lighthousePages(postPath: string): string[] {
  return ["/", "/home", "/links", "/faq", "/videos", "/blog", postPath, "/auth"];
}

/** What the sign-in page's SEO score is not held to: it is `noindex` on purpose, which Lighthouse marks down. */
const NOINDEX_PAGES = new Set(["/auth"]);

/** A page's runs, as measured (a string for a failed run). */
export type PageRuns = (LighthouseRun | string)[];
export type LighthouseResults = Map<string, PageRuns>;

/** The rows: per page the medians over its runs, against issue 23's goals. */
export function lighthouseRows(results: LighthouseResults): Row[] {
  const goal = "performance 100; LCP ≤ 1.0 s; CLS 0; accessibility, best practices, SEO 100";
  return [...results].map(([page, runs]) => {
    const figure = `Lighthouse mobile, ${page}: median of ${runs.length} run(s)`;
    const done = runs.filter((run): run is LighthouseRun => typeof run !== "string");
    if (done.length === 0) {
      const why = runs.find((run): run is string => typeof run === "string") ?? "no run";
      return { figure, measured: "n/a", goal, verdict: `skipped: ${why}` };
    }
    const of = (pick: (run: LighthouseRun) => number) => done.map(pick);
    const scores = Object.fromEntries(
      CATEGORIES.map((category) => [category, median(of((run) => run.scores[category]))]),
    ) as Record<Category, number>;
    const lcp = of((run) => run.lcpMs / 1000);
    const cls = median(of((run) => run.cls));
    const noindex = NOINDEX_PAGES.has(page);
    const held = CATEGORIES.filter((category) => !(noindex && category === "seo"));
    const meets = held.every((category) => scores[category] >= 100) && median(lcp) <= 1 && cls === 0;
    const seo = noindex
      ? `SEO ${Math.round(scores.seo)} (noindex on purpose: not held to 100)`
      : `SEO ${Math.round(scores.seo)}`;
    return {
      figure,
      measured: `performance ${Math.round(scores.performance)}; LCP ${formatNumber(median(lcp))} s (${range(lcp, "s")}); CLS ${formatNumber(cls)}; accessibility ${Math.round(scores.accessibility)}, best practices ${Math.round(scores["best-practices"])}, ${seo}`,
      goal,
      verdict: meets ? "meets goal" : "MISSES goal",
    };
  });
}
