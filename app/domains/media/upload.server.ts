import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { getLogger } from "#app/lib/logger.server.ts";
import { getRuntime } from "#app/lib/runtime.server.ts";
import { removeControlCharacters } from "#app/lib/text-schema.ts";
import { makeDirectory } from "./storage.server.ts";

export type UploadedFile = {
  /** The form field the file came in. */
  fieldName: string;
  /** Where the bytes are now: a temp file the caller must move, process or let `cleanup` remove. */
  path: string;
  /** The name the browser sent (for messages only: never used as a path). */
  originalName: string;
  size: number;
  /** The type the browser claimed; never trusted, see detectImageType/detectVideoType. */
  declaredType: string;
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
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
    /** The file it is about, when it is about one. */
    readonly fileName?: string,
  ) {
    super(message);
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
export function uploadTempDir(): string {
  return path.join(getRuntime().env.dataDir, "tmp", "uploads");
}

/**
 * A display name safe for messages and the audit log: the base name, by the shared text rule but cleaned
 * rather than refused (a file's name is only a label): control characters removed, well-formed, NFC, shortened
 * without splitting a character.
 */
function displayName(name: string | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  const clean = removeControlCharacters(base).normalize("NFC").trim();
  return [...(clean || "file")].slice(0, 120).join("");
}

/**
 * Writes one file of the form to its temp file. When the disk refuses (full, read-only), the rest of the file
 * is still read, and dropped, and the refusal reported once it has all arrived: the parser waits for every
 * file to be read, and a request left half-read would end in a reset connection instead of the answer saying
 * why. (A pipeline would destroy the part on the write error, which leaves the parser waiting for good.)
 */
function writePart(part: Readable, file: string, onBytes: (count: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const output = fs.createWriteStream(file);
    let failure: Error | null = null;
    let partDone = false;
    let outputDone = false;
    const settle = () => {
      if (!partDone || !outputDone) return;
      if (failure) reject(failure);
      else resolve();
    };
    const refuse = (error: Error) => {
      failure ??= error;
      output.destroy();
      part.resume();
    };
    part.on("data", (chunk: Buffer) => {
      onBytes(chunk.length);
      if (failure || output.write(chunk)) return;
      part.pause();
      output.once("drain", () => part.resume());
    });
    part.once("end", () => {
      partDone = true;
      if (!failure) output.end();
      settle();
    });
    part.once("error", (error) => {
      partDone = true;
      refuse(error);
      settle();
    });
    // Destroyed without an error (the request was aborted): what was written is incomplete.
    part.once("close", () => {
      if (partDone) return;
      partDone = true;
      refuse(new Error("The file ended before it was complete."));
      settle();
    });
    output.once("error", refuse);
    output.once("close", () => {
      outputDone = true;
      settle();
    });
  });
}

/**
 * Streams a multipart/form-data body into temp files under DATA_DIR. Files larger than `maxBytes`, more
 * files than `maxFiles`, or a body that is not multipart are refused with an UploadError; on any failure
 * every temp file written so far is removed. Only the text fields named in `fields` are kept.
 */
