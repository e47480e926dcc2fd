import { randomUUID } from "node:crypto";
import fs from "node:fs";
import type { Insertable, Kysely } from "kysely";
import type { Database, ImagesTable } from "#app/db/schema.ts";
import { carriesWatermark } from "./image-display.ts";
import {
  FORMATS,
  IMAGE_ENCODING,
  type ImageEncoding,
  ImageError,
  inspectImage,
  ORIGINAL_PREFIX,
  type Rendered,
  readAll,
  renderWidths,
  variantWidths,
  writeFiles,
} from "./image-encode.server.ts";
import { type Db, insertImageRow, parseVariants } from "./image-rows.server.ts";
import type { FileStorage } from "./storage.server.ts";
import type { ImageType } from "./upload.server.ts";

/*
 * The image pipeline: an upload's files are prepared (original kept, sizes rendered) before its row is
 * written, and the sizes left for later are finished by the image queue (image-finishing.server.ts).
 */

const ORIGINAL_EXTENSIONS: Record<ImageType, string> = {
  jpeg: "jpg",
  png: "png",
  webp: "webp",
  avif: "avif",
  gif: "gif",
};

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
 * The slow half of `storeImage`: checks the image (recognised by content, unless the upload already was), keeps
 * the original privately and writes its variants, without touching the database, so that no transaction is held
 * open while sharp works.
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
    /** The type the upload was recognised as when it was received. */
    type?: ImageType;
  },
): Promise<PreparedImage> {
  const storage = options.storage;
  const watermark = options.watermark?.trim() ?? "";
  const { type, width, height } = await inspectImage(tempFilePath, options.type);
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

/**
 * Stores an uploaded image: files first (`prepareImage`), then its row, so no row ever points at a
 * missing file; returns the new image's id.
 */
export async function storeImage(
  db: Db,
  tempFilePath: string,
  options: { watermark?: string; storage: FileStorage; type?: ImageType },
): Promise<string> {
  const prepared = await prepareImage(tempFilePath, options);
  try {
    return await insertImageRow(db, prepared);
  } catch (error) {
    await prepared.discard();
    throw error;
  }
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
