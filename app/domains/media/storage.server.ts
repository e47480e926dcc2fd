import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * Where uploaded and generated files live. A key is a relative path whose first segment is the area:
 * `public/…` (served to everyone at `/media/<rest>`, forever cacheable, so names must carry a content hash)
 * or `private/…` (only through a signed, time-limited URL at `/media-private/<rest>?expires=…&sig=…`).
 *
 * Prefixes in use: `public/images/<imageId>/…` and `private/originals/<imageId>.<ext>` belong to the image
 * pipeline (image-pipeline.server.ts) and are swept against the `images` table; other areas (e.g. `public/videos/`)
 * are never touched by that sweep (see `sweepUnreferenced` in image-sweeps.server.ts to sweep your own prefix).
 *
 * Two drivers, chosen by STORAGE_URL (app/runtime/storage-choice.server.ts): `createLocalStorage` below and
 * `createS3Storage` (s3-storage.server.ts). tests/support/storage-contract.ts holds what both must do alike.
 */
export interface FileStorage {
  /** Writes the file; refuses (StorageError "exists") to replace an existing key unless `overwrite` is set. */
  save(key: string, data: Buffer | Readable, options?: { overwrite?: boolean }): Promise<StoredFile>;
  /** The file's bytes, or the inclusive byte range `start`–`end`. Throws StorageError "not_found". */
  readStream(key: string, range?: ByteRange): Promise<Readable>;
  /** Size and modification time, or null when there is no such file. */
  stat(key: string): Promise<StoredFile | null>;
  /** Files whose key starts with `prefix` (recursively), sorted by name ascending unless told otherwise. */
  list(prefix: string, options?: ListOptions): Promise<StoredFile[]>;
  move(from: string, to: string, options?: { overwrite?: boolean }): Promise<void>;
  copy(from: string, to: string, options?: { overwrite?: boolean }): Promise<void>;
  /** Removes the files; missing ones are ignored. */
  remove(keys: string | string[]): Promise<void>;
  /** A URL path that serves a private file until `expiresInSeconds` from now. */
  signedUrl(key: string, expiresInSeconds: number): string;
  /** Whether a signature (as put into a signed URL) is valid and unexpired for the key. */
  verifySignature(key: string, expires: string | null, signature: string | null, now?: number): boolean;
}

export type StoredFile = { key: string; size: number; modifiedAt: Date };
export type ByteRange = { start: number; end: number };
export type ListOptions = {
  limit?: number;
  offset?: number;
  sortBy?: { column: "name" | "size" | "modifiedAt"; order?: "asc" | "desc" };
};

export type StorageErrorCode = "invalid_key" | "exists" | "not_found";

