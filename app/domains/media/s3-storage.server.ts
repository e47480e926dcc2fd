import { Readable, Transform } from "node:stream";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { markBucketStorage, nameOf, type S3FileStorage, type S3Location, statusOf } from "./bucket-storage.server.ts";
import { cacheControlOf, contentTypeOf } from "./media-keys.server.ts";
import { presignGetUrl } from "./s3-presign.server.ts";
import {
  assertValidKey,
  assertValidPrefix,
  type ByteRange,
  createUrlSigner,
  existsError,
  notFoundError,
  owningStream,
  pageBounds,
  pageOfFiles,
  StorageError,
  type StoredFile,
} from "./storage.server.ts";

// The tests and the bench name the driver's types where they make one.
export type { S3FileStorage, S3Location };

/** How many keys one DeleteObjects request may name (S3's limit). */
const DELETE_BATCH = 1000;
/** A bucket that does not take the connection by then is treated as away (the SDK's default is to wait forever). */
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * How long a read (HEAD or GET) may wait for the answer's headers: a visitor's request must not hang on a bucket
 * that accepted the connection and says nothing. The body then streams for as long as it takes.
 */
const READ_TIMEOUT_MS = 10_000;
/**
 * Connections to the bucket kept at most (the SDK's default is 50). Media are served through the site, so each
 * file being sent holds one for as long as its visitor takes to read it (a video, a slow phone): 50 slow readers
 * would queue every other visitor's files and the uploads behind them.
 */
const MAX_SOCKETS = 256;

export function createS3Client(location: S3Location): S3Client {
  return new S3Client({
    region: location.region,
    endpoint: location.endpoint,
    forcePathStyle: location.forcePathStyle,
    credentials: location.credentials,
    // Recent SDKs add CRC checksums (and aws-chunked bodies) to every upload by default, which many S3-compatible
    // servers (s3rver among them) refuse or misread; only operations that require one get it.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: {
      connectionTimeout: CONNECT_TIMEOUT_MS,
      // Without it a request timeout is only a warning on the console; set per call (reads), not for uploads.
      throwOnRequestTimeout: true,
      httpAgent: { maxSockets: MAX_SOCKETS },
      httpsAgent: { maxSockets: MAX_SOCKETS },
    },
  });
}

const isMissing = (error: unknown) => statusOf(error) === 404 || ["NoSuchKey", "NotFound"].includes(nameOf(error));

// 412: the conditional write found the name taken; 409: another conditional write to it was under way (AWS).
const isTaken = (error: unknown) =>
  statusOf(error) === 412 || statusOf(error) === 409 || nameOf(error) === "PreconditionFailed";

function isValidKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

/**
 * The asked bytes of a ranged answer. HTTP lets a server answer a range with more than was asked (the whole object,
 * 200 without Content-Range) and some S3-compatible servers do (s3rver widens `bytes=0-0` to the whole object);
 * the caller, e.g. a video's 206 answer, must get exactly `start`–`end`.
 */
function exactRange(body: Readable, contentRange: string | undefined, range: ByteRange, key: string): Readable {
  const sent = /^bytes (\d+)-(\d+)\//.exec(contentRange ?? "");
  const sentStart = sent ? Number(sent[1]) : 0;
  if (sent && sentStart === range.start && Number(sent[2]) === range.end) return body;
  if (sentStart > range.start) {
    body.destroy();
    throw new Error(`The bucket answered bytes ${contentRange} of "${key}" for ${range.start}-${range.end}`);
  }
  let skip = range.start - sentStart;
  let left = range.end - range.start + 1;
  const cut = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const from = Math.min(skip, chunk.length);
      skip -= from;
      const part = chunk.subarray(from, from + left);
      left -= part.length;
      callback(null, part.length > 0 ? part : undefined);
      // Everything asked has passed: the rest of the body is not read.
      if (left === 0) {
        cut.end();
        body.destroy();
      }
    },
  });
  body.on("error", (error) => cut.destroy(error));
  return body.pipe(cut);
}

/**
 * Files as objects in a bucket: key `public/a.avif` is the object `PREFIX/public/a.avif`. Each object carries the
 * Content-Type of its extension and the Cache-Control the site sends for its area, so that it could be served
 * from the bucket as it is through the site (visitors are still served through the site, by `readStream`).
 * Private links stay the site's own signed `/media-private/…` addresses, as with the local disk.
 */
