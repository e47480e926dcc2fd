import { describe, expect, it } from "vitest";
import { imageForDisplay } from "./image-display.server.ts";
import {
  carriesWatermark,
  type ImageDisplay,
  imageSources,
  largeImage,
  lightboxMinWidth,
  thumbnailWatermark,
  WATERMARK_EM_PER_CHARACTER,
  WATERMARK_MIN_WIDTH,
  watermarkLayout,
} from "./image-display.ts";
import { WATERMARK_MIN_WIDTH as PIPELINE_WATERMARK_MIN_WIDTH } from "./image-encode.server.ts";

const ID = "0b8f4a3c-1d2e-4f56-8a9b-0c1d2e3f4a5b";
// Hex like the pipeline's content hashes, and telling the format apart: a… AVIF, b… WebP, c… JPEG.
const LETTER: Record<string, string> = { avif: "a", webp: "b", jpeg: "c" };
const hashOf = (width: number, format: string) => `${LETTER[format]}${String(width).padStart(15, "0")}`;
const extension = (format: string) => (format === "jpeg" ? "jpg" : format);

/** An images row as the pipeline stores it: every width in AVIF, WebP and JPEG. */
function row(widths: number[], height = (width: number) => Math.round(width / 2)) {
  const variants = widths.flatMap((width) =>
    ["jpeg", "webp", "avif"].map((format) => ({
      width,
      height: height(width),
      format,
      key: `public/images/${ID}/${width}-${hashOf(width, format)}.${extension(format)}`,
    })),
  );
  const widest = widths.at(-1) ?? 0;
  return {
    width: widest,
    height: height(widest),
    placeholder: "data:image/webp;base64,AA==",
    variants: JSON.stringify(variants.reverse()),
  };
}

const url = (width: number, format: string) =>
  `/media/images/${ID}/${width}-${hashOf(width, format)}.${extension(format)}`;
const widthsOf = (srcset: string) => srcset.split(", ").map((entry) => Number(entry.split(" ")[1]?.slice(0, -1)));

