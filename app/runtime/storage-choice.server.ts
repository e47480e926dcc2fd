import { isS3Storage } from "#app/domains/media/bucket-storage.server.ts";
import { createLocalStorage, type FileStorage } from "#app/domains/media/storage.server.ts";
import { type Env, EnvError } from "#app/lib/env.server.ts";

type S3Driver = typeof import("#app/domains/media/s3-storage.server.ts");

/**
 * The S3 driver, once `checkStorage` has loaded it. It is imported only for a bucket: the AWS SDK behind it adds
 * about 33 MB to the memory of a process that never talks to one (the default, local disk).
 */
let s3Driver: S3Driver | undefined;

async function loadS3Driver(): Promise<S3Driver> {
  s3Driver ??= await import("#app/domains/media/s3-storage.server.ts");
  return s3Driver;
}

/**
 * The storage the configuration names: the bucket of STORAGE_URL, or (unset) the local disk under DATA_DIR/storage.
 * `signingSecret` signs private links (`mediaSigningSecret`); writing needs none. A bucket needs `checkStorage` to
 * have run first (it loads the driver).
 */
export function createStorage(env: Pick<Env, "storage">, signingSecret: string): FileStorage {
  if (env.storage.kind === "s3") {
    if (!s3Driver) throw new Error("checkStorage(env) loads the bucket's driver: await it before createStorage");
    return s3Driver.createS3Storage({ ...env.storage.location, secret: signingSecret });
  }
  return createLocalStorage({ root: env.storage.root, secret: signingSecret });
}

/**
 * Lets go of what the storage holds open when the runtime stops: a bucket's client and its kept connections (the
 * local disk holds nothing between calls).
 */
export function closeStorage(storage: FileStorage): void {
  if (isS3Storage(storage)) storage.close();
}

/**
 * At start, before anything else is opened: a bucket that does not answer stops the start with one line naming
 * what failed (an EnvError, which server.js and the CLI print alone, without a stack), rather than every upload
 * failing later. The local disk is checked where it is written (`/readyz`, the uploads). For a bucket it also loads
 * the driver `createStorage` needs.
 */
export async function checkStorage(env: Pick<Env, "storage">, timeoutMs?: number): Promise<void> {
  if (env.storage.kind !== "s3") return;
  const { bucketProblem } = await loadS3Driver();
  const problem = await bucketProblem(env.storage.location, timeoutMs);
  if (problem) throw new EnvError(`Storage unavailable (STORAGE_URL): ${problem}`);
}

/** What the start log says about the storage: where, never the key pair. */
export function describeStorage(env: Pick<Env, "storage">): Record<string, string> {
  if (env.storage.kind === "local") return { storage: "local", root: env.storage.root };
  const { bucket, prefix, region, endpoint } = env.storage.location;
  return { storage: "s3", bucket, prefix, region, endpoint: endpoint ?? "AWS" };
}
