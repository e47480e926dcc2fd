import fsp from "node:fs/promises";
import path from "node:path";
import { getLogger } from "#app/lib/logger.server.ts";

export type UploadedFile = {
  /** The form field the file came in. */
  fieldName: string;
  /** Where the bytes are now: a temp file the caller must move, process or let `cleanup` remove. */
  path: string;
  /** The name the browser sent (for messages only: never used as a path). */
  originalName: string;
  size: number;
  /** The type the browser claimed; never trusted, see `recognised`. */
  declaredType: string;
  /** What the file's first bytes say it is, recognised as it is received: a picture or video type we take, or null. */
  recognised: MediaType | null;
};

export type ReceivedUpload = {
  files: UploadedFile[];
  fields: Record<string, string>;
  /** Removes the temp files (safe to call more than once, and after they were moved away). */
  cleanup: () => Promise<void>;
};

/** A refused upload: `status` is the HTTP status to answer with, `message` says why in plain words. */
export class UploadError extends Error {
  override name = "UploadError";
  readonly status: 400 | 413 | 415;
  /** The file it is about, when it is about one. */
  readonly fileName?: string;
  constructor(status: 400 | 413 | 415, message: string, fileName?: string) {
    super(message);
    this.status = status;
    this.fileName = fileName;
  }
}

/** Why the disk refused a write: it is full (or the quota is used up), or it takes no writes at all. */
export type StorageProblem = "full" | "read-only";

const FULL_CODES = new Set(["ENOSPC", "EDQUOT"]);
const READ_ONLY_CODES = new Set(["EROFS", "EACCES", "EPERM"]);

/** The disk problem behind an error from writing a file (its `code`, also on a cause), or null for anything else. */
export function storageProblemOf(error: unknown): StorageProblem | null {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code && FULL_CODES.has(code)) return "full";
    if (code && READ_ONLY_CODES.has(code)) return "read-only";
    current = current.cause;
  }
  return null;
}

/**
 * How an upload route answers when the disk refused to take the file: 507 (full) or 503 (read-only) and the
 * admin dictionary's message, with one line in the log for whoever looks after the server. Null when the error
 * is something else (the route rethrows it). What was written before the refusal is already removed by then:
 * receiveUpload removes its temp files, the image pipeline the files it wrote, storage its partial file.
 */
export function storageRefusal(
  error: unknown,
): { status: 503 | 507; messageKey: "admin.upload.storageFull" | "admin.upload.storageReadOnly" } | null {
  const problem = storageProblemOf(error);
  if (!problem) return null;
  const reason = error instanceof Error ? error.message : String(error);
  getLogger().error(`Upload refused: the server's storage is ${problem} (${reason})`);
  return problem === "full"
    ? { status: 507, messageKey: "admin.upload.storageFull" }
    : { status: 503, messageKey: "admin.upload.storageReadOnly" };
}

export function formatMegabytes(bytes: number): string {
  const megabytes = bytes / 1024 / 1024;
  return `${Number.isInteger(megabytes) ? megabytes : megabytes.toFixed(1)} MB`;
}

/** Where uploads wait while they are received (DATA_DIR/tmp/uploads): on the data disk, never in memory. */
export function uploadTempDir(dataDir: string): string {
  return path.join(dataDir, "tmp", "uploads");
}

export type ImageType = "jpeg" | "png" | "webp" | "avif" | "gif";
export type VideoType = "mp4" | "webm";

const HEADER_BYTES = 64;

async function headerOf(input: string | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(input)) return input.subarray(0, HEADER_BYTES);
  const handle = await fsp.open(input, "r");
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function ascii(buffer: Buffer, start: number, end: number): string {
  return buffer.subarray(start, end).toString("latin1");
}

/** The ISO-BMFF brands (`ftyp` box): major brand and compatible brands. */
function isoBrands(header: Buffer): string[] | null {
  if (header.length < 16 || ascii(header, 4, 8) !== "ftyp") return null;
  const boxSize = header.readUInt32BE(0);
  const end = Math.min(boxSize, header.length);
  const brands = [ascii(header, 8, 12)];
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(ascii(header, offset, offset + 4));
  return brands;
}

/**
 * The image type by the file's first bytes, never by its name or declared type. SVG (a script
 * carrier), HEIC, TIFF, BMP and everything else give null.
 */
export async function detectImageType(input: string | Buffer): Promise<ImageType | null> {
  return imageTypeOfHeader(await headerOf(input));
}

function imageTypeOfHeader(header: Buffer): ImageType | null {
  if (header.length >= 3 && header[0] === 0xff && header[1] === 0xd8 && header[2] === 0xff) return "jpeg";
  if (header.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (ascii(header, 0, 6) === "GIF87a" || ascii(header, 0, 6) === "GIF89a") return "gif";
  if (ascii(header, 0, 4) === "RIFF" && ascii(header, 8, 12) === "WEBP") return "webp";
  const brands = isoBrands(header);
  if (brands && (brands[0] === "avif" || brands[0] === "avis")) return "avif";
  return null;
}

const MP4_BRANDS = new Set([
  "isom",
  "iso2",
  "iso3",
  "iso4",
  "iso5",
  "iso6",
  "mp41",
  "mp42",
  "avc1",
  "M4V ",
  "dash",
  "mmp4",
  "MSNV",
]);

/** The video type by the file's first bytes: MP4 (ISO base media with a video brand) or WebM (EBML, doc type webm). */
function videoTypeOfHeader(header: Buffer): VideoType | null {
  const brands = isoBrands(header);
  if (brands && MP4_BRANDS.has(brands[0] ?? "")) return "mp4";
  if (header.length >= 4 && header.readUInt32BE(0) === 0x1a45dfa3 && header.includes("webm", 4, "latin1")) {
    return "webm";
  }
  return null;
}

export type MediaType = ImageType | VideoType;

/** What a file is by its first bytes (at least its first 64, when it has them): a picture or video type, or null. */
export function recogniseMedia(header: Buffer): MediaType | null {
  return imageTypeOfHeader(header) ?? videoTypeOfHeader(header);
}

/** `recogniseMedia` for a file on disk. */
export async function recogniseMediaFile(file: string): Promise<MediaType | null> {
  return recogniseMedia(await headerOf(file));
}

const IMAGE_TYPES = new Set<MediaType | null>(["jpeg", "png", "webp", "avif", "gif"]);
const VIDEO_TYPES = new Set<MediaType | null>(["mp4", "webm"]);

export const isImageType = (type: MediaType | null): type is ImageType => IMAGE_TYPES.has(type);
export const isVideoType = (type: MediaType | null): type is VideoType => VIDEO_TYPES.has(type);

/** The content type a detected type is served with. */
export const MEDIA_CONTENT_TYPES: Record<ImageType | VideoType, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
  gif: "image/gif",
  mp4: "video/mp4",
  webm: "video/webm",
};
