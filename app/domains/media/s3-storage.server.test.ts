import { randomBytes } from "node:crypto";
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server, type TestS3Server } from "#tests/support/s3rver-process.ts";
import { describeStorageContract } from "#tests/support/storage-contract.ts";
import { bucketProblem, createS3Client, createS3Storage, type S3FileStorage } from "./s3-storage.server.ts";

let server: TestS3Server;
/** A client of the test's own, to look at the bucket around the driver. */
let client: S3Client;
let prefix = "";
const opened: S3FileStorage[] = [];

beforeAll(async () => {
  server = await startS3Server();
  client = createS3Client(server.location());
});
afterAll(async () => {
  client?.destroy();
  await server?.stop();
});

// Each test has a folder of its own in the bucket, so none sees another's files; the whole server folder goes
// when the file ends.
describeStorageContract("S3 (s3rver)", {
  setUp() {
    prefix = `t-${randomBytes(6).toString("hex")}/site`;
  },
  tearDown() {
    for (const storage of opened.splice(0)) storage.close();
  },
  open(secret) {
    const storage = createS3Storage({ ...server.location(prefix), secret });
    opened.push(storage);
    return storage;
  },
  async headersOf(_storage, key) {
    const head = await client.send(new HeadObjectCommand({ Bucket: server.bucket, Key: `${prefix}/${key}` }));
    return { contentType: head.ContentType ?? null, cacheControl: head.CacheControl ?? null };
  },
});

describe("S3 storage, in the bucket", () => {
  it("keeps key K as the object PREFIX/K, and keys at the bucket's top without a prefix", async () => {
    const inFolder = createS3Storage({ ...server.location("mapping/deep"), secret: "s" });
    const atTop = createS3Storage({ ...server.location(""), secret: "s" });
    try {
      await inFolder.save("public/one.txt", Buffer.from("1"));
      await atTop.save("private/top-level-check.txt", Buffer.from("2"));
      const listed = await client.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: "mapping/" }));
      expect(listed.Contents?.map((object) => object.Key)).toEqual(["mapping/deep/public/one.txt"]);
      const top = await client.send(
        new HeadObjectCommand({ Bucket: server.bucket, Key: "private/top-level-check.txt" }),
      );
      expect(top.ContentLength).toBe(1);
      expect((await inFolder.list("public/")).map((file) => file.key)).toEqual(["public/one.txt"]);
      await atTop.remove("private/top-level-check.txt");
    } finally {
      inFolder.close();
      atTop.close();
    }
  });

  it("lists only objects whose names are keys", async () => {
    const storage = createS3Storage({ ...server.location("odd"), secret: "s" });
    try {
      await client.send(
        new PutObjectCommand({
          Bucket: server.bucket,
          Key: "odd/public/folder/",
          Body: Buffer.alloc(0),
          ContentLength: 0,
        }),
      );
      await client.send(new PutObjectCommand({ Bucket: server.bucket, Key: "odd/public/.hidden", Body: "x" }));
      await storage.save("public/folder/real.txt", Buffer.from("r"));
      expect((await storage.list("public/")).map((file) => file.key)).toEqual(["public/folder/real.txt"]);
    } finally {
      storage.close();
    }
  });
});

describe("the bucket check at start", () => {
  it("passes for a bucket that answers", async () => {
    expect(await bucketProblem(server.location())).toBeNull();
  });

  it("names a missing bucket and a refused key pair in one line, without the secret", async () => {
    const missing = await bucketProblem({ ...server.location(), bucket: "no-such-bucket" });
    expect(missing).toBe(`the bucket "no-such-bucket" at ${server.endpoint} does not exist`);
    const refused = await bucketProblem({
      ...server.location(),
      credentials: { accessKeyId: "WRONG", secretAccessKey: "very-secret-value" },
    });
    expect(refused).toMatch(/^the bucket "vitrine-test" at http:\/\/127\.0\.0\.1:\d+ refused access \(403\)/);
    expect(refused).not.toContain("very-secret-value");
  });
});
