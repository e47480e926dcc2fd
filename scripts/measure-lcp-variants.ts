/**
 * What stands between the gallery's phone LCP and issue 23's 1.0 s (the closing note's figures): Lighthouse's mobile
 * run (simulated throttling, as the bench's `--lighthouse`) of the same page in the variants of
 * scripts/bench/lcp-variants.ts, side by side: as sent, with its JavaScript loaded after the load event, and with its
 * style sheet inline besides. The production build serves the bench's site (24 pictures through the pipeline, 50
 * as rows, page cache on: the default); a small proxy in this process serves each variant's HTML (gzip, as the
 * site sends it) and passes every other request to the site. The proxy serves the "as sent" variant too, so the
 * variants differ in their HTML alone. Runs are interleaved (one of each variant per round); medians and spread.
 *
 *   npm run build && npx tsx scripts/measure-lcp-variants.ts [--runs 3] [--path / --path /home]
 *        [--variant "as sent" --variant "scripts after load"]   (default: every variant)
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { freePort, request, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { LCP_VARIANTS, type LcpVariant, rewritePage, styleSheetHref } from "./bench/lcp-variants.ts";
import { runLighthouse } from "./bench/lighthouse.ts";
import { startApp } from "./bench/processes.ts";
import { copyPictureRows, seedDataFolder } from "./bench/seed-data.ts";
import { describe } from "./bench/stats.ts";
import { buildIsCurrent } from "./build-if-stale.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string" },
    path: { type: "string", multiple: true },
    variant: { type: "string", multiple: true },
  },
});
const RUNS = Number(values.runs ?? 3);
const PATHS = values.path ?? ["/", "/home"];

if (!buildIsCurrent()) {
  console.error("The production build is missing or older than the sources: run `npm run build` first.");
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-lcp-"));
console.log("Seeding 24 pictures (50 as rows)…");
await seedDataFolder(dataDir, { realPictures: 24, authSecret: TEST_AUTH_SECRET });
copyPictureRows(sqliteFileIn(dataDir), 50);
const app = await startApp({ dataDir, authSecret: TEST_AUTH_SECRET, pageCache: true });
const variants = (Object.keys(LCP_VARIANTS) as LcpVariant[]).filter(
  (variant) => !values.variant || values.variant.includes(variant),
);
if (variants.length === 0) {
  console.error(`No such variant. The variants: ${Object.keys(LCP_VARIANTS).join("; ")}`);
  process.exit(1);
}
/** Each page's variants, by the proxy's address for it: /__variant/<index><page>. */
const pages = new Map<string, Buffer>();
const variantPath = (index: number, page: string) => `/__variant/${index}${page}`;

const proxyPort = await freePort();
const proxy = http.createServer((incoming, outgoing) => {
  const page = pages.get(incoming.url ?? "");
  if (page) {
    outgoing.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip" });
    outgoing.end(page);
    return;
  }
  const upstream = http.request(
    app.url(incoming.url ?? "/"),
    { method: incoming.method, headers: incoming.headers },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  upstream.on("error", () => outgoing.destroy());
  incoming.pipe(upstream);
});
await new Promise<void>((resolve) => proxy.listen(proxyPort, "127.0.0.1", resolve));

try {
  for (const page of PATHS) {
    const html = (await request(app.url(page))).body;
    const href = styleSheetHref(html);
    const styleSheet = href ? (await request(app.url(href))).body : "";
    variants.forEach((variant, index) => {
      pages.set(variantPath(index, page), zlib.gzipSync(rewritePage(html, variant, styleSheet)));
    });
  }
  const figures = new Map<string, { lcp: number[]; fcp: number[]; performance: number[]; failed: string[] }>();
  for (let round = 1; round <= RUNS; round++) {
    console.log(`Round ${round} of ${RUNS}…`);
    for (const page of PATHS) {
      for (const [index, variant] of variants.entries()) {
        const key = `${page} ${variant}`;
        const entry = figures.get(key) ?? { lcp: [], fcp: [], performance: [], failed: [] };
        figures.set(key, entry);
        const run = await runLighthouse(`http://127.0.0.1:${proxyPort}${variantPath(index, page)}`, ["performance"]);
        if (typeof run === "string") {
          entry.failed.push(run);
          continue;
        }
        entry.lcp.push(run.lcpMs / 1000);
        entry.fcp.push(run.fcpMs / 1000);
        entry.performance.push(run.scores.performance);
      }
    }
  }
  console.log(`\nLighthouse mobile (simulated throttling), median (min–max) of ${RUNS} run(s):`);
  console.log("| Page | Variant | LCP | FCP | Performance |\n|---|---|---|---|---|");
  for (const page of PATHS) {
    for (const variant of variants) {
      const entry = figures.get(`${page} ${variant}`);
      if (!entry) continue;
      const failed = entry.failed.length > 0 ? ` (${entry.failed.length} failed: ${entry.failed[0]})` : "";
      console.log(
        `| ${page} | ${variant}: ${LCP_VARIANTS[variant]} | ${describe(entry.lcp, "s")} | ${describe(entry.fcp, "s")} | ${describe(entry.performance)}${failed} |`,
      );
    }
  }
} finally {
  proxy.close();
  await app.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