export function createS3Storage(options: S3Location & { secret: string; client?: S3Client }): S3FileStorage {
  const client = options.client ?? createS3Client(options);
  const Bucket = options.bucket;
  const root = options.prefix ? `${options.prefix}/` : "";

  const objectKeyOf = (key: string) => {
    assertValidKey(key);
    return `${root}${key}`;
  };

  const headersOf = (key: string) => ({ ContentType: contentTypeOf(key), CacheControl: cacheControlOf(key) });

  const statOf = async (key: string): Promise<StoredFile | null> => {
    const Key = objectKeyOf(key);
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key }), { requestTimeout: READ_TIMEOUT_MS });
      return { key, size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };

  /**
   * Refuses to replace an existing name unless `overwrite`. The write itself is conditional (`If-None-Match: *`),
   * which AWS S3 (and MinIO, R2 and others) enforce atomically; the look before it gives the same refusal on
   * servers that ignore the condition (s3rver does). On those, two writers racing for one name between the look
   * and the write are not kept apart: the later one replaces the earlier file. The site's names are unique (ids,
   * content hashes), so that race needs two writes of the very same file.
   */
  const refuseTaken = async (key: string, overwrite: boolean) => {
    if (!overwrite && (await statOf(key))) throw existsError(key);
  };
  const condition = (overwrite: boolean) => (overwrite ? {} : { IfNoneMatch: "*" });

  const copyObject = async (from: string, to: string, overwrite: boolean) => {
    const source = objectKeyOf(from);
    const Key = objectKeyOf(to);
    if (!(await statOf(from))) throw notFoundError(from);
    await refuseTaken(to, overwrite);
    try {
      await client.send(
        new CopyObjectCommand({
          Bucket,
          Key,
          CopySource: `${Bucket}/${source.split("/").map(encodeURIComponent).join("/")}`,
          // The target's own headers: a copy from private/ to public/ must not keep "private, no-store".
          MetadataDirective: "REPLACE",
          ...headersOf(to),
          ...condition(overwrite),
        }),
      );
    } catch (error) {
      if (isMissing(error)) throw notFoundError(from);
      if (isTaken(error)) throw existsError(to);
      throw error;
    }
  };

  const storage: S3FileStorage = {
    save: (key, data, saveOptions = {}) =>
      owningStream(data, async () => {
        const Key = objectKeyOf(key);
        const overwrite = saveOptions.overwrite === true;
        await refuseTaken(key, overwrite);
        const params = { Bucket, Key, ...headersOf(key), ...condition(overwrite) };
        try {
          if (Buffer.isBuffer(data)) await client.send(new PutObjectCommand({ ...params, Body: data }));
          else {
            // A stream of unknown length (a video of up to VIDEO_UPLOAD_MAX_MB) cannot go in one plain PUT, and
            // buffering it whole would hold a gigabyte in memory. `Upload` sends what fits in one 5 MB part as one
            // PUT and anything larger as a multipart upload (a few parts in memory at a time), which the bucket
            // shows under the name only once complete and which is aborted when the source fails midway.
            await new Upload({ client, params: { ...params, Body: data }, leavePartsOnError: false }).done();
          }
        } catch (error) {
          if (isTaken(error)) throw existsError(key);
          throw error;
        }
        const stored = await statOf(key);
        if (!stored) throw new StorageError("not_found", `"${key}" vanished right after it was written`);
        return stored;
      }),

    async readStream(key, range) {
      const Key = objectKeyOf(key);
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
          { requestTimeout: READ_TIMEOUT_MS },
        );
        // In Node.js the body is the HTTP response itself: a Readable, streamed as it arrives.
        if (!(answer.Body instanceof Readable)) throw new Error(`The bucket sent no readable body for "${key}"`);
        return range ? exactRange(answer.Body, answer.ContentRange, range, key) : answer.Body;
      } catch (error) {
        if (isMissing(error)) throw notFoundError(key);
        throw error;
      }
    },

    stat: statOf,

    async list(prefix, listOptions = {}) {
      assertValidPrefix(prefix);
      const { limit, offset } = pageBounds(listOptions);
      // S3 lists keys in ascending order (byte order, the same as the JavaScript order of valid, ASCII keys), so
      // the default order needs only the first offset + limit keys; any other order needs every key to sort.
      const sortedAlready =
        (listOptions.sortBy?.column ?? "name") === "name" && (listOptions.sortBy?.order ?? "asc") === "asc";
      const found: StoredFile[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: `${root}${prefix}`, ContinuationToken, MaxKeys: 1000 }),
        );
        for (const object of page.Contents ?? []) {
          const key = (object.Key ?? "").slice(root.length);
          // An object written around the site (a "folder" marker, a name no key can have) is one no other
          // method would accept: it is left out rather than handed on.
          if (!isValidKey(key)) continue;
          found.push({ key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken && !(sortedAlready && found.length >= offset + limit));
      return pageOfFiles(found, listOptions);
    },

    async move(from, to, moveOptions = {}) {
      const overwrite = moveOptions.overwrite === true;
      if (from === to) {
        // A copy onto itself followed by the delete would lose the file.
        objectKeyOf(from);
        if (!(await statOf(from))) throw notFoundError(from);
        if (!overwrite) throw existsError(to);
        return;
      }
      // S3 has no rename: a copy, then the delete. Not atomic: until the delete both names answer, and a crash in
      // between leaves both (the storage sweeps remove the one no row names).
      await copyObject(from, to, overwrite);
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKeyOf(from) }));
    },

    async copy(from, to, copyOptions = {}) {
      await copyObject(from, to, copyOptions.overwrite === true);
    },

    async remove(keys) {
      // Every key is checked before anything is removed, as on the local disk.
      const objectKeys = (Array.isArray(keys) ? keys : [keys]).map(objectKeyOf);
      for (let start = 0; start < objectKeys.length; start += DELETE_BATCH) {
        const batch = objectKeys.slice(start, start + DELETE_BATCH);
        // S3 answers a delete of a missing key as done, so missing keys are ignored without a look first.
        const answer = await client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
        );
        const failed = answer.Errors ?? [];
        if (failed.length > 0) {
          const first = failed[0];
          throw new Error(
            `The bucket refused to remove ${failed.length} file(s), "${first?.Key}" first: ${first?.Code} ${first?.Message ?? ""}`.trim(),
          );
        }
      }
    },

    ...createUrlSigner(options.secret),

    problem: (timeoutMs) => headBucket(client, options, timeoutMs),

    async signedObjectUrl(key, expiresInSeconds, signingDate) {
      if (!key.startsWith("public/")) throw new StorageError("invalid_key", `"${key}" is not a public key`);
      return presignGetUrl(options, objectKeyOf(key), expiresInSeconds, signingDate);
    },

    close() {
      client.destroy();
    },
  };
  markBucketStorage(storage);
  return storage;
}

