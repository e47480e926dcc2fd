import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { makeDirectory } from "#app/domains/media/storage.server.ts";
import {
  formatMegabytes,
  type ReceivedUpload,
  recogniseMediaFile,
  storageProblemOf,
  UploadError,
  type UploadedFile,
} from "#app/domains/media/upload.server.ts";
import { removeControlCharacters } from "#app/lib/text-schema.ts";

// The web edge of an upload: the request's multipart body streamed to temp files under DATA_DIR (never into
// memory), each recognised by its first bytes (`recognised`). Whether that type is wanted, and where the file goes,
// is the domains' business.

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
  options: { maxBytes: number; maxFiles?: number; fields?: string[]; tempDir: string },
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

  const tempDir = options.tempDir;
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
            files.push({
              fieldName,
              path: tempPath,
              originalName,
              size,
              declaredType: info.mimeType,
              recognised: null,
            });
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
  // Recognised here, once, by content: the domains decide by `recognised`, never by the name or declared type.
  try {
    for (const file of files) file.recognised = await recogniseMediaFile(file.path);
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { files, fields, cleanup };
}
