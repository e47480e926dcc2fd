import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Insertable, Kysely, Transaction } from "kysely";
import sharp, { type Metadata } from "sharp";
import type { Database, ImagesTable } from "#app/db/schema.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import type { ImageDisplay } from "./image-display.ts";
import { type FileStorage, getStorage, publicUrl } from "./storage.server.ts";
import { detectImageType, type ImageType } from "./upload.server.ts";

/** Served widths; an image is never scaled up, so a smaller one gets only the steps below its own width. */
export const IMAGE_WIDTHS = [320, 640, 960, 1280, 1920, 2560] as const;
/** The variants the lightbox shows carry the watermark in their pixels; the grid's thumbnails do not. */
export const WATERMARK_MIN_WIDTH = 1280;
/** Larger images are refused from their header, before a single pixel is decoded. */
export const MAX_IMAGE_PIXELS = 100_000_000;

const FORMATS = ["avif", "webp", "jpeg"] as const;
type VariantFormat = (typeof FORMATS)[number];
const EXTENSIONS: Record<VariantFormat, string> = { avif: "avif", webp: "webp", jpeg: "jpg" };
const ORIGINAL_EXTENSIONS: Record<ImageType, string> = {
  jpeg: "jpg",
  png: "png",
  webp: "webp",
  avif: "avif",
  gif: "gif",
};

export const IMAGE_PREFIX = "public/images/";
export const ORIGINAL_PREFIX = "private/originals/";

export type ImageVariant = { width: number; height: number; format: VariantFormat; key: string };

export type ImageErrorCode = "not_image" | "too_large" | "unreadable";

/** A refused image; the message is meant for the person who uploaded it. */
export class ImageError extends Error {
  override name = "ImageError";
  constructor(
    readonly code: ImageErrorCode,
    message: string,
  ) {
    super(message);
  }
}

type Db = Kysely<Database> | Transaction<Database>;

export const decodeOptions = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" } as const;

/** The text the settings ask to be drawn, or '' when the watermark is off. */
export function watermarkText(settings: Pick<SiteSettings, "watermark_enabled" | "watermark_text">): string {
  return settings.watermark_enabled === "true" ? settings.watermark_text.trim() : "";
}

/**
 * Checks an image from its header only: a recognised format by content (never by name) whose pixel
 * count is within MAX_IMAGE_PIXELS. Returns the size after applying the EXIF orientation.
 */
export async function inspectImage(
  source: string | Buffer,
): Promise<{ type: ImageType; width: number; height: number }> {
  const type = await detectImageType(source);
  if (!type) throw new ImageError("not_image", "not a supported image (JPEG, PNG, WebP, AVIF or GIF)");
  let metadata: Metadata;
  try {
    // metadata() reads the header only; nothing is decoded yet.
    metadata = await sharp(source, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageError("unreadable", "the image could not be read (damaged or incomplete file)");
  }
  const sharpFormat = metadata.format === "heif" ? "avif" : metadata.format;
  if (sharpFormat !== type || !metadata.width || !metadata.height) {
    throw new ImageError("not_image", "not a supported image (JPEG, PNG, WebP, AVIF or GIF)");
  }
  const pixels = metadata.width * metadata.height;
  if (pixels > MAX_IMAGE_PIXELS) {
    throw new ImageError(
      "too_large",
      `the image has ${Math.round(pixels / 1_000_000)} megapixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} are accepted`,
    );
  }
  const oriented = metadata.autoOrient ?? { width: metadata.width, height: metadata.height };
  return { type, width: oriented.width, height: oriented.height };
}

/** The widths made for an image `width` pixels wide: the steps below it, plus its own width when it is between steps. */
export function variantWidths(width: number): number[] {
  const steps: number[] = IMAGE_WIDTHS.filter((step) => step <= width);
  const largest = steps.at(-1);
  if (width < (IMAGE_WIDTHS.at(-1) ?? 0) && (largest === undefined || width > largest * 1.1)) {
    steps.push(width);
  }
  return steps;
}

function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[char] ?? char,
  );
}

