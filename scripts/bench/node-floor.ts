import { describe, formatNumber, median, type Row, range } from "./stats.ts";

/*
 * The rows of the bench's Node yardstick (scripts/bench/node-floor.mjs, measured by site-rounds.ts beside nginx):
 * what Node's own `node:http` answers with the app's bytes and nothing else. Reported, not held to a goal: they say
 * how much of the app's distance to nginx is Node's, and what latency Node alone has at the same load.
 */

const PAGES = ["/", "/home"] as const;
const GOAL = "none set (reported)";

export function nodeFloorRows(values: (name: string) => number[]): Row[] {
  const rows: Row[] = [];
  for (const page of PAGES) {
    const figure = `Yardstick: \`node:http\` alone sending \`${page}\`'s bytes, req/s ÷ nginx (10 connections); and the app (page cache on) ÷ it`;
    const floor = values(`node ${page} c10`);
    if (floor.length === 0) {
      rows.push({ figure, measured: "n/a", goal: GOAL, verdict: "skipped (no node:http run)" });
      continue;
    }
    const ofNginx = median(floor) / median(values(`nginx ${page} c10`));
    const appOfFloor = median(values(`app ${page} c10`)) / median(floor);
    rows.push({
      figure,
      measured: `${formatNumber(ofNginx)} (rounds ${range(values(`node/nginx ${page}`))}), node:http ${describe(floor, "req/s")}; the app ÷ node:http ${formatNumber(appOfFloor)} (rounds ${range(values(`app/node ${page}`))})`,
      goal: GOAL,
      verdict: Number.isFinite(ofNginx) ? "reported" : "skipped",
    });
  }
  for (const page of PAGES) {
    const figure = `Yardstick: latency at 50 connections, \`${page}\`'s bytes, p99 of \`node:http\` alone and of nginx`;
    const floor = values(`node p99 ${page} c50`);
    if (floor.length === 0) {
      rows.push({ figure, measured: "n/a", goal: GOAL, verdict: "skipped (no node:http run)" });
      continue;
    }
    rows.push({
      figure,
      measured: `node:http ${describe(floor, "ms")} (its mean by Little's law, connections ÷ req/s: ${describe(values(`node mean ${page} c50`), "ms")}); nginx ${describe(values(`nginx p99 ${page} c50`), "ms")}`,
      goal: GOAL,
      verdict: "reported",
    });
  }
  return rows;
}
