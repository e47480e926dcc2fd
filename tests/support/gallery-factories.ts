import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import sharp from "sharp";
import { afterEach, beforeEach } from "vitest";
import type { Database } from "#app/db/schema.ts";
import type { AuditActor } from "#app/domains/audit/audit.server.ts";
import { updateGalleryTexts } from "#app/domains/gallery/gallery-admin.server.ts";
import type { GalleryTexts } from "#app/domains/gallery/gallery-schema.ts";
import { createGalleryEntry } from "#app/domains/gallery/gallery-upload.server.ts";
import { whenImageQueueIdle } from "#app/domains/media/image-finishing.server.ts";
import { createLocalStorage, type FileStorage } from "#app/domains/media/storage.server.ts";

/** The storage a server with this DATA_DIR uses (the signing secret does not matter for writing). */
export function storageIn(dataDir: string): FileStorage {
  return createLocalStorage({ root: path.join(dataDir, "storage"), secret: "test-factory" });
}

/** A JPEG with a coloured gradient and a label, so pictures are told apart on screen. */
export async function testPhoto(options: { width?: number; height?: number; hue?: number; label?: string } = {}) {
  const width = options.width ?? 1200;
  const height = options.height ?? 800;
  const hue = options.hue ?? 200;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},60%,35%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},70%,65%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <text x="50%" y="50%" text-anchor="middle" font-family="sans-serif" font-size="${Math.round(height / 6)}" fill="#fff">${options.label ?? ""}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** A picture's whole texts, as the edit form sends them: the ones given, every other one empty. */
export function galleryTexts(texts: Partial<GalleryTexts> = {}): GalleryTexts {
  return {
    title: texts.title ?? "",
    title_de: texts.title_de ?? "",
    description: texts.description ?? "",
    description_de: texts.description_de ?? "",
    category: texts.category ?? "",
    category_de: texts.category_de ?? "",
    alt: texts.alt ?? "",
    alt_de: texts.alt_de ?? "",
  };
}

export const factoryActor: AuditActor = { id: "test-factory", email: "factory@example.test" };

/**
 * Adds a picture through the real pipeline and gallery service, then sets its texts and state, and waits
 * until all its sizes exist (they are made in the background, drawing the watermark the settings ask for;
 * `watermark` is the one the upload request would have passed).
 */
export async function createGalleryPicture(
  db: Kysely<Database>,
  storage: FileStorage,
  options: Partial<GalleryTexts> & {
    published?: boolean;
    watermark?: string;
    /** Where it joins the gallery's order: at the end unless "top". */
    placement?: "top" | "bottom";
    photo?: Buffer;
    hue?: number;
    width?: number;
    height?: number;
  } = {},
): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-factory-"));
  const file = path.join(dir, "photo.jpg");
  fs.writeFileSync(
    file,
    options.photo ??
      (await testPhoto({ hue: options.hue, width: options.width, height: options.height, label: options.title })),
  );
  try {
    const id = await createGalleryEntry(db, factoryActor, file, {
      originalName: "photo.jpg",
      watermark: options.watermark ?? "",
      published: options.published !== false,
      placement: options.placement,
      storage,
    });
    await updateGalleryTexts(db, factoryActor, id, galleryTexts(options));
    await whenImageQueueIdle();
    return id;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * For a test file's `describe`: a fresh file storage per test and a small photo, removed again after each test
 * once the image queue has finished with them (nothing of a test may still be working on its files).
 * `add` creates a picture on `db` through the real pipeline.
 */
export function useGalleryTestStorage(db: () => Kysely<Database>) {
  const state = { dir: "", storage: undefined as unknown as FileStorage, photo: undefined as unknown as Buffer };
  beforeEach(async () => {
    state.dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-gallery-"));
    state.storage = createLocalStorage({ root: path.join(state.dir, "storage"), secret: "s" });
    // Small pictures: these tests are about the lists, not the pixels.
    state.photo ??= await testPhoto({ width: 360, height: 240 });
  });
  afterEach(async () => {
    await whenImageQueueIdle();
    fs.rmSync(state.dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return state.dir;
    },
    get storage() {
      return state.storage;
    },
    get photo() {
      return state.photo;
    },
    add: (options: Parameters<typeof createGalleryPicture>[2] = {}) =>
      createGalleryPicture(db(), state.storage, { photo: state.photo, ...options }),
  };
}
