// Times the image pipeline on one 12-megapixel JPEG (4240 × 2832): every width in AVIF, WebP and JPEG, the
// placeholder and (with --watermark) the watermark, on a throw-away SQLite database and storage.
// Usage: npx tsx scripts/measure-image-pipeline.ts [--watermark] [--runs 3]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrations.server.ts";
import { parseVariants, storeImage } from "#app/domains/media/images.server.ts";
import { createLocalStorage } from "#app/domains/media/storage.server.ts";

const WIDTH = 4240;
const HEIGHT = 2832;
const watermark = process.argv.includes("--watermark") ? "© Vitrine" : "";
const runsIndex = process.argv.indexOf("--runs");
const runs = runsIndex > 0 ? Number(process.argv[runsIndex + 1]) : 3;

/** A photo-like 12 MP JPEG: noise over gradients, so the encoders work as hard as on a real photo. */
async function makePhoto(file: string) {
  const noise = await sharp({
    create: {
      width: WIDTH,
      height: HEIGHT,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d4e89"/><stop offset="1" stop-color="#f2a541"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="1400" cy="1000" r="700" fill="#c0392b"/></svg>`,
  );
  await sharp(gradient)
    .composite([{ input: noise, blend: "soft-light" }])
    .jpeg({ quality: 90 })
    .toFile(file);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-measure-"));
try {
  const file = path.join(dir, "photo-12mp.jpg");
  await makePhoto(file);
  const database = openDatabase({ sqliteFile: path.join(dir, "measure.sqlite") });
  await migrateToLatest(database.db, database.kind);
  const storage = createLocalStorage({ root: path.join(dir, "storage"), secret: "measure" });
  console.log(
    `Input: ${WIDTH}×${HEIGHT} (${((WIDTH * HEIGHT) / 1e6).toFixed(1)} MP) JPEG, ${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MB; ` +
      `watermark ${watermark ? "on" : "off"}; sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}; ${os.cpus().length} CPU cores`,
  );
  const times: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const started = performance.now();
    const id = await storeImage(database.db, file, { watermark, storage });
    const elapsed = performance.now() - started;
    times.push(elapsed);
    const row = await database.db
      .selectFrom("images")
      .select("variants")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const variants = parseVariants(row.variants);
    const bytes = variants.reduce((sum, variant) => sum + fs.statSync(path.join(dir, "storage", variant.key)).size, 0);
    console.log(
      `Run ${run}: ${(elapsed / 1000).toFixed(2)} s for ${variants.length} files ` +
        `(${[...new Set(variants.map((variant) => variant.width))].join(", ")} px wide × AVIF/WebP/JPEG), ${(bytes / 1024).toFixed(0)} KiB in all`,
    );
  }
  times.sort((a, b) => a - b);
  console.log(`Median: ${((times[Math.floor(times.length / 2)] ?? 0) / 1000).toFixed(2)} s`);
  await database.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