export class StorageError extends Error {
  override name = "StorageError";
  readonly code: StorageErrorCode;
  constructor(code: StorageErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export const PUBLIC_MEDIA_PATH = "/media/";
export const PRIVATE_MEDIA_PATH = "/media-private/";
const AREAS = new Set(["public", "private"]);
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const MAX_KEY_LENGTH = 512;

/** Throws unless the key is `public/…` or `private/…` made of plain segments (no `..`, no absolute paths). */
export function assertValidKey(key: string): void {
  const segments = key.split("/");
  const valid =
    typeof key === "string" &&
    key.length > 0 &&
    key.length <= MAX_KEY_LENGTH &&
    segments.length >= 2 &&
    AREAS.has(segments[0] ?? "") &&
    segments.every((segment) => SEGMENT.test(segment) && segment !== "." && segment !== "..");
  if (!valid) throw new StorageError("invalid_key", `Invalid storage key "${String(key).slice(0, 100)}"`);
}

/** The URL path of a public key: `public/images/a.avif` → `/media/images/a.avif`. */
export function publicUrl(key: string): string {
  assertValidKey(key);
  if (!key.startsWith("public/")) throw new StorageError("invalid_key", `"${key}" is not a public key`);
  return `${PUBLIC_MEDIA_PATH}${key.slice("public/".length)}`;
}

/** Throws unless a `list` prefix starts with an area and cannot climb out of it (the same rule for every driver). */
export function assertValidPrefix(prefix: string): void {
  const [area] = prefix.split("/");
  if (!AREAS.has(area ?? "") || prefix.includes("..")) {
    throw new StorageError("invalid_key", `Invalid storage prefix "${prefix}"`);
  }
}

export function existsError(key: string): StorageError {
  return new StorageError("exists", `A file already exists at "${key}"`);
}

export function notFoundError(key: string): StorageError {
  return new StorageError("not_found", `No file at "${key}"`);
}

/** `list`'s limit and offset as every driver reads them: 100 from the first unless told, at most 10,000. */
export function pageBounds(options: ListOptions = {}): { limit: number; offset: number } {
  return {
    limit: Math.min(Math.max(options.limit ?? 100, 0), 10_000),
    offset: Math.max(options.offset ?? 0, 0),
  };
}

/**
 * One page of `list`'s answer from every file under the prefix: sorted (ties by key, so that pages never overlap),
 * then cut by `pageBounds`. Shared so that every driver sorts and pages alike.
 */
export function pageOfFiles(found: StoredFile[], options: ListOptions = {}): StoredFile[] {
  const { limit, offset } = pageBounds(options);
  const column = options.sortBy?.column ?? "name";
  const direction = options.sortBy?.order === "desc" ? -1 : 1;
  const byKey = (a: StoredFile, b: StoredFile) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const sorted = [...found].sort((a, b) => {
    const difference =
      column === "size"
        ? a.size - b.size
        : column === "modifiedAt"
          ? a.modifiedAt.getTime() - b.modifiedAt.getTime()
          : byKey(a, b);
    return (difference || byKey(a, b)) * direction;
  });
  return sorted.slice(offset, offset + limit);
}

/**
 * The site's own signed addresses for private files (`/media-private/…?expires=…&sig=…`, answered by the site
 * whichever driver holds the bytes), so that a link made with one driver is the same link with another.
 */
export function createUrlSigner(secret: string): Pick<FileStorage, "signedUrl" | "verifySignature"> {
  const sign = (key: string, expires: string) =>
    createHmac("sha256", secret).update(`${key}\n${expires}`).digest("base64url");
  return {
    signedUrl(key, expiresInSeconds) {
      assertValidKey(key);
      if (!key.startsWith("private/")) throw new StorageError("invalid_key", `"${key}" is not a private key`);
      const expires = String(Math.floor(Date.now() / 1000) + Math.max(1, Math.floor(expiresInSeconds)));
      const rest = key.slice("private/".length);
      return `${PRIVATE_MEDIA_PATH}${rest}?expires=${expires}&sig=${sign(key, expires)}`;
    },
    verifySignature(key, expires, signature, now = Date.now()) {
      if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return false;
      if (Number(expires) * 1000 < now) return false;
      const expected = Buffer.from(sign(key, expires));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

/**
 * Runs a driver's save of `data`, which owns the stream from then on: a stream it did not read to its end is closed
 * when the save fails, and an error the stream raises afterwards goes nowhere. A file stream opens its file only
 * after it was made; a refused upload's request ends at once and removes its temporary file, so the stream's open
 * can fail later, and an error event no one listens to stops the process. While the save reads the stream, its
 * errors reach the save through what reads it (a pipeline, the S3 upload).
 */
export async function owningStream<T>(data: Buffer | Readable, save: () => Promise<T>): Promise<T> {
  if (!(data instanceof Readable)) return save();
  data.on("error", () => {});
  try {
    return await save();
  } catch (error) {
    data.destroy();
    throw error;
  }
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === "ENOENT";
}

/**
 * `mkdir -p` that reports why it failed: Node's recursive mkdir answers ENOENT where the disk said EROFS
 * (read-only) or EACCES, which would hide a read-only disk behind "no such file". Missing parents are made
 * one level at a time, so the error is the one the disk gave.
 */
export async function makeDirectory(directory: string): Promise<void> {
  try {
    await fsp.mkdir(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    if (code !== "ENOENT" || path.dirname(directory) === directory) throw error;
    await makeDirectory(path.dirname(directory));
    await fsp.mkdir(directory).catch((again: NodeJS.ErrnoException) => {
      if (again.code !== "EEXIST") throw again;
    });
  }
}

/** Files on the local disk under `root` (DATA_DIR/storage): `root/public/…`, `root/private/…`, temp files in `root/.tmp`. */
export function createLocalStorage(options: { root: string; secret: string }): FileStorage {
  const root = path.resolve(options.root);
  const tempDir = path.join(root, ".tmp");

  const fileOf = (key: string) => {
    assertValidKey(key);
    const file = path.join(root, ...key.split("/"));
    // Belt and braces: the key check already excludes anything that could leave the root.
    if (!file.startsWith(`${root}${path.sep}`)) throw new StorageError("invalid_key", `Invalid storage key "${key}"`);
    return file;
  };

  const tempFile = async () => {
    await makeDirectory(tempDir);
    return path.join(tempDir, `${Date.now()}-${randomBytes(8).toString("hex")}.part`);
  };

  const statOf = async (key: string): Promise<StoredFile | null> => {
    try {
      const info = await fsp.stat(fileOf(key));
      return info.isFile() ? { key, size: info.size, modifiedAt: info.mtime } : null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  };

  /** Puts a finished temp file under its final name: atomically, and without replacing unless asked. */
  const publish = async (temp: string, key: string, overwrite: boolean) => {
    const target = fileOf(key);
    await makeDirectory(path.dirname(target));
    if (overwrite) {
      await fsp.rename(temp, target);
      return;
    }
    try {
      // A hard link fails when the name is taken, so two writers can never replace each other's file.
      await fsp.link(temp, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw existsError(key);
      throw error;
    } finally {
      await fsp.rm(temp, { force: true });
    }
  };

  const storage: FileStorage = {
    save: (key, data, saveOptions = {}) =>
      owningStream(data, async () => {
        fileOf(key);
        const overwrite = saveOptions.overwrite === true;
        if (!overwrite && (await statOf(key))) throw existsError(key);
        const temp = await tempFile();
        try {
          if (Buffer.isBuffer(data)) await fsp.writeFile(temp, data);
          else await pipeline(data, fs.createWriteStream(temp));
          await publish(temp, key, overwrite);
        } catch (error) {
          await fsp.rm(temp, { force: true });
          throw error;
        }
        const stored = await statOf(key);
        if (!stored) throw new StorageError("not_found", `"${key}" vanished right after it was written`);
        return stored;
      }),

    async readStream(key, range) {
      const file = fileOf(key);
      const handle = await fsp.open(file, "r").catch((error) => {
        if (isNotFound(error)) throw notFoundError(key);
        throw error;
      });
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },

    stat: statOf,

    async list(prefix, listOptions = {}) {
      assertValidPrefix(prefix);
      // Walk the deepest directory the prefix names completely, then filter on the rest.
      const directoryPart = prefix.slice(0, prefix.lastIndexOf("/") + 1);
      const start = path.join(root, ...directoryPart.split("/").filter(Boolean));
      const found: StoredFile[] = [];
      const walk = async (directory: string, keyPrefix: string) => {
        let entries: fs.Dirent[];
        try {
          entries = await fsp.readdir(directory, { withFileTypes: true });
        } catch (error) {
          if (isNotFound(error)) return;
          throw error;
        }
        for (const entry of entries) {
          const key = `${keyPrefix}${entry.name}`;
          if (entry.isDirectory()) await walk(path.join(directory, entry.name), `${key}/`);
          else if (entry.isFile() && key.startsWith(prefix)) {
            const info = await fsp.stat(path.join(directory, entry.name)).catch(() => null);
            if (info) found.push({ key, size: info.size, modifiedAt: info.mtime });
          }
        }
      };
      await walk(start, directoryPart);
      return pageOfFiles(found, listOptions);
    },

    async move(from, to, moveOptions = {}) {
      const source = fileOf(from);
      if (!(await statOf(from))) throw notFoundError(from);
      const overwrite = moveOptions.overwrite === true;
      if (!overwrite && (await statOf(to))) throw existsError(to);
      const target = fileOf(to);
      await makeDirectory(path.dirname(target));
      if (overwrite) await fsp.rename(source, target);
      else {
        try {
          await fsp.link(source, target);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "EEXIST") throw existsError(to);
          throw error;
        }
        await fsp.rm(source, { force: true });
      }
    },

    async copy(from, to, copyOptions = {}) {
      const source = fileOf(from);
      if (!(await statOf(from))) throw notFoundError(from);
      const overwrite = copyOptions.overwrite === true;
      if (!overwrite && (await statOf(to))) throw existsError(to);
      const temp = await tempFile();
      try {
        await fsp.copyFile(source, temp);
        await publish(temp, to, overwrite);
      } catch (error) {
        await fsp.rm(temp, { force: true });
        throw error;
      }
    },

    async remove(keys) {
      const list = Array.isArray(keys) ? keys : [keys];
      const files = list.map(fileOf);
      for (const file of files) await fsp.rm(file, { force: true });
    },

    ...createUrlSigner(options.secret),
  };
  return storage;
}

/** The signing secret for private media URLs, derived from the auth secret so no new variable is needed. */
export function mediaSigningSecret(authSecret: string): string {
  return createHmac("sha256", authSecret).update("vitrine media signing").digest("base64url");
}