export async function receiveUpload(
  request: Request,
  options: { maxBytes: number; maxFiles?: number; fields?: string[]; tempDir?: string },
): Promise<ReceivedUpload> {
  const maxFiles = options.maxFiles ?? 1;
  const allowedFields = new Set(options.fields ?? []);
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw new UploadError(400, "The upload must be sent as multipart/form-data.");
  }
  if (!request.body) throw new UploadError(400, "The upload is empty.");
  const declaredLength = Number(request.headers.get("content-length") ?? 0);
  // Form overhead per file is small; anything far beyond the allowed files is refused before reading.
  if (declaredLength > options.maxBytes * maxFiles + 1024 * 1024) {
    throw new UploadError(413, `The upload is too large (at most ${formatMegabytes(options.maxBytes)} per file).`);
  }

  const tempDir = options.tempDir ?? uploadTempDir();
  await makeDirectory(tempDir);
  const files: UploadedFile[] = [];
  const tempPaths: string[] = [];
  const fields: Record<string, string> = {};
  const cleanup = async () => {
    await Promise.all(tempPaths.map((file) => fsp.rm(file, { force: true })));
  };

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // Browsers send a file's name as UTF-8 bytes; busboy's default (latin1) would store "FrÃ¼hling.jpg".
      defParamCharset: "utf8",
      limits: { fileSize: options.maxBytes, files: maxFiles, fields: 50, fieldSize: 64 * 1024, parts: maxFiles + 50 },
    });
  } catch {
    throw new UploadError(400, "The upload is not a valid multipart form.");
  }

  const writes: Promise<void>[] = [];
  const finished = new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      reject(error);
    };
    parser.on("file", (fieldName, stream, info) => {
      const originalName = displayName(info.filename);
      const tempPath = path.join(tempDir, `${Date.now()}-${randomBytes(8).toString("hex")}.upload`);
      tempPaths.push(tempPath);
      let size = 0;
      let truncated = false;
      stream.on("limit", () => {
        truncated = true;
        fail(
          new UploadError(
            413,
            `${originalName}: the file is larger than the allowed ${formatMegabytes(options.maxBytes)}.`,
            originalName,
          ),
        );
      });
      writes.push(
        writePart(stream, tempPath, (bytes) => {
          size += bytes;
        }).then(
          () => {
            if (truncated) return;
            if (size === 0 && !info.filename) return; // an empty file input: no file chosen
            files.push({ fieldName, path: tempPath, originalName, size, declaredType: info.mimeType });
          },
          (error) => fail(error),
        ),
      );
    });
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) fail(new UploadError(413, `The field ${name} is too long.`));
      else if (allowedFields.has(name)) fields[name] = value;
    });
    parser.on("filesLimit", () => fail(new UploadError(400, `Too many files in one upload (at most ${maxFiles}).`)));
    parser.on("partsLimit", () => fail(new UploadError(400, "The upload has too many parts.")));
    parser.on("fieldsLimit", () => fail(new UploadError(400, "The upload has too many fields.")));
    parser.on("error", (error) =>
      fail(new UploadError(400, `The upload could not be read: ${(error as Error).message}`)),
    );
    parser.on("close", () => {
      Promise.all(writes).then(() => resolve(), fail);
    });
  });

  const body = Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>);
  const reading = pipeline(body, parser).catch((error) => {
    throw error instanceof UploadError ? error : new UploadError(400, "The upload was interrupted.");
  });
  try {
    await Promise.all([reading, finished]);
  } catch (error) {
    // The disk refused a file (see writePart), or a file passed its limit (the HTTP edge let through no more than
    // the route's files at their limits, so the rest is small): the rest is read to the end, so the answer reaches
    // the client instead of a reset connection ("check the connection") while it is still sending.
    const tooLargeFile = error instanceof UploadError && error.status === 413 && error.fileName !== undefined;
    if (storageProblemOf(error) || tooLargeFile) await reading.catch(() => {});
    else body.destroy();
    await Promise.allSettled(writes);
    await cleanup();
    throw error;
  }
  // Files that failed halfway were never listed; remove their temp files now.
  const kept = new Set(files.map((file) => file.path));
  await Promise.all(tempPaths.filter((file) => !kept.has(file)).map((file) => fsp.rm(file, { force: true })));
  return { files, fields, cleanup };
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
  const header = await headerOf(input);
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
export async function detectVideoType(input: string | Buffer): Promise<VideoType | null> {
  const header = await headerOf(input);
  const brands = isoBrands(header);
  if (brands && MP4_BRANDS.has(brands[0] ?? "")) return "mp4";
  if (header.length >= 4 && header.readUInt32BE(0) === 0x1a45dfa3 && header.includes("webm", 4, "latin1")) {
    return "webm";
  }
  return null;
}

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
