import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import sharp, { type Sharp } from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { imageForDisplay } from "./image-display.server.ts";
import { imageSources } from "./image-display.ts";
import {
  IMAGE_WIDTHS,
  ImageError,
  MAX_IMAGE_PIXELS,
  variantWidths,
  WATERMARK_MIN_WIDTH,
} from "./image-encode.server.ts";
import { storeImage } from "./image-pipeline.server.ts";
import { deleteImage, parseVariants } from "./image-rows.server.ts";
import { sweepOrphanFiles } from "./image-sweeps.server.ts";
import { refreshWatermarks } from "./image-watermarks.server.ts";
import { createLocalStorage, type FileStorage } from "./storage.server.ts";

/** Whether a TIFF/EXIF block (as sharp's metadata gives it) has a GPS IFD pointer (tag 0x8825) in IFD0. */
function hasGpsInfo(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const tiff = exif.subarray(0, 6).toString("latin1") === "Exif\0\0" ? exif.subarray(6) : exif;
  const little = tiff.subarray(0, 2).toString("latin1") === "II";
  const u16 = (offset: number) => (little ? tiff.readUInt16LE(offset) : tiff.readUInt16BE(offset));
  const u32 = (offset: number) => (little ? tiff.readUInt32LE(offset) : tiff.readUInt32BE(offset));
  const ifd0 = u32(4);
  const count = u16(ifd0);
  for (let index = 0; index < count; index++) {
    if (u16(ifd0 + 2 + index * 12) === 0x8825) return true;
  }
  return false;
}

