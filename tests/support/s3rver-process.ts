import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import S3rver from "s3rver";
import type { S3Location } from "#app/domains/media/s3-storage.server.ts";

/** The one key pair s3rver accepts (its built-in account). */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

type Store = {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
};
type StoredObject = { bucket: string; key: string; content: Buffer | Readable; metadata: unknown };

/** Writes a body to `file` and answers once it is on disk, with its size and MD5 (as s3rver's store does). */
async function writeWhole(file: string, content: Buffer | Readable): Promise<{ size: number; md5: string }> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const md5 = createHash("md5");
  let size = 0;
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      md5.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, counting, fs.createWriteStream(file));
  return { size, md5: md5.digest("hex") };
}

/**
 * s3rver 3.7.1's store answers a PUT (and an uploaded part) when its hashing step has seen the last byte, before
 * the file on disk has it: a GET right after can read an empty or short object. Its two writers are replaced with
 * ones that answer once the file is written; everything else is s3rver's own.
 */
function makeS3rverWritesWhole(): void {
  const require = createRequire(import.meta.url);
  const FilesystemStore = require("s3rver/lib/stores/filesystem.js") as { prototype: Record<string, unknown> };
  const store = FilesystemStore.prototype as Record<string, unknown> & { writesWhole?: true };
  if (store.writesWhole) return;
  store.writesWhole = true;
  store.putObject = async function putObject(this: Store, object: StoredObject) {
    const written = await writeWhole(this.getResourcePath(object.bucket, object.key, "object"), object.content);
    await this.putMetadata(object.bucket, object.key, object.metadata, written.md5);
    return written;
  };
  store.putPart = async function putPart(
    this: Store,
    bucket: string,
    uploadId: string,
    partNumber: number,
    content: Readable,
  ) {
    const file = path.join(this.getResourcePath(bucket, undefined, "uploads"), uploadId, String(partNumber));
    const written = await writeWhole(file, content);
    await fsp.writeFile(`${file}.md5`, written.md5);
    return written;
  };
}

/** STORAGE_URL for the test server's bucket (or a folder of it), as DEPLOY names it: path style, its own endpoint. */
export function storageUrlOf(s3: Pick<TestS3Server, "bucket" | "endpoint">, prefix?: string): string {
  const where = prefix ? `${s3.bucket}/${prefix}` : s3.bucket;
  return `s3://${where}?endpoint=${encodeURIComponent(s3.endpoint)}&region=us-east-1&forcePathStyle=true`;
}

export type TestS3Server = {
  endpoint: string;
  bucket: string;
  /** Where a storage on this server keeps its files: the test bucket, under `prefix`. */
  location(prefix?: string): S3Location;
  /** Stops answering (open connections are cut), keeping every object: as a store that went away midway. */
  pause(): Promise<void>;
  /** Answers again on the same port, with the objects it held. */
  resume(): Promise<void>;
  /** Stops the server and removes every object it held. */
  stop(): Promise<void>;
};

/**
 * An S3-compatible server for a test file (s3rver, in this process): a free loopback port, a temp folder of its
 * own, one empty bucket; silent, as the tests fail on error lines it did not expect.
 */
export async function startS3Server(bucket = "vitrine-test"): Promise<TestS3Server> {
  makeS3rverWritesWhole();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-s3rver-"));
  const open = async (port: number) => {
    const server = new S3rver({
      address: "127.0.0.1",
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket }],
    });
    const address = await server.run();
    return { server, port: address.port };
  };
  let running: S3rver | null;
  let port: number;
  try {
    ({ server: running, port } = await open(0));
  } catch (error) {
    fs.rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const close = async () => {
    const server = running;
    running = null;
    server?.httpServer?.closeAllConnections();
    await server?.close();
  };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    location: (prefix = "") => ({
      bucket,
      prefix,
      region: "us-east-1",
      endpoint,
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    }),
    pause: close,
    async resume() {
      if (!running) ({ server: running } = await open(port));
    },
    async stop() {
      try {
        await close();
      } finally {
        fs.rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
