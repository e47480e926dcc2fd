import type { S3StorageSettings } from "#app/lib/env.server.ts";
import type { FileStorage } from "./storage.server.ts";

// What the rest of the server needs to know of a bucket without loading the AWS SDK: the SDK alone adds about
// 33 MB to a process's memory, which a site on the local disk (the default) must not pay. The driver itself,
// s3-storage.server.ts, is imported only when STORAGE_URL names a bucket (app/runtime/storage-choice.server.ts).

/** Where the files go (STORAGE_URL as parsed, app/lib/env.server.ts), with the key pair to reach them. */
export type S3Location = S3StorageSettings & { credentials: { accessKeyId: string; secretAccessKey: string } };

/**
 * The S3 driver: a FileStorage, plus what only a bucket has: whether it answers (`/readyz`), a signed address of a
 * public object (the bench's redirect option, decision 012) and the client to close when the process stops.
 */
export type S3FileStorage = FileStorage & {
  /** Null when the bucket answers a HeadBucket within `timeoutMs`, else one line saying what failed. */
  problem(timeoutMs: number): Promise<string | null>;
  /** A time-limited address of a public object in the bucket itself; refuses private keys (never handed out). */
  signedObjectUrl(key: string, expiresInSeconds: number, signingDate?: Date): Promise<string>;
  close(): void;
};

/** The storages made by the S3 driver, so that the runtime and `/readyz` can tell a bucket from the disk. */
const bucketStorages = new WeakSet<FileStorage>();

export function markBucketStorage(storage: S3FileStorage): void {
  bucketStorages.add(storage);
}

export function isS3Storage(storage: FileStorage): storage is S3FileStorage {
  return bucketStorages.has(storage);
}

/** The HTTP status of an SDK error, when the bucket answered. */
export function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

export function nameOf(error: unknown): string {
  return (error as { name?: unknown } | null)?.name === undefined ? "" : String((error as { name: unknown }).name);
}

/**
 * Whether a failed read means the bucket is away (no connection, no answer in time, a 5xx from it) rather than a
 * fault of this process: what a visitor is then told is 503, "try again", and nothing of it is cached.
 */
export function isBucketUnavailable(error: unknown): boolean {
  const status = statusOf(error);
  if (status !== undefined) return status >= 500;
  const name = nameOf(error);
  const code = (error as { code?: unknown } | null)?.code;
  return (
    ["TimeoutError", "AbortError"].includes(name) ||
    (typeof code === "string" &&
      /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EPIPE|EAI_AGAIN)$/.test(code))
  );
}