/** A photo-like test image: a gradient with detail, so that encoders and the watermark have something to do. */
async function photo(width: number, height: number): Promise<Sharp> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#24527a"/><stop offset="1" stop-color="#e3a857"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 3}" r="${Math.min(width, height) / 5}" fill="#c0392b"/>
  </svg>`;
  return sharp(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** A PNG whose header claims the given size; its pixel data is a few bytes (a decompression bomb's shape). */
function pngClaiming(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (data: Buffer) => {
    let c = 0xffffffff;
    for (const byte of data) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.alloc(1000))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** How far apart the darkest and brightest pixels of a region are: about 0 for a flat colour. */
async function regionDeviation(file: string, region: { left: number; top: number; width: number; height: number }) {
  // stats() reads the input, not the result of the pipeline: the region is cut out first.
  const stats = await sharp(await sharp(file).extract(region).toBuffer()).stats();
  return Math.max(...stats.channels.slice(0, 3).map((channel) => channel.max - channel.min));
}

describe.each(databaseKinds)("the image pipeline (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  let dir: string;
  let storage: FileStorage;
  const fileIn = (key: string) => path.join(dir, "storage", ...key.split("/"));
  const write = (name: string, data: Buffer) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, data);
    return file;
  };
  const storedFiles = async () => [
    ...(await storage.list("public/", { limit: 1000 })),
    ...(await storage.list("private/", { limit: 1000 })),
  ];
  const rowOf = (id: string) =>
    database.db.selectFrom("images").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-images-"));
    storage = createLocalStorage({ root: path.join(dir, "storage"), secret: "s" });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("strips GPS and camera data from every served variant but keeps the original privately", async () => {
    const input = await (await photo(800, 600))
      .jpeg()
      .withExif({
        IFD0: { Make: "TestCam", Model: "X100", BodySerialNumber: "SN-123456" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "48/1 8/1 30/1",
          GPSLongitudeRef: "E",
          GPSLongitude: "11/1 34/1 0/1",
        },
      })
      .toBuffer();
    const before = await sharp(input).metadata();
    expect(hasGpsInfo(before.exif)).toBe(true);

    const id = await storeImage(database.db, write("gps.jpg", input), { storage });
    const row = await rowOf(id);
    const variants = parseVariants(row.variants);
    expect(variants.length).toBeGreaterThan(0);
    for (const variant of variants) {
      const bytes = fs.readFileSync(fileIn(variant.key));
      const metadata = await sharp(bytes).metadata();
      expect(metadata.exif, variant.key).toBeUndefined();
      expect(metadata.xmp, variant.key).toBeUndefined();
      expect(metadata.iptc, variant.key).toBeUndefined();
      expect(bytes.includes("SN-123456"), variant.key).toBe(false);
      expect(bytes.includes("TestCam"), variant.key).toBe(false);
    }
    expect(row.placeholder).toMatch(/^data:image\/webp;base64,/);
    expect(Buffer.from(row.placeholder.split(",")[1] ?? "", "base64").includes("SN-123456")).toBe(false);
    // The original is kept unchanged, in the private area only.
    expect(row.original_key).toMatch(/^private\/originals\//);
    expect(fs.readFileSync(fileIn(row.original_key)).equals(input)).toBe(true);
    expect(variants.every((variant) => variant.key.startsWith("public/images/"))).toBe(true);
  });

  it("applies the EXIF orientation: an image tagged 6 comes out rotated", async () => {
    const input = await (await photo(400, 200)).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const id = await storeImage(database.db, write("rotated.jpg", input), { storage });
    const row = await rowOf(id);
    expect([row.width, row.height]).toEqual([200, 400]);
    for (const variant of parseVariants(row.variants)) {
      const metadata = await sharp(fileIn(variant.key)).metadata();
      expect(metadata.height).toBeGreaterThan(metadata.width ?? 0);
      expect(metadata.orientation ?? 1).toBe(1);
      expect([metadata.width, metadata.height]).toEqual([variant.width, variant.height]);
    }
  });

  it("refuses an image claiming more than 100 megapixels from its header, before decoding", async () => {
    const bomb = pngClaiming(20_000, 20_000);
    expect(bomb.length).toBeLessThan(2000);
    const started = Date.now();
    const refused = storeImage(database.db, write("bomb.png", bomb), { storage });
    await expect(refused).rejects.toBeInstanceOf(ImageError);
    await expect(refused).rejects.toMatchObject({
      code: "too_large",
      message: expect.stringMatching(/400 megapixels/),
    });
    // Decoding 400 MP would take far longer (and 1.2 GB of memory).
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await database.db.selectFrom("images").selectAll().execute()).toEqual([]);
    expect(await storedFiles()).toEqual([]);
    expect(MAX_IMAGE_PIXELS).toBe(100_000_000);
  });

  it("refuses a text file and an SVG named .jpg, and stores nothing", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
    for (const [name, content] of [
      ["notes.jpg", "This is not a picture at all."],
      ["drawing.jpg", svg],
    ] as const) {
      const refused = storeImage(database.db, write(name, Buffer.from(content)), { storage });
      await expect(refused, name).rejects.toMatchObject({ code: "not_image", message: /not a supported image/ });
    }
    expect(await database.db.selectFrom("images").selectAll().execute()).toEqual([]);
    expect(await storedFiles()).toEqual([]);
  });

  it("writes responsive widths in AVIF, WebP and JPEG with content-hash names, never upscaled", async () => {
    const input = await (await photo(1000, 500)).png().toBuffer();
    const id = await storeImage(database.db, write("small.png", input), { storage });
    const row = await rowOf(id);
    const variants = parseVariants(row.variants);
    expect([...new Set(variants.map((variant) => variant.width))]).toEqual([320, 640, 960]);
    expect(variants.every((variant) => variant.width <= 1000)).toBe(true);
    expect(variants.map((variant) => variant.format).sort()).toEqual([
      "avif",
      "avif",
      "avif",
      "jpeg",
      "jpeg",
      "jpeg",
      "webp",
      "webp",
      "webp",
    ]);
    for (const variant of variants) {
      const bytes = fs.readFileSync(fileIn(variant.key));
      const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
      expect(variant.key).toBe(
        `public/images/${id}/${variant.width}-${hash}.${variant.format === "jpeg" ? "jpg" : variant.format}`,
      );
      const metadata = await sharp(bytes).metadata();
      expect(metadata.format === "heif" ? "avif" : metadata.format).toBe(variant.format);
      expect(metadata.width).toBe(variant.width);
      expect(variant.height).toBe(Math.round((500 * variant.width) / 1000));
    }

    // A tiny image gets its own width only; a middle one gets its own width on top of the steps.
    expect(variantWidths(200)).toEqual([200]);
    expect(variantWidths(1500)).toEqual([320, 640, 960, 1280, 1500]);
    expect(variantWidths(1300)).toEqual([320, 640, 960, 1280]);
    expect(variantWidths(6000)).toEqual([...IMAGE_WIDTHS]);

    const display = imageSources(imageForDisplay(row));
    expect(imageForDisplay(row)).toMatchObject({ width: 1000, height: 500, placeholder: row.placeholder });
    expect(display.sources.avif.split(", ")).toHaveLength(3);
    expect(display.sources.avif).toMatch(new RegExp(`^/media/images/${id}/320-[0-9a-f]{16}\\.avif 320w, `));
    expect(display.fallback.src).toMatch(/\/960-[0-9a-f]{16}\.jpg$/);
    expect(display.fallback.srcset).toContain(" 960w");
  });

  it("draws the watermark into the large variants only, and only when asked", async () => {
    // A flat grey image: any variation in the bottom-right corner comes from the watermark.
    const flat = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#808080" } })
      .jpeg({ quality: 95 })
      .toBuffer();
    const corner = (width: number, height: number) => ({
      left: width - Math.round(width / 3),
      top: height - Math.round(height / 8),
      width: Math.round(width / 3),
      height: Math.round(height / 8),
    });
    const largest = (variants: ReturnType<typeof parseVariants>, format: string) =>
      variants.filter((variant) => variant.format === format).sort((a, b) => b.width - a.width)[0];

    const plainId = await storeImage(database.db, write("plain.jpg", flat), { storage });
    const markedId = await storeImage(database.db, write("marked.jpg", flat), { storage, watermark: "© Vitrine Test" });
    const plain = await rowOf(plainId);
    const marked = await rowOf(markedId);
    expect(plain.watermark).toBe("");
    expect(marked.watermark).toBe("© Vitrine Test");

    for (const format of ["jpeg", "webp", "avif"]) {
      const plainLarge = largest(parseVariants(plain.variants), format);
      const markedLarge = largest(parseVariants(marked.variants), format);
      expect(markedLarge?.width).toBe(1600);
      expect(await regionDeviation(fileIn(plainLarge?.key ?? ""), corner(1600, 900)), format).toBeLessThan(8);
      expect(await regionDeviation(fileIn(markedLarge?.key ?? ""), corner(1600, 900)), format).toBeGreaterThan(80);
    }
    // A picture smaller than WATERMARK_MIN_WIDTH still carries the watermark in its largest (lightbox) variant.
    const small = await sharp({ create: { width: 1000, height: 600, channels: 3, background: "#808080" } })
      .jpeg({ quality: 95 })
      .toBuffer();
    const smallMarked = await rowOf(
      await storeImage(database.db, write("small.jpg", small), { storage, watermark: "© Vitrine Test" }),
    );
    const smallLargest = largest(parseVariants(smallMarked.variants), "jpeg");
    expect(smallLargest?.width).toBe(960);
    expect(await regionDeviation(fileIn(smallLargest?.key ?? ""), corner(960, 576))).toBeGreaterThan(80);
    const lightbox = imageSources(imageForDisplay(smallMarked), "full");
    expect(lightbox.fallback.srcset).toMatch(/^\S+ 960w$/);
    expect(
      imageSources(imageForDisplay(marked), "full")
        .sources.avif.split(", ")
        .map((entry) => entry.split(" ")[1]),
    ).toEqual(["1280w", "1600w"]);

    // The thumbnails below WATERMARK_MIN_WIDTH stay clean even when the watermark is on.
    for (const variant of parseVariants(marked.variants).filter((v) => v.width < WATERMARK_MIN_WIDTH)) {
      expect(
        await regionDeviation(fileIn(variant.key), corner(variant.width, variant.height)),
        variant.key,
      ).toBeLessThan(8);
    }
  });

  it("keeps a long watermark whole inside a narrow picture: smaller, never cut at the left edge", async () => {
    // A portrait 320 wide: its one variant carries the text, which in wide capitals would not fit at 14 px.
    const portrait = await sharp({ create: { width: 320, height: 480, channels: 3, background: "#808080" } })
      .jpeg({ quality: 95 })
      .toBuffer();
    const text = "© WWW MMM PHOTOGRAPHY STUDIO BERLIN";
    const marked = await rowOf(
      await storeImage(database.db, write("portrait.jpg", portrait), { storage, watermark: text }),
    );
    const widest = parseVariants(marked.variants).find((v) => v.width === 320 && v.format === "jpeg");
    const file = fileIn(widest?.key ?? "");
    // The text is there, in the bottom band...
    expect(await regionDeviation(file, { left: 160, top: 440, width: 140, height: 40 })).toBeGreaterThan(80);
    // ...and its left end lies inside the picture: the leftmost columns and the right margin stay untouched.
    expect(await regionDeviation(file, { left: 0, top: 400, width: 6, height: 80 })).toBeLessThan(8);
    expect(await regionDeviation(file, { left: 316, top: 400, width: 4, height: 80 })).toBeLessThan(8);
  });

  /** Makes a stored image a gallery picture: only those carry the watermark. */
  const inGallery = async (imageId: string) => {
    const now = new Date();
    const texts = { title: "", title_de: "", description: "", description_de: "", category: "", category_de: "" };
    await database.db
      .insertInto("gallery_images")
      .values({
        id: `g-${imageId}`,
        image_id: imageId,
        ...texts,
        sort_order: 0,
        published: true,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return imageId;
  };

  it("redraws the watermark from the original when the settings change, and removes the old files", async () => {
    const input = await (await photo(1400, 700)).jpeg().toBuffer();
    const id = await inGallery(await storeImage(database.db, write("refresh.jpg", input), { storage }));
    const before = await rowOf(id);

    const on = await refreshWatermarks(database.db, { watermark_enabled: "true", watermark_text: "Mine" }, { storage });
    expect(on).toEqual({ updated: 1, failed: 0 });
    const after = await rowOf(id);
    expect(after.watermark).toBe("Mine");
    const oldKeys = new Set(parseVariants(before.variants).map((variant) => variant.key));
    const newKeys = new Set(parseVariants(after.variants).map((variant) => variant.key));
    // The large variant (1280 wide, in three formats) changed, so got new hash names; the small ones are identical and kept.
    const changed = [...newKeys].filter((key) => !oldKeys.has(key));
    expect(changed.length).toBe(3);
    expect(changed.every((key) => /\/1280-/.test(key))).toBe(true);
    for (const key of oldKeys) expect(fs.existsSync(fileIn(key)), key).toBe(newKeys.has(key));
    for (const key of newKeys) expect(fs.existsSync(fileIn(key)), key).toBe(true);

    // Nothing to do when nothing changed; then switched off again.
    expect(
      await refreshWatermarks(database.db, { watermark_enabled: "true", watermark_text: "Mine" }, { storage }),
    ).toEqual({
      updated: 0,
      failed: 0,
    });
    await refreshWatermarks(database.db, { watermark_enabled: "false", watermark_text: "Mine" }, { storage });
    const off = await rowOf(id);
    expect(off.watermark).toBe("");
    expect(new Set(parseVariants(off.variants).map((variant) => variant.key))).toEqual(oldKeys);
  });

  it("ends with the last change's watermark when changes come quickly, and leaves video posters clean", async () => {
    const input = await (await photo(1400, 700)).jpeg().toBuffer();
    const picture = await inGallery(await storeImage(database.db, write("quick.jpg", input), { storage }));
    const poster = await storeImage(database.db, write("poster.jpg", input), { storage });

    const changes = ["First", "Second", "Third"].map((text) =>
      refreshWatermarks(database.db, { watermark_enabled: "true", watermark_text: text }, { storage }),
    );
    changes.push(refreshWatermarks(database.db, { watermark_enabled: "true", watermark_text: "Last" }, { storage }));
    await Promise.all(changes);

    expect((await rowOf(picture)).watermark).toBe("Last");
    expect((await rowOf(poster)).watermark).toBe("");
  });

  it("deletes the row, then every file of the image", async () => {
    const id = await storeImage(database.db, write("delete.png", await (await photo(700, 400)).png().toBuffer()), {
      storage,
    });
    expect((await storedFiles()).length).toBeGreaterThan(3);
    expect(await deleteImage(database.db, id, storage)).toBe(true);
    expect(await database.db.selectFrom("images").selectAll().execute()).toEqual([]);
    expect(await storedFiles()).toEqual([]);
    expect(await deleteImage(database.db, id, storage)).toBe(false);
  });

  it("sweeps files no row references once they are past the grace period", async () => {
    const id = await storeImage(database.db, write("keep.png", await (await photo(400, 300)).png().toBuffer()), {
      storage,
    });
    const kept = (await storedFiles()).map((file) => file.key).sort();
    // Left by an interrupted upload: files written, no row.
    await storage.save("public/images/orphan-id/320-0123456789abcdef.avif", Buffer.from("x"));
    await storage.save("private/originals/orphan-id.jpg", Buffer.from("x"));
    // Another area is none of the image pipeline's business.
    await storage.save("public/videos/clip.mp4", Buffer.from("x"));
    const tempDir = path.join(dir, "tmp-uploads");
    fs.mkdirSync(tempDir);
    fs.writeFileSync(path.join(tempDir, "stale.upload"), "x");

    // Within the grace period: nothing is touched (an upload may still be in flight).
    const early = await sweepOrphanFiles(database.db, { olderThanMs: 60_000, storage, tempDirs: [tempDir] });
    expect(early).toEqual({ removed: [], tempFilesRemoved: 0 });

    const later = Date.now() + 120_000;
    const swept = await sweepOrphanFiles(database.db, {
      olderThanMs: 60_000,
      storage,
      tempDirs: [tempDir],
      now: later,
    });
    expect(swept.removed.sort()).toEqual([
      "private/originals/orphan-id.jpg",
      "public/images/orphan-id/320-0123456789abcdef.avif",
    ]);
    expect(swept.tempFilesRemoved).toBe(1);
    const remaining = (await storedFiles()).map((file) => file.key).sort();
    expect(remaining).toEqual([...kept, "public/videos/clip.mp4"].sort());
    expect(await rowOf(id)).toBeTruthy();
  });
});
