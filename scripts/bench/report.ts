import fs from "node:fs";
import { formatNumber, median, type Row, spread } from "./stats.ts";

/*
 * The bench's output (scripts/bench.ts): the table, the raw numbers of every round and the problems; with `--json`,
 * the same in a file with the run's settings and every wrk run.
 */

export type ReportInput = {
  rows: Row[];
  startedAt: number;
  /** With --before: each figure of both builds, measured in the same rounds. */
  comparison?: { label: string; rows: { figure: string; before: Row; after: Row }[] };
  /** Printed after the raw numbers. */
  notes: string[];
  series: Map<string, number[]>;
  problems: string[];
  /** With --json: the file, and what goes into it besides the rows, the figures and the problems. */
  json?: { file: string; config: Record<string, unknown>; runs: unknown[]; extra: Record<string, unknown> };
};

export function report(input: ReportInput): void {
  const { rows, series, problems } = input;
  const cell = (text: string) => text.replaceAll("|", "\\|");
  console.log("\n| Figure | Measured (median, spread min–max) | Goal | Verdict |\n|---|---|---|---|");
  for (const row of rows) console.log(`| ${cell(row.figure)} | ${cell(row.measured)} | ${row.goal} | ${row.verdict} |`);
  if (input.comparison) {
    const { label, rows: pairs } = input.comparison;
    console.log(`\nBefore (${label}) and after (this build), measured in the same rounds, the builds taking turns:`);
    console.log("\n| Figure | Before | After | Goal | Before's verdict | After's verdict |\n|---|---|---|---|---|---|");
    for (const { figure, before, after } of pairs) {
      console.log(
        `| ${cell(figure)} | ${cell(before.measured)} | ${cell(after.measured)} | ${after.goal} | ${before.verdict} | ${after.verdict} |`,
      );
    }
  }

  console.log("\nRaw numbers (one per round):");
  for (const [name, list] of series) console.log(`  ${name}: ${list.map(formatNumber).join(", ")}`);
  for (const note of input.notes) console.log(`  ${note}`);
  if (problems.length > 0) {
    console.log("\nProblems (the figures they touch are suspect):");
    for (const problem of problems) console.log(`  ${problem}`);
  }
  console.log(`\nDone in ${((Date.now() - input.startedAt) / 1000).toFixed(0)} s.`);

  if (!input.json) return;
  const summary = Object.fromEntries(
    [...series].map(([name, list]) => [name, { median: median(list), ...spread(list), values: list }]),
  );
  const { file, config, runs, extra } = input.json;
  const comparison = input.comparison ?? null;
  fs.writeFileSync(
    file,
    `${JSON.stringify({ config, rows, comparison, summary, runs, ...extra, problems }, null, 2)}\n`,
  );
  console.log(`Raw results written to ${file}`);
}