/** The watermark as a PNG the size of its text, rendered by sharp (librsvg) with a generic font: nothing fetched. */
async function watermarkOverlay(text: string, imageWidth: number, imageHeight: number): Promise<Buffer> {
  const fontSize = Math.max(14, Math.round(imageWidth / 40));
  const padding = Math.round(fontSize * 0.8);
  const width = Math.min(imageWidth, Math.round(fontSize * 0.62 * [...text].length + padding * 2));
  const height = Math.min(imageHeight, Math.round(fontSize * 1.4 + padding));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <text x="${width - padding}" y="${height - padding}" text-anchor="end" font-family="sans-serif" font-weight="bold"
    font-size="${fontSize}" fill="#ffffff" fill-opacity="0.75" stroke="#000000" stroke-opacity="0.55"
    stroke-width="${Math.max(1, fontSize / 14)}" paint-order="stroke">${escapeXml(text)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export function contentHash(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex").slice(0, 16);
}

type Rendered = { variants: ImageVariant[]; files: { key: string; data: Buffer }[]; placeholder: string };

/** Every served file of one image, in memory (each is small): oriented, sRGB, all metadata stripped. */
async function renderVariants(imageId: string, source: string | Buffer, watermark: string): Promise<Rendered> {
  const { width, height } = await inspectImage(source);
  const variants: ImageVariant[] = [];
  const files: Rendered["files"] = [];
  const widths = variantWidths(width);
  for (const targetWidth of widths) {
    let pipeline = sharp(source, decodeOptions)
      .autoOrient()
      .resize({ width: targetWidth, withoutEnlargement: true })
      .toColourspace("srgb");
    // The large variants carry it, and so does the largest of a smaller picture: the lightbox shows only those.
    if (watermark && (targetWidth >= WATERMARK_MIN_WIDTH || targetWidth === widths.at(-1))) {
      const targetHeight = Math.max(1, Math.round((height * targetWidth) / width));
      const overlay = await watermarkOverlay(watermark, targetWidth, targetHeight);
      pipeline = pipeline.composite([{ input: overlay, gravity: "southeast" }]);
    }
    // Decoded and resized once per width, then encoded three times from the same pixels.
    const { data, info } = await pipeline.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const encoded = await Promise.all(
      FORMATS.map(async (format) => {
        const image = sharp(data, raw);
        if (format === "avif") return image.avif({ quality: 55, effort: 2 }).toBuffer();
        if (format === "webp") return image.webp({ quality: 78 }).toBuffer();
        return image.flatten({ background: "#ffffff" }).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
      }),
    );
    for (const [index, format] of FORMATS.entries()) {
      const output = encoded[index] as Buffer;
      const key = `${IMAGE_PREFIX}${imageId}/${info.width}-${contentHash(output)}.${EXTENSIONS[format]}`;
      files.push({ key, data: output });
      variants.push({ width: info.width, height: info.height, format, key });
    }
  }
  const tiny = await sharp(source, decodeOptions)
    .autoOrient()
    .resize(16, 16, { fit: "inside" })
    .toColourspace("srgb")
    .webp({ quality: 40 })
    .toBuffer();
  return { variants, files, placeholder: `data:image/webp;base64,${tiny.toString("base64")}` };
}

/** Writes the files that do not exist yet (same key means same content); returns the keys it wrote. */
async function writeFiles(storage: FileStorage, files: Rendered["files"]): Promise<string[]> {
  const written: string[] = [];
  try {
    for (const file of files) {
      if (await storage.stat(file.key)) continue;
      await storage.save(file.key, file.data);
      written.push(file.key);
    }
  } catch (error) {
    await storage.remove(written).catch(() => {});
    throw error;
  }
  return written;
}

/** An image whose files are stored but whose row is not written yet (see `prepareImage`). */
export type PreparedImage = {
  id: string;
  row: Insertable<ImagesTable>;
  /** Removes the files again, when the row will not be written after all. */
  discard: () => Promise<void>;
};

/**
 * The slow half of `storeImage`: recognises the image, keeps the original privately and writes every
 * variant, without touching the database, so that no transaction is held open while sharp works.
 * Refuses non-images and images over the pixel limit (ImageError) and then leaves no file behind.
 */
export async function prepareImage(
  tempFilePath: string,
  options: { watermark?: string; storage?: FileStorage } = {},
): Promise<PreparedImage> {
  const storage = options.storage ?? getStorage();
  const watermark = options.watermark?.trim() ?? "";
  const { type, width, height } = await inspectImage(tempFilePath);
  const id = randomUUID();
  const originalKey = `${ORIGINAL_PREFIX}${id}.${ORIGINAL_EXTENSIONS[type]}`;
  const written: string[] = [];
  const discard = () => storage.remove(written).catch(() => {});
  try {
    await storage.save(originalKey, fs.createReadStream(tempFilePath));
    written.push(originalKey);
    let rendered: Rendered;
    try {
      rendered = await renderVariants(id, tempFilePath, watermark);
    } catch (error) {
      if (error instanceof ImageError) throw error;
      throw new ImageError("unreadable", "the image could not be processed (damaged or incomplete file)");
    }
    written.push(...(await writeFiles(storage, rendered.files)));
    const row: Insertable<ImagesTable> = {
      id,
      original_key: originalKey,
      original_format: type,
      width,
      height,
      placeholder: rendered.placeholder,
      variants: JSON.stringify(rendered.variants),
      watermark,
      created_at: new Date(),
    };
    return { id, row, discard };
  } catch (error) {
    await discard();
    throw error;
  }
}

/** Writes the row of a prepared image (inside the caller's transaction, if it has one). */
export async function insertImageRow(db: Db, prepared: PreparedImage): Promise<string> {
  await db.insertInto("images").values(prepared.row).execute();
  return prepared.id;
}

/**
 * Stores an uploaded image: files first (`prepareImage`), then its row, so no row ever points at a
 * missing file; returns the new image's id.
 */
export async function storeImage(
  db: Db,
  tempFilePath: string,
  options: { watermark?: string; storage?: FileStorage } = {},
): Promise<string> {
  const prepared = await prepareImage(tempFilePath, options);
  try {
    return await insertImageRow(db, prepared);
  } catch (error) {
    await prepared.discard();
    throw error;
  }
}

export function parseVariants(json: string): ImageVariant[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as ImageVariant[]) : [];
  } catch {
    return [];
  }
}

