// Measures how the server's work for the public pages grows with the gallery: 50 published pictures (made
// through the real image pipeline) against 10,000 (the 50 copied as rows, never reprocessed). For `/`, its last
// page, a category filter and `/home` it times (median of many runs) the route loaders in this process, and the
// whole uncached request against the production server (`node server.js`, built first when stale), then prints
// the ×ratio 10,000 vs 50 and the HTML and loader-data bytes of each page.
// Usage: npx tsx scripts/measure-render.ts [--runs 200] [--http-runs 100] [--template /tmp/vitrine-measure-50]
//   --template keeps the 50 real pictures in that folder and reuses them next time (same pictures before/after).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { RouterContextProvider } from "react-router";
import { openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrations.server.ts";
import { GALLERY_PAGE_SIZE } from "#app/domains/gallery/gallery.ts";
import { insertMissingDefaults, readSettings } from "#app/domains/settings/settings.server.ts";
import { localizedSetting } from "#app/domains/settings/settings.ts";
import { parseEnv } from "#app/lib/env.server.ts";
import { renderMarkdown } from "#app/lib/markdown.server.ts";
import { loader as galleryLoader } from "#app/routes/gallery.tsx";
import { loader as homeLoader } from "#app/routes/home.tsx";
import { getDb, getRuntime, startRuntime, stopRuntime } from "#app/runtime/runtime.server.ts";
import { runtimeContext } from "#app/runtime/runtime-context.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { startServer } from "#tests/support/server-process.ts";
import { copyPictureRows } from "./bench/seed-data.ts";
import { median } from "./bench/stats.ts";

const argument = (name: string, fallback: string) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? (process.argv[index + 1] ?? fallback) : fallback;
};
const runs = Number(argument("--runs", "200"));
const httpRuns = Number(argument("--http-runs", "100"));
const templateDir = argument("--template", "");
const CATEGORIES = ["Landscapes", "Portraits", "Cities", "Animals", "Abstract"];
const SMALL = 50;
const LARGE = 10_000;

/** The 50 real pictures (1400×933: five widths per format, two of them in the lightbox's set), published. */
async function makeTemplate(dir: string) {
  const database = openDatabase({ sqliteFile: path.join(dir, "vitrine.sqlite") });
  await migrateToLatest(database.db, database.kind);
  await insertMissingDefaults(database.db);
  const storage = storageIn(dir);
  for (let index = 0; index < SMALL; index++) {
    const category = CATEGORIES[index % CATEGORIES.length] ?? "";
    await createGalleryPicture(database.db, storage, {
      title: `Picture ${index + 1}`,
      title_de: `Bild ${index + 1}`,
      description: `A description of picture ${index + 1}, long enough to look like a real caption.`,
      category,
      category_de: `${category} (de)`,
      width: 1400,
      height: 933,
      hue: (index * 47) % 360,
    });
    if ((index + 1) % 10 === 0) console.error(`  ${index + 1}/${SMALL} pictures made`);
  }
  await database.close();
}

async function timeMedian(count: number, work: () => Promise<unknown>): Promise<number> {
  for (let index = 0; index < Math.min(20, count); index++) await work();
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return median(times);
}

type PageName = "/" | "last page" | "category" | "/home";
type Result = {
  loaderMs: Record<PageName, number>;
  httpMs: Record<PageName, number>;
  html: Record<PageName, number>;
  data: Record<PageName, number>;
  /** Pictures on the page (a page of 50 pictures' last page or category has fewer than one of 10,000's). */
  pictures: Record<PageName, number>;
};

const paths = (total: number): Record<PageName, string> => ({
  "/": "/",
  "last page": `/?page=${Math.ceil(total / GALLERY_PAGE_SIZE)}`,
  category: `/?category=${CATEGORIES[2]}`,
  "/home": "/home",
});

/** What the root loader does with the settings on every page (the footer's two Markdown documents). */
async function rootSettingsWork() {
  const settings = await readSettings(getDb());
  renderMarkdown(localizedSetting(settings, "footer_imprint_content", "en"));
  renderMarkdown(localizedSetting(settings, "footer_privacy_content", "en"));
}

