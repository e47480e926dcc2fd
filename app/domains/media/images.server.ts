import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { type Insertable, type Kysely, sql, type Transaction } from "kysely";
import sharp, { type Metadata, type OutputInfo } from "sharp";
import type { Database, ImagesTable } from "#app/db/schema.ts";
import { toBoolean } from "#app/db/values.ts";
import { brandDefault } from "#app/domains/settings/brand.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { carriesWatermark, WATERMARK_EM_PER_CHARACTER, watermarkLayout } from "./image-display.ts";
import { runInImageQueue } from "./image-queue.server.ts";
import type { FileStorage } from "./storage.server.ts";
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

/** Which settings decide the watermark: an empty text draws "© " and the site name (brand.ts). */
export type WatermarkSettings = Pick<SiteSettings, "watermark_enabled" | "watermark_text"> &
  Partial<Pick<SiteSettings, "site_name">>;

/** The text the settings ask to be drawn, or '' when the watermark is off. */
export function watermarkText(settings: WatermarkSettings): string {
  if (settings.watermark_enabled !== "true") return "";
  return settings.watermark_text.trim() || brandDefault("watermark_text", settings.site_name ?? "");
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

const watermarkSvgText = (text: string, x: number, y: number, fontSize: number) =>
  `<text x="${x}" y="${y}" text-anchor="end" font-family="sans-serif" font-weight="bold" font-size="${fontSize}"
    fill="#ffffff" fill-opacity="0.75" stroke="#000000" stroke-opacity="0.55"
    stroke-width="${Math.max(1, fontSize / 14)}" paint-order="stroke">${escapeXml(text)}</text>`;

/**
 * How wide the text is drawn, in ems: measured by drawing it once at 100 px (the font librsvg finds here may
 * be wider than the usual estimate, e.g. for capitals), so that `watermarkLayout` can keep it inside the picture.
 */
async function measureWatermarkEms(text: string): Promise<number> {
  const size = 100;
  const estimate = [...text].length * WATERMARK_EM_PER_CHARACTER;
  const canvas = Math.ceil(size * (estimate * 2 + 2));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${canvas}" height="${size * 2}">${watermarkSvgText(text, canvas - size, size * 1.5, size)}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let left = info.width;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < left; x++) {
      if ((data[(y * info.width + x) * info.channels + 3] ?? 0) > 0) {
        left = x;
        break;
      }
    }
  }
  // Ink from `left` to the anchor at `canvas - size` (the stroke adds a little on either side).
  return left >= info.width ? estimate : Math.max(estimate, (canvas - size - left) / size);
}

