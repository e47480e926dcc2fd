// Times the image pipeline on one 12-megapixel JPEG (4240 × 2832), on a throw-away SQLite database and storage:
// a gallery upload as the upload route makes it, "answered" when createGalleryEntry returns (original stored,
// first size made, rows written) and "ready" when every width exists in AVIF, WebP and JPEG (the background
// queue is idle), with (--watermark) or without the watermark.
// --compare-encodings instead makes all sizes at once with each AVIF effort (0–4) and each choice of which
// widths get AVIF, and prints time and bytes per setting (the measurement behind IMAGE_ENCODING).
// Usage: npx tsx scripts/measure-image-pipeline.ts [--watermark] [--runs 3] [--compare-encodings]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrations.server.ts";
import { createGalleryEntry } from "#app/domains/gallery/gallery-upload.server.ts";
import { IMAGE_ENCODING, type ImageEncoding, type ImageVariant } from "#app/domains/media/image-encode.server.ts";
import { whenImageQueueIdle } from "#app/domains/media/image-finishing.server.ts";
import { prepareImage } from "#app/domains/media/image-pipeline.server.ts";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import { createLocalStorage, type FileStorage } from "#app/domains/media/storage.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { photoLikeJpeg } from "./bench/photo-like-jpeg.ts";
import { median } from "./bench/stats.ts";

const WIDTH = 4240;
const HEIGHT = 2832;
const watermark = process.argv.includes("--watermark") ? "© Vitrine" : "";
const runsIndex = process.argv.indexOf("--runs");
const runs = runsIndex > 0 ? Number(process.argv[runsIndex + 1]) : 3;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
/** CPU time of the whole process (every thread) since `since`, in ms: steadier than wall time on a shared machine. */
const cpuSince = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

function bytesOf(dir: string, variants: ImageVariant[], format?: ImageVariant["format"]) {
  return variants
    .filter((variant) => !format || variant.format === format)
    .reduce((sum, variant) => sum + fs.statSync(path.join(dir, "storage", variant.key)).size, 0);
}

/** Per width, the AVIF file if there is one, else the WebP one. */
function sentBytes(dir: string, variants: ImageVariant[]) {
  const widths = [...new Set(variants.map((variant) => variant.width))];
  return widths.reduce((sum, width) => {
    const ofWidth = variants.filter((variant) => variant.width === width);
    const chosen = ofWidth.find((variant) => variant.format === "avif") ?? ofWidth.find((v) => v.format === "webp");
    return sum + (chosen ? bytesOf(dir, [chosen]) : 0);
  }, 0);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-measure-"));
try {
  const file = path.join(dir, "photo-12mp.jpg");
  fs.writeFileSync(file, await photoLikeJpeg(WIDTH, HEIGHT));
  const database = openDatabase({ sqliteFile: path.join(dir, "measure.sqlite") });
  await migrateToLatest(database.db, database.kind);
  await insertMissingDefaults(database.db);
  // The background work draws the watermark the settings ask for.
  await database.db
    .updateTable("site_settings")
    .set({ value: watermark ? "true" : "false" })
    .where("key", "=", "watermark_enabled")
    .execute();
  await database.db
    .updateTable("site_settings")
    .set({ value: watermark })
    .where("key", "=", "watermark_text")
    .execute();
  const storage: FileStorage = createLocalStorage({ root: path.join(dir, "storage"), secret: "measure" });
  console.log(
    `Input: ${WIDTH}×${HEIGHT} (${((WIDTH * HEIGHT) / 1e6).toFixed(1)} MP) JPEG, ${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MB; ` +
      `watermark ${watermark ? "on" : "off"}; sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}; ` +
      `${os.cpus().length} CPU cores, sharp concurrency ${sharp.concurrency()}; ${runs} runs each, medians`,
  );

  if (process.argv.includes("--compare-encodings")) {
    const choices: [string, number][] = [
      ["all widths", Number.POSITIVE_INFINITY],
      ["≤ 1920", 1920],
      ["≤ 1280", 1280],
      ["none", 0],
    ];
    // "Sent": what a browser that takes AVIF fetches if it loads each width once (AVIF where there is one,
    // else WebP): the visitors' side of the trade, where "stored" is the disk's.
    console.log("| AVIF effort | AVIF widths | all sizes, wall (s) | CPU (s) | stored | AVIF | sent (AVIF browser) |");
    console.log("| ---: | --- | ---: | ---: | ---: | ---: | ---: |");
    const settings = [0, 1, 2, 3, 4].flatMap((effort) =>
      choices
        .filter(([, avifMaxWidth]) => avifMaxWidth > 0 || effort === 0)
        .map(([label, avifMaxWidth]) => ({
          label,
          effort: avifMaxWidth === 0 ? "–" : String(effort),
          encoding: { ...IMAGE_ENCODING, avifEffort: effort, avifMaxWidth } satisfies ImageEncoding,
          times: [] as number[],
          cpu: [] as number[],
          variants: [] as ImageVariant[],
        })),
    );
    // Round after round over every setting, so that a change in the machine's load hits them all alike.
    for (let run = 0; run < runs; run++) {
      for (const setting of settings) {
        const started = performance.now();
        const cpuStarted = process.cpuUsage();
        const prepared = await prepareImage(file, { watermark, storage, encoding: setting.encoding });
        setting.times.push(performance.now() - started);
        setting.cpu.push(cpuSince(cpuStarted));
        if (setting.variants.length > 0) await storage.remove(setting.variants.map((variant) => variant.key));
        setting.variants = parseVariants(String(prepared.row.variants));
      }
    }
    for (const { label, effort, times, cpu, variants } of settings) {
      console.log(
        `| ${effort} | ${label} | ${(median(times) / 1000).toFixed(2)} | ${(median(cpu) / 1000).toFixed(2)} | ${kib(bytesOf(dir, variants))} | ${kib(bytesOf(dir, variants, "avif"))} | ${kib(sentBytes(dir, variants))} |`,
      );
    }
  } else {
    const answered: number[] = [];
    const ready: number[] = [];
    const cpu: number[] = [];
    const actor = { id: "measure", email: "measure@example.test" };
    for (let run = 1; run <= runs; run++) {
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      const pictureId = await createGalleryEntry(database.db, actor, file, {
        originalName: "photo-12mp.jpg",
        watermark,
        storage,
      });
      const answeredAt = performance.now() - started;
      await whenImageQueueIdle();
      const readyAt = performance.now() - started;
      const cpuUsed = cpuSince(cpuStarted);
      answered.push(answeredAt);
      ready.push(readyAt);
      cpu.push(cpuUsed);
      const row = await database.db
        .selectFrom("gallery_images as g")
        .innerJoin("images as i", "i.id", "g.image_id")
        .select(["i.variants", "i.ready"])
        .where("g.id", "=", pictureId)
        .executeTakeFirstOrThrow();
      if (!row.ready) throw new Error("the queue is idle but the image is not ready");
      const variants = parseVariants(row.variants);
      console.log(
        `Run ${run}: answered after ${seconds(answeredAt)}, all sizes ready after ${seconds(readyAt)} ` +
          `(CPU ${seconds(cpuUsed)}): ${variants.length} files ` +
          `(${[...new Set(variants.map((variant) => variant.width))].join(", ")} px wide × ` +
          `${[...new Set(variants.map((variant) => variant.format))].join("/")}), ${kib(bytesOf(dir, variants))} in all`,
      );
    }
    console.log(
      `Median: answered after ${seconds(median(answered))}, all sizes ready after ${seconds(median(ready))} ` +
        `(CPU ${seconds(median(cpu))})`,
    );
  }
  await database.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
