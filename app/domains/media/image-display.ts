/**
 * What a page needs to render a stored image, as sent to the browser (made by `imageForDisplay` in
 * image-display.server.ts), and the srcsets built from it here, on the server and in the browser alike. The
 * description is compact on purpose: every URL differs only by width, content hash and extension, so sending
 * those once instead of four srcsets of full URLs keeps the page's loader data small.
 */
export type ImageDisplay = {
  /**
   * The image's folder: its files are served at `/media/images/<id>/<width>-<hash>.<ext>`, or for a restricted
   * picture (`members`) at `/media/members/<id>/…`, a folder name of its own, after the reader's check.
   */
  id: string;
  members?: true;
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
 * on these: `WATERMARK_MIN_WIDTH` in image-encode.server.ts, which a test keeps equal to this one). Which view shows which widths: docs/decisions/006-watermark-once.md.
 */
export const WATERMARK_MIN_WIDTH = 1280;

/**
 * Whether a variant of this width carries the watermark in its pixels (when it is on): every width from
 * WATERMARK_MIN_WIDTH, and the widest of a smaller picture (what its lightbox shows). The pipeline draws by
 * this rule and the pages choose by it (docs/decisions/006-watermark-once.md).
 */
export function carriesWatermark(width: number, widest: number): boolean {
  return width >= WATERMARK_MIN_WIDTH || width === widest;
}

/**
 * How a thumbnail (gallery grid, home page) shows the watermark, so it is seen exactly once: with the
 * watermark on, only the clean widths are offered and the text badge lies over them; a picture with no clean
 * width (one tiny variant) shows its drawn-in text and no badge. With the watermark off: every width, no badge.
 */
export function thumbnailWatermark(
  image: ImageDisplay,
  watermarkOn: boolean,
): { only: "all" | "clean"; badge: boolean } {
  if (!watermarkOn) return { only: "all", badge: false };
  const widest = image.variants.at(-1)?.[0] ?? 0;
  const clean = image.variants.some((variant) => !carriesWatermark(variant[0], widest));
  return clean ? { only: "clean", badge: true } : { only: "all", badge: false };
}

/** Width of a bold sans-serif character, in ems, assumed where the drawn text cannot be measured. */
export const WATERMARK_EM_PER_CHARACTER = 0.62;

/**
 * Where the drawn-in watermark goes on a picture `width`×`height` pixels whose text is `textEms` ems wide:
 * bottom right, its font a 40th of the width (at least 14 px), made smaller where the text would not fit, so
 * the whole text always lies inside the picture (which every view shows whole). `boxWidth`×`boxHeight` is the
 * bottom-right box it is drawn in, text and margin.
 */
export function watermarkLayout(
  width: number,
  height: number,
  textEms: number,
): { fontSize: number; padding: number; boxWidth: number; boxHeight: number } {
  const margin = 0.8;
  const wanted = Math.max(14, Math.round(width / 40));
  // The box is textEms + 2 margins wide and 1.4 + 1 margin high (in font sizes); it stays within 96 % of the picture.
  const fitsWidth = (0.96 * width) / (textEms + 2 * margin);
  const fitsHeight = (0.96 * height) / (1.4 + margin);
  const fontSize = Math.max(1, Math.min(wanted, Math.floor(fitsWidth), Math.floor(fitsHeight)));
  const padding = Math.round(fontSize * margin);
  return {
    fontSize,
    padding,
    boxWidth: Math.min(width, Math.ceil(fontSize * textEms + padding * 2)),
    boxHeight: Math.min(height, Math.round(fontSize * 1.4 + padding)),
  };
}

export const IMAGE_MEDIA_PATH = "/media/images/";
/** Where a restricted picture's files are served, to whoever may see it (app/web/serve-member-media.server.ts). */
export const MEMBER_MEDIA_PATH = "/media/members/";

const FORMAT_INDEX: Record<ImageFormat, 2 | 3 | 4> = { avif: 2, webp: 3, jpeg: 4 };
const EXTENSIONS: Record<ImageFormat, string> = { avif: "avif", webp: "webp", jpeg: "jpg" };

export type ImageSources = {
  sources: { avif: string; webp: string };
  fallback: { src: string; srcset: string };
};

/** The URL of one stored file of the image. */
export function imageUrl(image: ImageDisplay, variant: ImageWidth, format: ImageFormat): string {
  return `${image.members ? MEMBER_MEDIA_PATH : IMAGE_MEDIA_PATH}${image.id}/${variant[0]}-${variant[FORMAT_INDEX[format]]}.${EXTENSIONS[format]}`;
}

/** The narrowest width the lightbox may show: the watermark's threshold, or the widest for a smaller picture. */
export function lightboxMinWidth(image: ImageDisplay): number {
  const widest = image.variants.at(-1)?.[0] ?? 0;
  return Math.min(WATERMARK_MIN_WIDTH, widest);
}

function buildSources(
  image: ImageDisplay,
  keep: (variant: ImageWidth) => boolean,
  fallbackMaxWidth: number,
): ImageSources {
  const variants = image.variants.filter(keep);
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

export type ImageSelection = "all" | "full" | "clean";

const built = new WeakMap<ImageDisplay, Partial<Record<ImageSelection, ImageSources>>>();

/**
 * The `<picture>` sources of the image: `all` its widths; `full`: only those the lightbox may show, which
 * carry the watermark when it is on, so no clean large copy is offered; `clean`: only those that never carry
 * it (a thumbnail with the badge over it, see `thumbnailWatermark`). Kept per image object, which the server
 * shares between requests until the image changes.
 */
export function imageSources(image: ImageDisplay, only: ImageSelection = "all"): ImageSources {
  let entry = built.get(image);
  if (!entry) {
    entry = {};
    built.set(image, entry);
  }
  const existing = entry[only];
  if (existing) return existing;
  const widest = image.variants.at(-1)?.[0] ?? 0;
  const sources =
    only === "full"
      ? // Its fallback src is the narrowest of the large ones.
        buildSources(image, (variant) => variant[0] >= lightboxMinWidth(image), lightboxMinWidth(image))
      : only === "clean"
        ? buildSources(image, (variant) => !carriesWatermark(variant[0], widest), 960)
        : buildSources(image, () => true, 960);
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