function keysOf(row: Pick<ImagesTable, "original_key" | "variants">): string[] {
  return [row.original_key, ...parseVariants(row.variants).map((variant) => variant.key)];
}

/**
 * Deletes the row and returns the keys of its files, for `removeImageFiles` once the transaction has
 * committed (row first, then files: a crash in between leaves only unreferenced files, which the sweep removes).
 * Whatever references the image (a gallery entry) must be deleted first, in the same transaction.
 */
export async function deleteImageRow(db: Db, id: string): Promise<string[] | null> {
  const row = await db
    .selectFrom("images")
    .select(["original_key", "variants"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  await db.deleteFrom("images").where("id", "=", id).execute();
  return keysOf(row);
}

export async function removeImageFiles(keys: string[] | null, storage: FileStorage = getStorage()): Promise<void> {
  if (keys && keys.length > 0) await storage.remove(keys);
}

/** Deletes the image's row, then its files. Returns false when there was no such image. */
export async function deleteImage(db: Kysely<Database>, id: string, storage?: FileStorage): Promise<boolean> {
  const keys = await deleteImageRow(db, id);
  await removeImageFiles(keys, storage ?? getStorage());
  return keys !== null;
}

/** What a page needs to render the image: srcsets per format, sizes, placeholder (see ResponsiveImage). */
export function imageForDisplay(row: Pick<ImagesTable, "width" | "height" | "placeholder" | "variants">): ImageDisplay {
  const variants = parseVariants(row.variants).sort((a, b) => a.width - b.width);
  const widest = variants.at(-1)?.width ?? 0;
  // The variants that carry the watermark when it is on: at least WATERMARK_MIN_WIDTH wide, or the widest.
  const fullMinWidth = Math.min(WATERMARK_MIN_WIDTH, widest);
  const srcsets = (minWidth: number) => {
    const srcset = (format: VariantFormat) =>
      variants
        .filter((variant) => variant.format === format && variant.width >= minWidth)
        .map((variant) => `${publicUrl(variant.key)} ${variant.width}w`)
        .join(", ");
    return { avif: srcset("avif"), webp: srcset("webp"), jpeg: srcset("jpeg") };
  };
  const jpegs = variants.filter((variant) => variant.format === "jpeg");
  // The fallback src for browsers without srcset: a middle size, not the largest.
  const fallback = jpegs.filter((variant) => variant.width <= 960).at(-1) ?? jpegs[0];
  const large = jpegs.filter((variant) => variant.width <= 1920).at(-1) ?? jpegs.at(-1);
  const full = jpegs.find((variant) => variant.width >= fullMinWidth);
  const all = srcsets(0);
  const fullSets = srcsets(fullMinWidth);
  return {
    width: row.width,
    height: row.height,
    placeholder: row.placeholder,
    sources: { avif: all.avif, webp: all.webp },
    fallback: { src: fallback ? publicUrl(fallback.key) : "", srcset: all.jpeg },
    full: {
      sources: { avif: fullSets.avif, webp: fullSets.webp },
      fallback: { src: full ? publicUrl(full.key) : "", srcset: fullSets.jpeg },
    },
    large: large
      ? { src: publicUrl(large.key), width: large.width, height: large.height }
      : { src: "", width: row.width, height: row.height },
  };
}

/** The refresh running now, so that the next one starts only once it is done. */
let refreshQueue: Promise<unknown> = Promise.resolve();

/**
 * Redraws the variants of every gallery image whose recorded watermark differs from what the settings ask
 * for, from its private original. Call it after the watermark settings change (it may take a while: run it
 * without awaiting when answering a request). Refreshes run one after another in the order they were asked
 * for, so quick successive changes end with the last one's watermark. Returns how many images were redrawn
 * and how many failed.
 */
export function refreshWatermarks(
  db: Kysely<Database>,
  settings: Pick<SiteSettings, "watermark_enabled" | "watermark_text">,
  options: { storage?: FileStorage } = {},
): Promise<{ updated: number; failed: number }> {
  const run = refreshQueue.then(() => redrawWatermarks(db, settings, options));
  refreshQueue = run.catch(() => {});
  return run;
}

async function redrawWatermarks(
  db: Kysely<Database>,
  settings: Pick<SiteSettings, "watermark_enabled" | "watermark_text">,
  options: { storage?: FileStorage },
): Promise<{ updated: number; failed: number }> {
  const storage = options.storage ?? getStorage();
  const wanted = watermarkText(settings);
  const rows = await db
    .selectFrom("images")
    .select(["id", "original_key", "variants", "watermark"])
    .where("watermark", "!=", wanted)
    // Only gallery pictures carry the watermark; video posters keep theirs clean.
    .where("id", "in", (eb) => eb.selectFrom("gallery_images").select("image_id"))
    .execute();
  let updated = 0;
  let failed = 0;
  for (const row of rows) {
    let written: string[] = [];
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of await storage.readStream(row.original_key)) chunks.push(chunk as Buffer);
      const rendered = await renderVariants(row.id, Buffer.concat(chunks), wanted);
      written = await writeFiles(storage, rendered.files);
      // Only if nobody changed the row meanwhile (a second refresh, or a delete).
      const result = await db
        .updateTable("images")
        .set({ variants: JSON.stringify(rendered.variants), watermark: wanted })
        .where("id", "=", row.id)
        .where("watermark", "=", row.watermark)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) {
        await storage.remove(written);
        continue;
      }
      const kept = new Set(rendered.variants.map((variant) => variant.key));
      const stale = parseVariants(row.variants)
        .map((variant) => variant.key)
        .filter((key) => !kept.has(key));
      await storage.remove(stale);
      updated++;
    } catch (error) {
      await storage.remove(written).catch(() => {});
      console.error(`Could not redraw the watermark of image ${row.id}:`, error);
      failed++;
    }
  }
  return { updated, failed };
}