/** One HeadBucket: null when the bucket answers within `timeoutMs`, else one line saying what failed (no secret). */
async function headBucket(client: S3Client, location: S3Location, timeoutMs: number): Promise<string | null> {
  const where = location.endpoint ?? `AWS S3 (region ${location.region})`;
  const bucket = `the bucket "${location.bucket}" at ${where}`;
  try {
    await client.send(new HeadBucketCommand({ Bucket: location.bucket }), {
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
    return null;
  } catch (error) {
    const status = statusOf(error);
    if (status === 404) return `${bucket} does not exist`;
    if (status === 401 || status === 403) {
      return `${bucket} refused access (${status}): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`;
    }
    if (status === 301 || status === 400)
      return `${bucket} answered ${status}: is the region "${location.region}" right?`;
    if (status !== undefined) return `${bucket} answered ${status}`;
    const name = nameOf(error);
    if (name === "AbortError" || name === "TimeoutError") {
      return `${where} did not answer within ${Math.round(timeoutMs / 100) / 10} s`;
    }
    const code = (error as { code?: unknown }).code;
    const reason = typeof code === "string" ? code : (String((error as Error).message ?? name).split("\n")[0] ?? "");
    return `${where} could not be reached (${reason.slice(0, 200)})`;
  }
}

/**
 * Whether the bucket answers with these settings (HeadBucket), checked once at start: null when it does, else one
 * line saying what failed, for the person starting the server. It never holds the credentials.
 */
export async function bucketProblem(location: S3Location, timeoutMs = 10_000): Promise<string | null> {
  const client = createS3Client(location);
  try {
    return await headBucket(client, location, timeoutMs);
  } finally {
    client.destroy();
  }
}
