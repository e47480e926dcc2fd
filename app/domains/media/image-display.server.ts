import { LRUCache } from "lru-cache";
import type { ImagesTable } from "#app/db/schema.ts";
import type { ImageDisplay, ImageFormat, ImageWidth } from "./image-display.ts";

/**
 * A stored variant's key: `public/images/<imageId>/<width>-<hash>.<ext>` (see `renderVariants`), or a restricted
 * picture's `private/members/<folder>/<width>-<hash>.<ext>` (media-access.server.ts).
 */
const VARIANT_KEY = /^(public\/images|private\/members)\/([A-Za-z0-9_-]+)\/(\d+)-([0-9a-f]+)\.(avif|webp|jpg)$/;
const FORMAT_OF: Record<string, ImageFormat> = { avif: "avif", webp: "webp", jpg: "jpeg" };
const FORMAT_INDEX: Record<ImageFormat, 2 | 3 | 4> = { avif: 2, webp: 3, jpeg: 4 };

type StoredVariant = { width?: unknown; height?: unknown; key?: unknown };

/** The compact description of the variants: the image's folder and per width its height and hashes. */
function describeVariants(json: string): { id: string; members?: true; variants: ImageWidth[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = [];
  }
  const byWidth = new Map<number, [number, number, string, string, string]>();
  let id = "";
  let area = "";
  for (const variant of Array.isArray(parsed) ? (parsed as StoredVariant[]) : []) {
    const match = typeof variant?.key === "string" ? VARIANT_KEY.exec(variant.key) : null;
    // A key of another shape (or another image's folder) cannot be rebuilt from hashes: it is left out.
    if (!match) continue;
    const [, place = "", folder = "", widthText = "", hash = "", extension = ""] = match;
    if (id === "") {
      id = folder;
      area = place;
    }
    if (folder !== id || place !== area) continue;
    const width = Number(widthText);
    const height = typeof variant.height === "number" ? variant.height : 0;
    const entry = byWidth.get(width) ?? [width, height, "", "", ""];
    entry[FORMAT_INDEX[FORMAT_OF[extension] as ImageFormat]] = hash;
    byWidth.set(width, entry);
  }
  const variants = [...byWidth.values()].sort((a, b) => a[0] - b[0]);
  return area === "private/members" ? { id, members: true, variants } : { id, variants };
}

type ImageRow = Pick<ImagesTable, "width" | "height" | "placeholder" | "variants">;

/** Descriptions made so far, by the variants' JSON (which names the image and changes with every redraw). */
const DESCRIBED_CACHE_SIZE = 4096;
const described = new LRUCache<string, ImageDisplay>({ max: DESCRIBED_CACHE_SIZE });

/**
 * What a page needs to render the image (see ResponsiveImage and `imageSources`). Made once per picture and
 * then shared, the same object every time, so that the srcsets built from it are kept too.
 */
export function imageForDisplay(row: ImageRow): ImageDisplay {
  const cached = described.get(row.variants);
  if (cached && cached.width === row.width && cached.height === row.height && cached.placeholder === row.placeholder) {
    return cached;
  }
  const display: ImageDisplay = {
    ...describeVariants(row.variants),
    width: row.width,
    height: row.height,
    placeholder: row.placeholder,
  };
  described.set(row.variants, display);
  return display;
}
