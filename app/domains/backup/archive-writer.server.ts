import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import * as tar from "tar";

/** What the manifest says of one file in the archive. */
export type ManifestEntry = { path: string; size: number; sha256: string };

/** A file this size or smaller is held in memory on its way into the archive; a larger one goes through a temp file. */
const IN_MEMORY_LIMIT = 1024 * 1024;
const BLOCK = 512;

/**
 * A `.tar.gz` written entry by entry as a stream, for files that come from anywhere (a bucket, the disk, the
 * database export). node-tar's `create` packs only files on the disk; its `Header` and `Pax` encode the headers
 * here, so the archive is the one it would write (ustar, with a pax header for names longer than ustar holds).
 */
export type ArchiveWriter = {
  /** Adds a file on the disk under `name`, read once; returns its size and SHA-256. */
  addFile(name: string, file: string, mtime?: Date): Promise<ManifestEntry>;
  /**
   * Adds a stream's bytes under `name`. A tar header needs the size before the bytes, and a stored file may be
   * replaced between its listing and its reading: the bytes are spooled first (in memory up to 1 MB, else in a
   * temp file in the work folder), so that only one file is ever held.
   */
  addStream(name: string, stream: Readable, mtime?: Date): Promise<ManifestEntry>;
  addBuffer(name: string, data: Buffer, mtime?: Date): Promise<ManifestEntry>;
  /** Writes the end of the archive and waits until it is on the disk. */
  finish(): Promise<void>;
  /** Stops writing after a failure (the caller removes the file). */
  abort(): Promise<void>;
};

/** Opens `file` (which exists and is the owner's only) for a new archive; temp files go into `spoolDir`. */
export function openArchiveWriter(file: string, spoolDir: string): ArchiveWriter {
  const gzip = zlib.createGzip();
  const written = pipeline(gzip, fs.createWriteStream(file, { flags: "w" }));
  // Kept from being an unhandled rejection until it is awaited: a failure surfaces at the next write or at the end.
  written.catch(() => {});

  const write = async (chunk: Buffer) => {
    if (!gzip.write(chunk)) await Promise.race([once(gzip, "drain"), written]);
  };

  const writeHeader = async (name: string, size: number, mtime: Date) => {
    const header = new tar.Header({ path: name, mode: 0o600, size, mtime, type: "File" });
    if (header.encode()) await write(new tar.Pax({ path: name, size, mtime }).encode());
    if (!header.block) throw new Error(`Could not encode the tar header of ${name}`);
    await write(header.block);
  };

  const padding = async (size: number) => {
    const rest = size % BLOCK;
    if (rest > 0) await write(Buffer.alloc(BLOCK - rest));
  };

  const addFile = async (name: string, file: string, mtime = new Date()): Promise<ManifestEntry> => {
    const handle = await fsp.open(file, "r");
    try {
      const { size } = await handle.stat();
      await writeHeader(name, size, mtime);
      const hash = createHash("sha256");
      let copied = 0;
      // Exactly the size in the header (the file is the writer's own spool or the database export: nothing else
      // writes it, but a short read must not make a broken archive).
      if (size > 0) {
        for await (const chunk of handle.createReadStream({ start: 0, end: size - 1, autoClose: false })) {
          hash.update(chunk as Buffer);
          copied += (chunk as Buffer).length;
          await write(chunk as Buffer);
        }
      }
      if (copied !== size) throw new Error(`${file} changed size while it was archived`);
      await padding(size);
      return { path: name, size, sha256: hash.digest("hex") };
    } finally {
      await handle.close();
    }
  };

  const addBuffer = async (name: string, data: Buffer, mtime = new Date()): Promise<ManifestEntry> => {
    await writeHeader(name, data.length, mtime);
    if (data.length > 0) await write(data);
    await padding(data.length);
    return { path: name, size: data.length, sha256: createHash("sha256").update(data).digest("hex") };
  };

  const addStream = async (name: string, stream: Readable, mtime = new Date()): Promise<ManifestEntry> => {
    const chunks: Buffer[] = [];
    let held = 0;
    let spool: { file: string; handle: fsp.FileHandle } | null = null;
    try {
      for await (const chunk of stream) {
        const buffer = chunk as Buffer;
        if (spool) {
          await spool.handle.write(buffer);
          continue;
        }
        chunks.push(buffer);
        held += buffer.length;
        if (held > IN_MEMORY_LIMIT) {
          const file = path.join(spoolDir, `spool-${randomBytes(6).toString("hex")}`);
          spool = { file, handle: await fsp.open(file, "wx", 0o600) };
          for (const part of chunks.splice(0)) await spool.handle.write(part);
        }
      }
      if (!spool) return await addBuffer(name, Buffer.concat(chunks), mtime);
      await spool.handle.close();
      return await addFile(name, spool.file, mtime);
    } finally {
      stream.destroy();
      if (spool) {
        await spool.handle.close().catch(() => {});
        await fsp.rm(spool.file, { force: true });
      }
    }
  };

  return {
    addFile,
    addStream,
    addBuffer,
    async finish() {
      // The end of a tar archive: two empty blocks.
      await write(Buffer.alloc(BLOCK * 2));
      gzip.end();
      await written;
    },
    async abort() {
      gzip.destroy();
      await written.catch(() => {});
    },
  };
}
