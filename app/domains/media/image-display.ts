/**
 * What a page needs to render a stored image, as sent to the browser (made by `imageForDisplay` in
 * image-display.server.ts), and the srcsets built from it here, on the server and in the browser alike. The
 * description is compact on purpose: every URL differs only by width, content hash and extension, so sending
 * those once instead of four srcsets of full URLs keeps the page's loader data small.
 */
export type ImageDisplay = {
  /** The image's folder: its files are served at `/media/images/<id>/<width>-<hash>.<ext>`. */
  id: string;
  width: number;
  height: number;
  /** A tiny blurred preview (data URI), shown as the background until the image has loaded. */
  placeholder: string;
  /** Every stored width, narrowest first. */
  variants: ImageWidth[];
};

/** One stored width: its height and the content hash of its file per format ('' when that format is missing). */
export type ImageWidth = readonly [width: number, height: number, avif: string, webp: string, jpeg: string];

export type ImageFormat = "avif" | "webp" | "jpeg";

/**
 * The variants the lightbox shows carry the watermark in their pixels when it is on (the pipeline draws it
 * on these: `WATERMARK_MIN_WIDTH` in images.server.ts, which a test keeps equal to this one).
 */
export const WATERMARK_MIN_WIDTH = 1280;

export const IMAGE_MEDIA_PATH = "/media/images/";

const FORMAT_INDEX: Record<ImageFormat, 2 | 3 | 4> = { avif: 2, webp: 3, jpeg: 4 };
const EXTENSIONS: Record<ImageFormat, string> = { avif: "avif", webp: "webp", jpeg: "jpg" };

export type ImageSources = {
  sources: { avif: string; webp: string };
  fallback: { src: string; srcset: string };
};

/** The URL of one stored file of the image. */
export function imageUrl(image: ImageDisplay, variant: ImageWidth, format: ImageFormat): string {
  return `${IMAGE_MEDIA_PATH}${image.id}/${variant[0]}-${variant[FORMAT_INDEX[format]]}.${EXTENSIONS[format]}`;
}

/** The narrowest width the lightbox may show: the watermark's threshold, or the widest for a smaller picture. */
export function lightboxMinWidth(image: ImageDisplay): number {
  const widest = image.variants.at(-1)?.[0] ?? 0;
  return Math.min(WATERMARK_MIN_WIDTH, widest);
}

function buildSources(image: ImageDisplay, minWidth: number, fallbackMaxWidth: number): ImageSources {
  const variants = image.variants.filter((variant) => variant[0] >= minWidth);
  const srcset = (format: ImageFormat) =>
    variants
      .filter((variant) => variant[FORMAT_INDEX[format]] !== "")
      .map((variant) => `${imageUrl(image, variant, format)} ${variant[0]}w`)
      .join(", ");
  const jpegs = variants.filter((variant) => variant[4] !== "");
  // The src for browsers without srcset: a middle size, not the largest.
  const fallback = jpegs.filter((variant) => variant[0] <= fallbackMaxWidth).at(-1) ?? jpegs[0];
  return {
    sources: { avif: srcset("avif"), webp: srcset("webp") },
    fallback: { src: fallback ? imageUrl(image, fallback, "jpeg") : "", srcset: srcset("jpeg") },
  };
}

const built = new WeakMap<ImageDisplay, { all?: ImageSources; full?: ImageSources }>();

/**
 * The `<picture>` sources of the image: `all` its widths (the grid), or `full`: only those the lightbox may
 * show, which carry the watermark when it is on, so no clean large copy is offered. Kept per image object,
 * which the server shares between requests until the image changes.
 */
export function imageSources(image: ImageDisplay, only: "all" | "full" = "all"): ImageSources {
  let entry = built.get(image);
  if (!entry) {
    entry = {};
    built.set(image, entry);
  }
  const existing = entry[only];
  if (existing) return existing;
  const sources =
    only === "full"
      ? // Its fallback src is the narrowest of the large ones.
        buildSources(image, lightboxMinWidth(image), lightboxMinWidth(image))
      : buildSources(image, 0, 960);
  entry[only] = sources;
  return sources;
}

/** The largest JPEG up to 1920 wide (else the narrowest there is), e.g. for a share card. */
export function largeImage(image: ImageDisplay): { src: string; width: number; height: number } {
  const jpegs = image.variants.filter((variant) => variant[4] !== "");
  const large = jpegs.filter((variant) => variant[0] <= 1920).at(-1) ?? jpegs.at(-1);
  return large
    ? { src: imageUrl(image, large, "jpeg"), width: large[0], height: large[1] }
    : { src: "", width: image.width, height: image.height };
}
