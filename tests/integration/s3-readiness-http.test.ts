import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3Storage, type S3FileStorage } from "#app/domains/media/s3-storage.server.ts";
import { parseEnv } from "#app/lib/env.server.ts";
import { getRuntime, startRuntime, stopRuntime } from "#app/runtime/runtime.server.ts";
import { stopServerAndDatabase } from "#tests/support/admin-server.ts";
import { expectErrorLog } from "#tests/support/error-logs.ts";
import { bucketEnv, type CountingRelay, startCountingRelay } from "#tests/support/s3-relay.ts";
import { S3RVER_CREDENTIALS } from "#tests/support/s3rver-process.ts";
import { freePort, request, type ServerProcess, startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * A load balancer must take an instance whose bucket is away out of rotation: /readyz asks the bucket (HeadBucket,
 * kept a few seconds so that a probe every second does not hammer it), answers 503 while it is away and 200 once it
 * is back; the site's media meanwhile answer 503, never cached. The bucket here is a real s3rver, stopped and started
 * again on its port and folder, behind a relay that counts what the server asks it.
 */

const BUCKET = "readiness";
const FILE_KEY = "public/images/probe/320-0123456789abcdef.jpg";
const FILE = Buffer.from("not really a picture, but bytes all the same");

/** s3rver on a fixed port and folder, so that a stopped one comes back with its files. */
function bucketServer(port: number, directory: string) {
  let running: S3rver | null = null;
  return {
    async start() {
      running = new S3rver({
        address: "127.0.0.1",
        port,
        silent: true,
        directory,
        configureBuckets: [{ name: BUCKET }],
      });
      await running.run();
    },
    async stop() {
      await running?.close();
      running = null;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("readiness with the files in a bucket", () => {
  let directory: string;
  let bucket: ReturnType<typeof bucketServer>;
  let relay: CountingRelay;
  let database: TestDatabase;
  let server: ServerProcess;
  let writer: S3FileStorage;

  beforeAll(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-readiness-s3-"));
    const port = await freePort();
    bucket = bucketServer(port, directory);
    await bucket.start();
    relay = await startCountingRelay(port);
    database = await createTestDatabase("sqlite");
    server = await startServer({
      dataDir: database.location.dataDir,
      authSecret: TEST_AUTH_SECRET,
      env: bucketEnv(BUCKET, relay.endpoint),
    });
    writer = createS3Storage({
      bucket: BUCKET,
      prefix: "site",
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
      secret: "unused",
    });
    await writer.save(FILE_KEY, FILE);
  });

  afterAll(async () => {
    await stopServerAndDatabase(server, database);
    writer?.close();
    await relay?.close();
    await bucket?.stop();
    if (directory) fs.rmSync(directory, { recursive: true, force: true });
  });

  const readiness = async () => {
    const answer = await request(server.url("/readyz"));
    return { status: answer.status, body: JSON.parse(answer.body) as unknown, cache: answer.headers["cache-control"] };
  };
  const mediaPath = `/media/${FILE_KEY.slice("public/".length)}`;

  it("asks the bucket at most once per few seconds, however often it is probed", async () => {
    // s3rver may answer a GET right after a PUT before its file holds every byte: the site serves it once it does.
    await expect
      .poll(async () => (await request(server.url(mediaPath))).body, { timeout: 5_000 })
      .toBe(FILE.toString());
    const headBucket = `HEAD /${BUCKET} `;
    const before = relay.requests(headBucket);
    for (let probe = 0; probe < 10; probe++) {
      expect(await readiness()).toEqual({
        status: 200,
        body: { status: "ok", checks: { database: "ok", storage: "ok" } },
        cache: "no-store",
      });
      await sleep(100);
    }
    // Ten probes in a second: one HeadBucket at most (none when the one before is still kept).
    expect(relay.requests(headBucket) - before).toBeLessThanOrEqual(1);
    // The bucket is what is checked, not a folder standing in for it.
    expect(fs.existsSync(path.join(database.location.dataDir, "storage"))).toBe(false);
  });

  it("answers 503 while the bucket is stopped, naming the storage, and 200 once it is back", async () => {
    // Background work that meets the stopped bucket (a storage sweep) says so.
    expectErrorLog(/"msg":"Sweeping unreferenced [a-z ]+ failed"/);
    await bucket.stop();
    try {
      // Within the few seconds an answer is kept, plus the probe's own timeout.
      await expect.poll(async () => (await readiness()).status, { timeout: 15_000, interval: 250 }).toBe(503);
      expect(await readiness()).toEqual({
        status: 503,
        body: { status: "unavailable", checks: { database: "ok", storage: "failed" } },
        cache: "no-store",
      });
      expect((await request(server.url("/healthz"))).status).toBe(200);
      const warning = await server.waitForLogLine((line) => line.msg === "not ready" && line.check === "storage");
      expect(warning).toMatchObject({ level: 40, reason: expect.stringContaining(relay.endpoint) });
      // The client's retries of a refused connection may outlast the probe's time: either says what failed.
      expect(warning?.reason).toMatch(
        /^The bucket of STORAGE_URL: http:\/\/127\.0\.0\.1:\d+ (did not answer within 2 s|could not be reached \(\w+\))$/,
      );
      expect(warning).not.toHaveProperty("stack");
      expect(JSON.stringify(warning)).not.toContain(S3RVER_CREDENTIALS.secretAccessKey);

      // A visitor's picture meanwhile: "try again shortly", which no cache keeps, and no 500.
      const media = await request(server.url(mediaPath));
      expect(media.status).toBe(503);
      expect(media.headers["cache-control"]).toBe("no-store");
      expect(media.headers["retry-after"]).toBe("5");
      expect(media.headers.etag).toBeUndefined();
      expect(media.body).toContain("try again");
      const unreachable = await server.waitForLogLine((line) => line.msg === "Storage unreachable");
      expect(unreachable).toMatchObject({ level: 40, path: mediaPath });
      expect(unreachable).not.toHaveProperty("stack");
    } finally {
      await bucket.start();
    }
    await expect.poll(async () => (await readiness()).status, { timeout: 15_000, interval: 250 }).toBe(200);
    const media = await request(server.url(mediaPath));
    expect(media.status).toBe(200);
    expect(media.body).toBe(FILE.toString());
  }, 60_000);
});

describe("the runtime on a bucket", () => {
  it("lets go of the bucket's connections when it stops", async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-runtime-s3-"));
    const port = await freePort();
    const bucket = bucketServer(port, path.join(directory, "bucket"));
    await bucket.start();
    const relay = await startCountingRelay(port);
    try {
      const env = parseEnv({
        DATA_DIR: path.join(directory, "data"),
        AUTH_SECRET: TEST_AUTH_SECRET,
        ...bucketEnv(BUCKET, relay.endpoint),
      });
      await startRuntime(env);
      expect(await getRuntime().storage.stat("public/nothing-here.txt")).toBeNull();
      // The client keeps its connection open for the next request.
      expect(relay.open()).toBeGreaterThan(0);
      await stopRuntime();
      await expect.poll(() => relay.open(), { timeout: 2_000 }).toBe(0);
    } finally {
      await stopRuntime();
      await relay.close();
      await bucket.stop();
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});