async function loaderTimes(total: number): Promise<Record<PageName, number>> {
  const result = {} as Record<PageName, number>;
  for (const [name, pathname] of Object.entries(paths(total)) as [PageName, string][]) {
    const url = new URL(pathname, "http://localhost");
    const args = () => {
      const context = new RouterContextProvider();
      context.set(runtimeContext, getRuntime());
      return { request: new Request(url), url, params: {}, context };
    };
    const routeLoader = name === "/home" ? homeLoader : galleryLoader;
    result[name] = await timeMedian(runs, async () => {
      await rootSettingsWork();
      // biome-ignore lint/suspicious/noExplicitAny: the route's generated argument type is not needed to call it here.
      await routeLoader(args() as any);
    });
  }
  return result;
}

/** The bytes of the inline scripts that carry the loader data (React Router's stream of route data). */
function loaderDataBytes(html: string): number {
  let bytes = 0;
  for (const match of html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = match[1] ?? "";
    if (body.includes("__reactRouterContext") || body.includes("streamController")) bytes += Buffer.byteLength(body);
  }
  return bytes;
}

async function measure(dataDir: string, total: number): Promise<Result> {
  process.env.DATA_DIR = dataDir;
  process.env.BASE_URL = "http://localhost:3000";
  await startRuntime(parseEnv({ DATA_DIR: dataDir, BASE_URL: "http://localhost:3000" }));
  const loaderMs = await loaderTimes(total);
  await stopRuntime();

  const server = await startServer({ dataDir });
  // The start-up storage sweeps read every image row: let them finish before timing.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const httpMs = {} as Record<PageName, number>;
  const html = {} as Record<PageName, number>;
  const data = {} as Record<PageName, number>;
  const pictures = {} as Record<PageName, number>;
  try {
    for (const [name, pathname] of Object.entries(paths(total)) as [PageName, string][]) {
      const fetchPage = async () => {
        const response = await fetch(server.url(pathname), { headers: { "accept-encoding": "identity" } });
        if (!response.ok) throw new Error(`${pathname}: ${response.status}`);
        return response.text();
      };
      const body = await fetchPage();
      html[name] = Buffer.byteLength(body);
      pictures[name] = (body.match(/<picture>/g) ?? []).length;
      data[name] = loaderDataBytes(body);
      httpMs[name] = await timeMedian(httpRuns, fetchPage);
    }
  } finally {
    await server.stop();
  }
  return { loaderMs, httpMs, html, data, pictures };
}

const template = templateDir || fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-measure-template-"));
if (!fs.existsSync(path.join(template, "vitrine.sqlite"))) {
  console.error(`Making ${SMALL} pictures in ${template}…`);
  fs.mkdirSync(template, { recursive: true });
  await makeTemplate(template);
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-measure-"));
try {
  const results: Record<number, Result> = {};
  for (const total of [SMALL, LARGE]) {
    const dir = path.join(work, String(total));
    fs.cpSync(template, dir, { recursive: true });
    if (total > SMALL) copyPictureRows(path.join(dir, "vitrine.sqlite"), total);
    console.error(`Measuring ${total} pictures…`);
    results[total] = await measure(dir, total);
  }
  const small = results[SMALL] as Result;
  const large = results[LARGE] as Result;
  const row = (cells: (string | number)[]) => console.log(cells.map((cell) => String(cell).padStart(14)).join(""));
  console.log(`\nMedian of ${runs} loader runs and ${httpRuns} HTTP requests; ms`);
  row(["page", "loader@50", "loader@10k", "×", "http@50", "http@10k", "×", "pictures", "HTML B", "data B"]);
  for (const name of Object.keys(small.loaderMs) as PageName[]) {
    row([
      name,
      small.loaderMs[name].toFixed(3),
      large.loaderMs[name].toFixed(3),
      (large.loaderMs[name] / small.loaderMs[name]).toFixed(2),
      small.httpMs[name].toFixed(2),
      large.httpMs[name].toFixed(2),
      (large.httpMs[name] / small.httpMs[name]).toFixed(2),
      `${small.pictures[name]}/${large.pictures[name]}`,
      small.html[name],
      small.data[name],
    ]);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
  if (!templateDir) fs.rmSync(template, { recursive: true, force: true });
}