/** A start-up sweep's grace period, and the storage and clock it runs on (the site's and the present by default). */
export type SweepOptions = { olderThanMs: number; storage?: FileStorage; now?: number };

/** Removes files under `prefix` that no key in `referenced` names and that are older than the grace period. */
export async function sweepUnreferenced(
  prefix: string,
  referenced: Set<string>,
  options: SweepOptions,
): Promise<string[]> {
  const { olderThanMs } = options;
  const storage = options.storage ?? getStorage();
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  const pageSize = 1000;
  const orphans: string[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = await storage.list(prefix, { limit: pageSize, offset });
    for (const file of page) {
      if (!referenced.has(file.key) && now - file.modifiedAt.getTime() > olderThanMs) orphans.push(file.key);
    }
    if (page.length < pageSize) break;
  }
  for (const key of orphans) {
    await storage.remove(key);
    removed.push(key);
  }
  return removed;
}

async function removeOldFiles(directory: string, olderThanMs: number, now: number): Promise<number> {
  let count = 0;
  const entries = await fsp.readdir(directory, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(directory, entry.name);
    const info = await fsp.stat(file).catch(() => null);
    if (info && now - info.mtimeMs > olderThanMs) {
      await fsp.rm(file, { force: true });
      count++;
    }
  }
  return count;
}

/**
 * Removes the image pipeline's files that no `images` row references (left by an interrupted upload or
 * a crash between deleting a row and its files), once they are older than `olderThanMs` so uploads in
 * flight are spared; also old temp files in `tempDirs`. Runs at start-up (server/app.ts).
 */
export async function sweepOrphanFiles(
  db: Kysely<Database>,
  options: SweepOptions & { tempDirs?: string[] },
): Promise<{ removed: string[]; tempFilesRemoved: number }> {
  const storage = options.storage ?? getStorage();
  const now = options.now ?? Date.now();
  const rows = await db.selectFrom("images").select(["original_key", "variants"]).execute();
  const referenced = new Set(rows.flatMap(keysOf));
  const removed = [
    ...(await sweepUnreferenced(IMAGE_PREFIX, referenced, { olderThanMs: options.olderThanMs, storage, now })),
    ...(await sweepUnreferenced(ORIGINAL_PREFIX, referenced, { olderThanMs: options.olderThanMs, storage, now })),
  ];
  let tempFilesRemoved = 0;
  for (const directory of options.tempDirs ?? []) {
    tempFilesRemoved += await removeOldFiles(directory, options.olderThanMs, now);
  }
  return { removed, tempFilesRemoved };
}
