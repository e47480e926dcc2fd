// Measures what a visitor's first load of the gallery page transfers with 50 published pictures: HTML, JS, CSS
// and images, as sent over the wire (gzip where the server compresses), in a real Chromium at 1280×900.
// Starts the production server on a throw-away data directory (building first when the build is stale).
// Usage: npx tsx scripts/measure-gallery-weight.ts [--count 50] [--widths 1280,390]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrations.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { trackRequestsOf, waitForQuiet } from "#tests/support/quiet-network.ts";
import { startServer } from "#tests/support/server-process.ts";

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const count = argument("--count", 50);
const widthsIndex = process.argv.indexOf("--widths");
const viewportWidths = (widthsIndex > 0 ? (process.argv[widthsIndex + 1] ?? "") : "1280,390").split(",").map(Number);

/**
 * Photo-like pictures: a gradient with detail at every scale (coarse blotches, then fine grain), so that the
 * small grid sizes still carry texture as real photos do and the encoded sizes are realistic.
 */
async function photo(index: number): Promise<Buffer> {
  const width = 2000;
  const height = 1333;
  const hue = (index * 47) % 360;
  const noise = (w: number, h: number, sigma: number) =>
    sharp({
      create: {
        width: w,
        height: h,
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma },
      },
    })
      .png()
      .toBuffer()
      .then((buffer) => sharp(buffer).resize(width, height, { kernel: "cubic" }).png().toBuffer());
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,30%)"/><stop offset="1" stop-color="hsl(${(hue + 70) % 360},65%,70%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  return sharp(svg)
    .composite([
      { input: await noise(40, 27, 60), blend: "overlay" },
      { input: await noise(250, 167, 50), blend: "soft-light" },
      { input: await noise(width, height, 25), blend: "soft-light" },
    ])
    .jpeg({ quality: 88 })
    .toBuffer();
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-weight-"));
try {
  const database = openDatabase({ sqliteFile: path.join(dataDir, "vitrine.sqlite") });
  await migrateToLatest(database.db, database.kind);
  await insertMissingDefaults(database.db);
  const storage = storageIn(dataDir);
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    await createGalleryPicture(database.db, storage, {
      title: `Picture ${index + 1}`,
      description: "A photograph used to measure the page weight.",
      category: index % 2 ? "Nature" : "City",
      photo: await photo(index),
      watermark: "© Vitrine",
    });
  }
  await database.close();
  console.log(`Seeded ${count} pictures (2000×1333) in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  const server = await startServer({ dataDir });
  const browser = await chromium.launch({
    executablePath: fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined,
    args: ["--headless", "--no-sandbox"],
  });
  try {
    for (const viewportWidth of viewportWidths) {
      // A narrow viewport stands for a phone, with its high-density screen.
      const deviceScaleFactor = viewportWidth < 800 ? 3 : 1;
      const context = await browser.newContext({ viewport: { width: viewportWidth, height: 900 }, deviceScaleFactor });
      trackRequestsOf(context);
      const page = await context.newPage();
      const finished: Promise<{ type: string; url: string; bytes: number }>[] = [];
      page.on("requestfinished", (request) => {
        finished.push(
          request.sizes().then((sizes) => ({
            type: request.resourceType(),
            url: request.url(),
            bytes: sizes.responseBodySize + sizes.responseHeadersSize,
          })),
        );
      });
      await page.goto(server.url("/"));
      await waitForQuiet(page);
      const resources = await Promise.all(finished);
      const groups = new Map<string, { files: number; bytes: number }>();
      for (const resource of resources) {
        const kind =
          resource.type === "document"
            ? "html"
            : resource.type === "stylesheet"
              ? "css"
              : resource.type === "script"
                ? "js"
                : resource.type === "image"
                  ? "images"
                  : resource.type;
        const group = groups.get(kind) ?? { files: 0, bytes: 0 };
        group.files += 1;
        group.bytes += resource.bytes;
        groups.set(kind, group);
      }
      const total = [...groups.values()].reduce((sum, group) => sum + group.bytes, 0);
      const shown = await page.locator("main ul.grid img").count();
      console.log(
        `First load of / at ${viewportWidth}×900, ${deviceScaleFactor}× pixels (${shown} pictures in the grid, ${count} published):`,
      );
      for (const [kind, group] of [...groups].sort()) {
        console.log(
          `  ${kind.padEnd(7)} ${String(group.files).padStart(3)} files ${(group.bytes / 1024).toFixed(1).padStart(8)} KiB`,
        );
      }
      console.log(
        `  total   ${String(resources.length).padStart(3)} files ${(total / 1024).toFixed(1).padStart(8)} KiB (transfer size, headers included)`,
      );
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
