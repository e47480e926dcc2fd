import { createHash } from "node:crypto";
import type { Metadata, OutputInfo } from "sharp";
import { loadSharp } from "#app/lib/sharp.server.ts";
import { carriesWatermark, WATERMARK_EM_PER_CHARACTER, watermarkLayout } from "./image-display.ts";
import type { FileStorage } from "./storage.server.ts";
import { detectImageType, type ImageType } from "./upload.server.ts";

/*
 * How a picture becomes served files: the header check, the widths, the encoders and the watermark drawn into
 * the pixels. No database here: image-pipeline.server.ts decides what to render and when, image-rows.server.ts
 * records it.
 */

/** Served widths; an image is never scaled up, so a smaller one gets only the steps below its own width. */
export const IMAGE_WIDTHS = [320, 640, 960, 1280, 1920, 2560] as const;
/** The variants the lightbox shows carry the watermark in their pixels; the grid's thumbnails do not. */
export const WATERMARK_MIN_WIDTH = 1280;
/** Larger images are refused from their header, before a single pixel is decoded. */
export const MAX_IMAGE_PIXELS = 100_000_000;

export const FORMATS = ["avif", "webp", "jpeg"] as const;
type VariantFormat = (typeof FORMATS)[number];
const EXTENSIONS: Record<VariantFormat, string> = { avif: "avif", webp: "webp", jpeg: "jpg" };

export const IMAGE_PREFIX = "public/images/";
export const ORIGINAL_PREFIX = "private/originals/";

export type ImageVariant = { width: number; height: number; format: VariantFormat; key: string };

export type ImageErrorCode = "not_image" | "too_large" | "unreadable";

/** A refused image; the message is meant for the person who uploaded it. */
export class ImageError extends Error {
  override name = "ImageError";
  readonly code: ImageErrorCode;
  constructor(code: ImageErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export const decodeOptions = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" } as const;

/**
 * Checks an image from its header only: a recognised format by content (never by name) whose pixel
 * count is within MAX_IMAGE_PIXELS. Returns the size after applying the EXIF orientation. `recognised`: the type
 * an upload's first bytes were already recognised as (receiveUpload), so they are not read again.
 */
export async function inspectImage(
  source: string | Buffer,
  recognised?: ImageType,
): Promise<{ type: ImageType; width: number; height: number }> {
  const type = recognised ?? (await detectImageType(source));
  if (!type) throw new ImageError("not_image", "not a supported image (JPEG, PNG, WebP, AVIF or GIF)");
  let metadata: Metadata;
  const sharp = await loadSharp();
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
  const sharp = await loadSharp();
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
  return (await loadSharp())(Buffer.from(svg)).png().toBuffer();
}

export function contentHash(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex").slice(0, 16);
}

export type Rendered = { variants: ImageVariant[]; files: { key: string; data: Buffer }[]; placeholder: string };

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
export async function renderWidths(
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
  const sharp = await loadSharp();
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
  const tiny = await (await loadSharp())(pixels.data, rawInput(pixels))
    .resize(16, 16, { fit: "inside" })
    .webp({ quality: 40 })
    .toBuffer();
  return `data:image/webp;base64,${tiny.toString("base64")}`;
}

/** Every served file of one image (see renderWidths). */
export async function renderVariants(
  imageId: string,
  source: string | Buffer,
  watermark: string,
  encoding: ImageEncoding = IMAGE_ENCODING,
): Promise<Rendered> {
  const { width, height } = await inspectImage(source);
  return renderWidths(imageId, { input: source, width, height }, variantWidths(width), { watermark, encoding });
}

/** Writes the files that do not exist yet (same key means same content); returns the keys it wrote. */
export async function writeFiles(storage: FileStorage, files: Rendered["files"]): Promise<string[]> {
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

export async function readAll(storage: FileStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.readStream(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