/** The watermark as a PNG the size of its box (see `watermarkLayout`), rendered by sharp (librsvg) with a generic font: nothing fetched. */
async function watermarkOverlay(
  text: string,
  textEms: number,
  imageWidth: number,
  imageHeight: number,
): Promise<Buffer> {
  const { fontSize, padding, boxWidth, boxHeight } = watermarkLayout(imageWidth, imageHeight, textEms);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${boxWidth}" height="${boxHeight}">
  ${watermarkSvgText(text, boxWidth - padding, boxHeight - padding, fontSize)}
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export function contentHash(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex").slice(0, 16);
}

type Rendered = { variants: ImageVariant[]; files: { key: string; data: Buffer }[]; placeholder: string };

/**
 * Encoder settings. Chosen by measurement on a 12-megapixel photo (docs/decisions/002-image-encoding.md,
 * `scripts/measure-image-pipeline.ts --compare-encodings`); the option exists for that measurement.
 */
export type ImageEncoding = {
  avifQuality: number;
  /** 0 (fastest) to 9; the largest share of the pipeline's time. */
  avifEffort: number;
  /** Wider variants get no AVIF (WebP and JPEG only). */
  avifMaxWidth: number;
  webpQuality: number;
  jpegQuality: number;
};

export const IMAGE_ENCODING: ImageEncoding = {
  avifQuality: 55,
  avifEffort: 0,
  avifMaxWidth: Number.POSITIVE_INFINITY,
  webpQuality: 78,
  jpegQuality: 80,
};

/** An image to render: its bytes (or file) and its size after the EXIF orientation. */
type ImageSource = { input: string | Buffer; width: number; height: number };

type Pixels = { data: Buffer; info: OutputInfo };

function rawInput(pixels: Pixels) {
  const { width, height, channels } = pixels.info;
  return { raw: { width, height, channels } };
}

/**
 * Renders the given widths (a subset of `variantWidths(source.width)`) in memory (each file is small):
 * oriented, sRGB, all metadata stripped. The source is decoded once, straight to the widest width asked
 * for (sharp shrinks JPEG and WebP while decoding when that width allows it); the smaller widths are resized
 * from those pixels, which is much cheaper than decoding a 12-megapixel photo again for each. Every width's
 * height is computed from the source, so it does not depend on which width it was resized from.
 */
async function renderWidths(
  imageId: string,
  source: ImageSource,
  widths: readonly number[],
  options: { watermark: string; encoding: ImageEncoding },
): Promise<Rendered> {
  const { watermark, encoding } = options;
  const widest = variantWidths(source.width).at(-1) ?? source.width;
  const heightOf = (targetWidth: number) => Math.max(1, Math.round((source.height * targetWidth) / source.width));
  const targets = [...widths].sort((a, b) => b - a);
  const first = targets[0];
  if (first === undefined) return { variants: [], files: [], placeholder: "" };
  const decoded: Pixels = await sharp(source.input, decodeOptions)
    .autoOrient()
    .resize({ width: first, height: heightOf(first), fit: "fill", withoutEnlargement: true })
    .toColourspace("srgb")
    .raw({ depth: "uchar" })
    .toBuffer({ resolveWithObject: true });

  // Every width's pixels first (resizing is cheap), watermarked where they carry it...
  const textEms = watermark ? await measureWatermarkEms(watermark) : 0;
  const pixelsByWidth: { clean: Pixels; pixels: Pixels }[] = [];
  for (const targetWidth of targets) {
    const clean: Pixels =
      targetWidth === decoded.info.width
        ? decoded
        : await sharp(decoded.data, rawInput(decoded))
            .resize({ width: targetWidth, height: heightOf(targetWidth), fit: "fill" })
            .raw({ depth: "uchar" })
            .toBuffer({ resolveWithObject: true });
    let pixels = clean;
    if (watermark && carriesWatermark(targetWidth, widest)) {
      const overlay = await watermarkOverlay(watermark, textEms, clean.info.width, clean.info.height);
      pixels = await sharp(clean.data, rawInput(clean))
        .composite([{ input: overlay, gravity: "southeast" }])
        .raw({ depth: "uchar" })
        .toBuffer({ resolveWithObject: true });
    }
    pixelsByWidth.push({ clean, pixels });
  }
  // ...then every encoding, the largest first, ENCODER_PARALLELISM at a time (see there).
  const jobs = pixelsByWidth.flatMap(({ pixels }) =>
    FORMATS.filter((format) => format !== "avif" || pixels.info.width <= encoding.avifMaxWidth).map((format) => ({
      pixels,
      format,
    })),
  );
  const encoded = await mapWithLimit(jobs, ENCODER_PARALLELISM, ({ pixels, format }) => {
    const image = sharp(pixels.data, rawInput(pixels));
    if (format === "avif") return image.avif({ quality: encoding.avifQuality, effort: encoding.avifEffort }).toBuffer();
    if (format === "webp") return image.webp({ quality: encoding.webpQuality }).toBuffer();
    return image.flatten({ background: "#ffffff" }).jpeg({ quality: encoding.jpegQuality, mozjpeg: true }).toBuffer();
  });

  const entries = jobs
    .map(({ pixels, format }, index) => ({ pixels, format, data: encoded[index] as Buffer }))
    .sort((a, b) => a.pixels.info.width - b.pixels.info.width);
  const variants: ImageVariant[] = [];
  const files: Rendered["files"] = [];
  for (const { pixels, format, data } of entries) {
    const key = `${IMAGE_PREFIX}${imageId}/${pixels.info.width}-${contentHash(data)}.${EXTENSIONS[format]}`;
    files.push({ key, data });
    variants.push({ width: pixels.info.width, height: pixels.info.height, format, key });
  }
  const smallest = pixelsByWidth.at(-1)?.clean;
  return { variants, files, placeholder: smallest ? await placeholderOf(smallest) : "" };
}

/**
 * How many encodings run at once: two keep two cores busy (sharp gives each operation one thread here, as
 * on any glibc Linux), and two of libuv's four threads stay free for the file reads of pages being served.
 */
const ENCODER_PARALLELISM = 2;

/** `map` with at most `limit` calls in flight, taken in order; the results in the input's order. */
async function mapWithLimit<T, R>(items: readonly T[], limit: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await map(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The tiny blurred preview, from the smallest variant's pixels before any watermark. */
async function placeholderOf(pixels: Pixels): Promise<string> {
  const tiny = await sharp(pixels.data, rawInput(pixels))
    .resize(16, 16, { fit: "inside" })
    .webp({ quality: 40 })
    .toBuffer();
  return `data:image/webp;base64,${tiny.toString("base64")}`;
}

/** Every served file of one image (see renderWidths). */
async function renderVariants(
  imageId: string,
  source: string | Buffer,
  watermark: string,
  encoding: ImageEncoding = IMAGE_ENCODING,
): Promise<Rendered> {
  const { width, height } = await inspectImage(source);
  return renderWidths(imageId, { input: source, width, height }, variantWidths(width), { watermark, encoding });
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
  /** False when only the first size exists: `finishImage` makes the others once the row is written. */
  ready: boolean;
  /** Removes the files again, when the row will not be written after all. */
  discard: () => Promise<void>;
};

/**
 * The size made before an upload is answered when the others follow later: the smallest, 320 pixels wide
 * (or the picture's own width when it is narrower). It is the cheapest to make (JPEG decodes straight at
 * 1/8 scale), it fills the admin list's 64-pixel thumbnail even on a 3x screen, and the placeholder is
 * taken from its pixels; visitors see nothing of the picture until every size exists.
 */
export function firstWidth(width: number): number {
  return variantWidths(width)[0] ?? width;
}

/**
 * The slow half of `storeImage`: recognises the image, keeps the original privately and writes its
 * variants, without touching the database, so that no transaction is held open while sharp works.
 * With `remainingSizes: "later"` only the first size (see `firstWidth`) is made and the row says it is not
 * ready; `finishImage` makes the rest after the row is written. Refuses non-images and images over the
 * pixel limit (ImageError) and then leaves no file behind.
 */
export async function prepareImage(
  tempFilePath: string,
  options: {
    watermark?: string;
    storage: FileStorage;
    remainingSizes?: "now" | "later";
    encoding?: ImageEncoding;
  },
): Promise<PreparedImage> {
  const storage = options.storage;
  const watermark = options.watermark?.trim() ?? "";
  const { type, width, height } = await inspectImage(tempFilePath);
  const id = randomUUID();
  const originalKey = `${ORIGINAL_PREFIX}${id}.${ORIGINAL_EXTENSIONS[type]}`;
  const written: string[] = [];
  const discard = () => storage.remove(written).catch(() => {});
  const allWidths = variantWidths(width);
  const widths = options.remainingSizes === "later" ? [firstWidth(width)] : allWidths;
  const ready = widths.length === allWidths.length;
  try {
    await storage.save(originalKey, fs.createReadStream(tempFilePath));
    written.push(originalKey);
    let rendered: Rendered;
    try {
      rendered = await renderWidths(id, { input: tempFilePath, width, height }, widths, {
        watermark,
        encoding: options.encoding ?? IMAGE_ENCODING,
      });
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
      ready,
      created_at: new Date(),
    };
    return { id, row, ready, discard };
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
  options: { watermark?: string; storage: FileStorage },
): Promise<string> {
  const prepared = await prepareImage(tempFilePath, options);
  try {
    return await insertImageRow(db, prepared);
  } catch (error) {
    await prepared.discard();
    throw error;
  }
}

async function readAll(storage: FileStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.readStream(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const FORMAT_ORDER = new Map(FORMATS.map((format, index) => [format, index]));

/**
 * Makes the sizes an image prepared with `remainingSizes: "later"` still lacks, from its private original,
 * with `watermark` (the one the settings ask for now), then records them and marks the image ready in one
 * statement: files before the row, as everywhere. Sizes already there that never carry the watermark are
 * kept. Returns "gone" when there is nothing to do: the image was deleted (before or while this ran; the
 * files it wrote are removed again) or is ready already.
 */
export async function finishImage(
  db: Kysely<Database>,
  imageId: string,
  options: { watermark: string; storage: FileStorage; encoding?: ImageEncoding },
): Promise<"finished" | "gone"> {
  const storage = options.storage;
  const watermark = options.watermark.trim();
  const pending = () =>
    db
      .selectFrom("images")
      .select(["original_key", "width", "height", "variants"])
      .where("id", "=", imageId)
      .where("ready", "=", false)
      .executeTakeFirst();
  const row = await pending();
  if (!row) return "gone";
  let original: Buffer;
  try {
    original = await readAll(storage, row.original_key);
  } catch (error) {
    // Deleted between reading the row and its original.
    if (!(await pending())) return "gone";
    throw error;
  }
  const widths = variantWidths(row.width);
  const widest = widths.at(-1) ?? row.width;
  const existing = parseVariants(row.variants);
  const kept = existing.filter((variant) => widths.includes(variant.width) && !carriesWatermark(variant.width, widest));
  const keptWidths = new Set(kept.map((variant) => variant.width));
  const rendered = await renderWidths(
    imageId,
    { input: original, width: row.width, height: row.height },
    widths.filter((width) => !keptWidths.has(width)),
    { watermark, encoding: options.encoding ?? IMAGE_ENCODING },
  );
  const written = await writeFiles(storage, rendered.files);
  const variants = [...kept, ...rendered.variants].sort(
    (a, b) => a.width - b.width || (FORMAT_ORDER.get(a.format) ?? 0) - (FORMAT_ORDER.get(b.format) ?? 0),
  );
  let result: { numUpdatedRows: bigint };
  try {
    // Only while it is still pending: a delete in the meantime wins.
    result = await db
      .updateTable("images")
      .set({ variants: JSON.stringify(variants), watermark, ready: true })
      .where("id", "=", imageId)
      .where("ready", "=", false)
      .executeTakeFirst();
  } catch (error) {
    await storage.remove(written).catch(() => {});
    throw error;
  }
  if (Number(result.numUpdatedRows) === 0) {
    await storage.remove(written);
    return "gone";
  }
  const now = new Set(variants.map((variant) => variant.key));
  await storage.remove(existing.map((variant) => variant.key).filter((key) => !now.has(key)));
  return "finished";
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
  // The keys as of the delete itself, not a read before it: sizes that finishImage records meanwhile are
  // removed too (PostgreSQL re-reads the row the delete waited for).
  const row = await db
    .deleteFrom("images")
    .where("id", "=", id)
    .returning(["original_key", "variants"])
    .executeTakeFirst();
  return row ? keysOf(row) : null;
}

export async function removeImageFiles(keys: string[] | null, storage: FileStorage): Promise<void> {
  if (keys && keys.length > 0) await storage.remove(keys);
}

/** Deletes the image's row, then its files. Returns false when there was no such image. */
export async function deleteImage(db: Kysely<Database>, id: string, storage: FileStorage): Promise<boolean> {
  const keys = await deleteImageRow(db, id);
  await removeImageFiles(keys, storage);
  return keys !== null;
}

// Moved to image-display.server.ts (computed once per picture, sent compact); kept here for existing imports.
export { imageForDisplay } from "./image-display.server.ts";

/**
 * Redraws the variants of every gallery image whose recorded watermark differs from what the settings ask
 * for, from its private original. Call it after the watermark settings change (it may take a while: run it
 * without awaiting when answering a request). Refreshes run one after another in the order they were asked
 * for, so quick successive changes end with the last one's watermark. They share the image queue with the
 * finishing of uploads and skip images that are not ready yet: finishing one draws the watermark the
 * settings ask for when it runs. Returns how many images were redrawn and how many failed.
 */
export function refreshWatermarks(
  db: Kysely<Database>,
  settings: WatermarkSettings,
  options: { storage: FileStorage },
): Promise<{ updated: number; failed: number }> {
  return runInImageQueue(() => redrawWatermarks(db, settings, options));
}

async function redrawWatermarks(
  db: Kysely<Database>,
  settings: WatermarkSettings,
  options: { storage: FileStorage },
): Promise<{ updated: number; failed: number }> {
  const storage = options.storage;
  const wanted = watermarkText(settings);
  const rows = await db
    .selectFrom("images")
    .select(["id", "original_key", "variants", "watermark"])
    .where("watermark", "!=", wanted)
    .where("ready", "=", true)
    // Gallery pictures and blog posts' pictures (covers, and pictures in a post's text as `image:<id>`) carry the
    // watermark; video posters keep theirs clean.
    .where((eb) =>
      eb.or([
        eb("id", "in", eb.selectFrom("gallery_images").select("image_id")),
        eb("id", "in", eb.selectFrom("posts").select("cover_image_id").where("cover_image_id", "is not", null)),
        eb.exists(
          eb
            .selectFrom("posts")
            .select("posts.id")
            .where((inner) =>
              inner.or([
                inner("posts.body", "like", sql<string>`'%(image:' || images.id || ')%'`),
                inner("posts.body_de", "like", sql<string>`'%(image:' || images.id || ')%'`),
              ]),
            ),
        ),
      ]),
    )
    .execute();
  let updated = 0;
  let failed = 0;
  for (const row of rows) {
    let written: string[] = [];
    try {
      const rendered = await renderVariants(row.id, await readAll(storage, row.original_key), wanted);
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
      getLogger().error({ err: error, imageId: row.id }, "Could not redraw the watermark of an image");
      failed++;
    }
  }
  return { updated, failed };
}

/** A start-up sweep's grace period, and the storage and clock it runs on (the site's and the present by default). */
export type SweepOptions = { olderThanMs: number; storage: FileStorage; now?: number };

/**
 * Removes files under `prefix` that no key in `referenced` names and that are older than the grace period,
 * except those under one of `sparedPrefixes` (work in progress).
 */
export async function sweepUnreferenced(
  prefix: string,
  referenced: Set<string>,
  options: SweepOptions & { sparedPrefixes?: string[] },
): Promise<string[]> {
  const { olderThanMs } = options;
  const storage = options.storage;
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  const pageSize = 1000;
  const orphans: string[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = await storage.list(prefix, { limit: pageSize, offset });
    for (const file of page) {
      if (referenced.has(file.key) || now - file.modifiedAt.getTime() <= olderThanMs) continue;
      if (options.sparedPrefixes?.some((spared) => file.key.startsWith(spared))) continue;
      orphans.push(file.key);
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
 * flight are spared, and so are the files of images not ready yet; also old temp files in `tempDirs`.
 * Runs at start-up (server/app.ts).
 */
export async function sweepOrphanFiles(
  db: Kysely<Database>,
  options: SweepOptions & { tempDirs?: string[] },
): Promise<{ removed: string[]; tempFilesRemoved: number }> {
  const storage = options.storage;
  const now = options.now ?? Date.now();
  const rows = await db.selectFrom("images").select(["id", "original_key", "variants", "ready"]).execute();
  const referenced = new Set(rows.flatMap(keysOf));
  // An image not ready yet is being finished (or will be, by finishPendingImages at the same start-up),
  // which may reuse files an interrupted run left under its folder: they are not orphans.
  const sparedPrefixes = rows.filter((row) => !toBoolean(row.ready)).map((row) => `${IMAGE_PREFIX}${row.id}/`);
  const removed = [
    ...(await sweepUnreferenced(IMAGE_PREFIX, referenced, {
      olderThanMs: options.olderThanMs,
      storage,
      now,
      sparedPrefixes,
    })),
    ...(await sweepUnreferenced(ORIGINAL_PREFIX, referenced, { olderThanMs: options.olderThanMs, storage, now })),
  ];
  let tempFilesRemoved = 0;
  for (const directory of options.tempDirs ?? []) {
    tempFilesRemoved += await removeOldFiles(directory, options.olderThanMs, now);
  }
  return { removed, tempFilesRemoved };
}