describe("the compact image description", () => {
  it("names each width's height and hashes once, narrowest first", () => {
    const display = imageForDisplay(row([320, 640, 960, 1280, 1600]));
    expect(display.id).toBe(ID);
    expect(display.variants[0]).toEqual([320, 160, hashOf(320, "avif"), hashOf(320, "webp"), hashOf(320, "jpeg")]);
    expect(display.variants.map((variant) => variant[0])).toEqual([320, 640, 960, 1280, 1600]);
    // Every URL once as a hash of 16 characters, rather than four srcsets of full URLs.
    expect(JSON.stringify(display).length).toBeLessThan(700);
  });

  it("builds the grid's srcsets with every width, and the old fallback sizes", () => {
    const { sources, fallback } = imageSources(imageForDisplay(row([320, 640, 960, 1280, 1920, 2560])));
    expect(sources.avif).toBe([320, 640, 960, 1280, 1920, 2560].map((w) => `${url(w, "avif")} ${w}w`).join(", "));
    expect(widthsOf(sources.webp)).toEqual([320, 640, 960, 1280, 1920, 2560]);
    expect(widthsOf(fallback.srcset)).toEqual([320, 640, 960, 1280, 1920, 2560]);
    expect(fallback.src).toBe(url(960, "jpeg"));
  });

  it("offers the lightbox only the widths that carry the watermark: from 1280 on, or the widest of a smaller picture", () => {
    expect(PIPELINE_WATERMARK_MIN_WIDTH).toBe(WATERMARK_MIN_WIDTH);
    const large = imageForDisplay(row([320, 640, 960, 1280, 1600]));
    const full = imageSources(large, "full");
    for (const srcset of [full.sources.avif, full.sources.webp, full.fallback.srcset]) {
      expect(widthsOf(srcset)).toEqual([1280, 1600]);
    }
    expect(full.fallback.src).toBe(url(1280, "jpeg"));
    expect(lightboxMinWidth(large)).toBe(1280);

    const small = imageForDisplay(row([320, 640, 960]));
    const smallFull = imageSources(small, "full");
    for (const srcset of [smallFull.sources.avif, smallFull.sources.webp, smallFull.fallback.srcset]) {
      expect(widthsOf(srcset)).toEqual([960]);
    }
    expect(smallFull.fallback.src).toBe(url(960, "jpeg"));

    const tiny = imageSources(imageForDisplay(row([200])), "full");
    expect(widthsOf(tiny.fallback.srcset)).toEqual([200]);
  });

  it("offers a thumbnail under the badge only the clean widths, so the text is never seen twice", () => {
    expect(carriesWatermark(960, 1600)).toBe(false);
    expect(carriesWatermark(1280, 1600)).toBe(true);
    expect(carriesWatermark(960, 960)).toBe(true);

    const large = imageForDisplay(row([320, 640, 960, 1280, 1600]));
    expect(thumbnailWatermark(large, true)).toEqual({ only: "clean", badge: true });
    const clean = imageSources(large, "clean");
    for (const srcset of [clean.sources.avif, clean.sources.webp, clean.fallback.srcset]) {
      expect(widthsOf(srcset)).toEqual([320, 640, 960]);
    }
    expect(clean.fallback.src).toBe(url(960, "jpeg"));
    // A smaller picture's widest width carries the text (its lightbox shows it): left out under the badge.
    const small = imageForDisplay(row([320, 640, 960]));
    expect(widthsOf(imageSources(small, "clean").fallback.srcset)).toEqual([320, 640]);
    // One width only, and it carries the text: that is the watermark, no badge over it.
    const tiny = imageForDisplay(row([200]));
    expect(thumbnailWatermark(tiny, true)).toEqual({ only: "all", badge: false });
    // Watermark off: every width, no badge.
    expect(thumbnailWatermark(large, false)).toEqual({ only: "all", badge: false });
  });

  it("lays the drawn watermark out inside the picture, smaller where a long text would not fit", () => {
    const ems = (text: string) => [...text].length * WATERMARK_EM_PER_CHARACTER;
    // The usual size: a 40th of the width.
    expect(watermarkLayout(1600, 900, ems("© Lena Krause")).fontSize).toBe(40);
    expect(watermarkLayout(320, 480, ems("© Lena Krause")).fontSize).toBe(14);
    for (const [width, height] of [
      [320, 480],
      [200, 40],
      [2560, 300],
      [1280, 1920],
    ] as const) {
      for (const text of ["©", "© Lena Krause", "© Lena Krause Photography, Berlin and Hamburg, all rights reserved"]) {
        const layout = watermarkLayout(width, height, ems(text));
        expect(layout.boxWidth, `${width}×${height} ${text}`).toBeLessThanOrEqual(width);
        expect(layout.boxHeight).toBeLessThanOrEqual(height);
        // The text itself, margin on both sides, fits the box.
        expect(layout.fontSize * ems(text) + 2 * layout.padding).toBeLessThanOrEqual(width);
        expect(layout.fontSize).toBeGreaterThan(0);
      }
    }
    expect(watermarkLayout(320, 480, 40).fontSize).toBeLessThan(14);
  });

  it("gives the largest JPEG up to 1920 wide for share cards", () => {
    expect(largeImage(imageForDisplay(row([320, 640, 960, 1280, 1920, 2560])))).toEqual({
      src: url(1920, "jpeg"),
      width: 1920,
      height: 960,
    });
    expect(largeImage(imageForDisplay(row([320, 500])))).toMatchObject({ src: url(500, "jpeg"), width: 500 });
  });

  it("is made once per picture and shared, until the row changes", () => {
    const stored = row([320, 640]);
    const first = imageForDisplay(stored);
    expect(imageForDisplay({ ...stored })).toBe(first);
    expect(imageSources(first)).toBe(imageSources(imageForDisplay(stored)));
    // A redraw (new hashes) or another placeholder is another description.
    expect(imageForDisplay({ ...stored, placeholder: "data:image/webp;base64,AB==" })).not.toBe(first);
    const redrawn = row([320, 640]);
    redrawn.variants = redrawn.variants.replaceAll("b000000000000320", "b111111111111320");
    expect(imageSources(imageForDisplay(redrawn)).sources.webp).toContain("320-b111111111111320.webp 320w");
  });

  it("leaves out what it cannot rebuild and never throws on a broken row", () => {
    const broken = { width: 10, height: 10, placeholder: "", variants: "not json" };
    const display: ImageDisplay = imageForDisplay(broken);
    expect(display.variants).toEqual([]);
    expect(imageSources(display)).toEqual({ sources: { avif: "", webp: "" }, fallback: { src: "", srcset: "" } });
    expect(largeImage(display)).toEqual({ src: "", width: 10, height: 10 });
    const odd = imageForDisplay({
      ...broken,
      variants: JSON.stringify([
        { width: 320, height: 160, format: "jpeg", key: `public/images/${ID}/320-abcdef0123456789.jpg` },
        { width: 640, height: 320, format: "jpeg", key: "public/elsewhere/../x.jpg" },
        { width: 640, height: 320, format: "jpeg", key: `public/images/other/640-abcdef0123456789.jpg` },
      ]),
    });
    expect(imageSources(odd).fallback.srcset).toBe(`/media/images/${ID}/320-abcdef0123456789.jpg 320w`);
    // A width without AVIF or WebP has no entry in those sets.
    expect(imageSources(odd).sources).toEqual({ avif: "", webp: "" });
  });
});
