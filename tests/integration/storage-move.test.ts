import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HeadObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createS3Client, createS3Storage, type S3FileStorage } from "#app/domains/media/s3-storage.server.ts";
import { storedFilesDump } from "#tests/support/backup-dump.ts";
import { storageIn } from "#tests/support/gallery-factories.ts";
import { S3RVER_CREDENTIALS, startS3Server, storageUrlOf, type TestS3Server } from "#tests/support/s3rver-process.ts";
import { addSampleContent } from "#tests/support/sample-content.ts";
import { cleanEnv, ROOT, request, run, startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-database.ts";

// `npm run cli -- storage move --to …`: a site's files from DATA_DIR/storage into a bucket (s3rver) and back, as
// an owner runs it. The database plays no part in it: one SQLite site is enough.
vi.setConfig({ testTimeout: 240_000 });

let database: TestDatabase;
let s3: TestS3Server;
let client: S3Client;
let localFiles: Record<string, string>;
const opened: S3FileStorage[] = [];

const KEYS = {
  AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
};

/** STORAGE_URL for a folder of the test bucket. */
const storageUrl = (prefix: string) => storageUrlOf(s3, prefix);
function bucketAt(prefix: string): S3FileStorage {
  const storage = createS3Storage({ ...s3.location(prefix), secret: "test" });
  opened.push(storage);
  return storage;
}
const freshPrefix = () => `move-${randomBytes(6).toString("hex")}`;

function cliEnv(dataDir: string, variables: Record<string, string> = {}) {
  return cleanEnv({ DATA_DIR: dataDir, ...KEYS, ...variables });
}
function cli(dataDir: string, args: string[], variables: Record<string, string> = {}) {
  return run("npm", ["run", "cli", "--", ...args], cliEnv(dataDir, variables), 180_000);
}
/** The numbers of a move's summary line. */
function summaryOf(stderr: string) {
  const match = /(\d+) copied \([^)]*\), (\d+) already there, (\d+) failed.* \(of (\d+) files\)/.exec(stderr);
  if (!match) throw new Error(`No summary in:\n${stderr}`);
  const [copied = 0, already = 0, failed = 0, total = 0] = match.slice(1).map(Number);
  return { copied, already, failed, total };
}
async function objectCount(prefix: string): Promise<number> {
  let count = 0;
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${prefix}/`, ContinuationToken }),
    );
    count += page.KeyCount ?? 0;
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return count;
}

beforeAll(async () => {
  database = await createTestDatabase("sqlite");
  // Pictures through the real pipeline (every size and the private original), links, FAQ, a video.
  await addSampleContent(database.db, storageIn(database.location.dataDir));
  localFiles = await storedFilesDump(storageIn(database.location.dataDir));
  s3 = await startS3Server();
  client = createS3Client(s3.location());
});
afterAll(async () => {
  for (const storage of opened.splice(0)) storage.close();
  client?.destroy();
  await s3?.stop();
  await database?.destroy();
});

describe("npm run cli -- storage move", () => {
  it("copies every file into the bucket, copies nothing the second time, and the site then serves from the bucket", async () => {
    const dataDir = database.location.dataDir;
    const prefix = freshPrefix();
    const total = Object.keys(localFiles).length;
    expect(total).toBeGreaterThan(20);

    const first = await cli(dataDir, ["storage", "move", "--to", storageUrl(prefix)]);
    expect(first.stderr).toContain(`Copying ${total} files`);
    expect(summaryOf(first.stderr)).toEqual({ copied: total, already: 0, failed: 0, total });
    expect(first.stderr).toContain(`Every file is in the bucket "${s3.bucket}" (folder "${prefix}")`);
    expect(first.stderr).toContain(`STORAGE_URL=${storageUrl(prefix)}`);
    expect(first.stderr).not.toContain(S3RVER_CREDENTIALS.secretAccessKey);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("");

    // Every file, byte for byte, with the headers the site gives its key; the local files are left in place.
    expect(await storedFilesDump(bucketAt(prefix))).toEqual(localFiles);
    expect(await storedFilesDump(storageIn(dataDir))).toEqual(localFiles);
    const keys = Object.keys(localFiles);
    const picture = keys.find((key) => key.startsWith("public/images/") && key.endsWith(".webp"));
    const original = keys.find((key) => key.startsWith("private/originals/"));
    const head = (key: string | undefined) =>
      client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${key}` }));
    expect(await head(picture)).toMatchObject({
      ContentType: "image/webp",
      CacheControl: "public, max-age=31536000, immutable",
    });
    expect((await head(original)).CacheControl).toBe("private, no-store");

    // Again: nothing copied, nothing doubled.
    const second = await cli(dataDir, ["storage", "move", "--to", storageUrl(prefix)]);
    expect(summaryOf(second.stderr)).toEqual({ copied: 0, already: total, failed: 0, total });
    expect(second.code).toBe(0);
    expect(await objectCount(prefix)).toBe(total);

    // The site started with STORAGE_URL serves the pictures from the bucket: the local folder is set aside first,
    // so that nothing could come from it.
    const aside = path.join(dataDir, "storage-aside");
    fs.renameSync(path.join(dataDir, "storage"), aside);
    try {
      const server = await startServer({
        dataDir,
        authSecret: TEST_AUTH_SECRET,
        env: { STORAGE_URL: storageUrl(prefix), ...KEYS },
      });
      try {
        const home = await request(server.url("/"));
        expect(home.status).toBe(200);
        const media = [...new Set(home.body.match(/\/media\/images\/[A-Za-z0-9_./-]+\.(?:avif|webp|jpg)/g) ?? [])];
        expect(media.length).toBeGreaterThan(5);
        for (const address of media) {
          const answer = await fetch(server.url(address));
          expect(answer.status, address).toBe(200);
          const bytes = Buffer.from(await answer.arrayBuffer());
          const file = path.join(aside, "public", ...address.slice("/media/".length).split("/"));
          expect(bytes.equals(fs.readFileSync(file)), address).toBe(true);
        }
      } finally {
        expect(await server.stop()).toBe(0);
      }
    } finally {
      fs.renameSync(aside, path.join(dataDir, "storage"));
    }

    // And back: with STORAGE_URL set, --to local copies the bucket's files into an empty data folder.
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-move-back-"));
    try {
      const back = await cli(elsewhere, ["storage", "move", "--to", "local"], { STORAGE_URL: storageUrl(prefix) });
      expect(summaryOf(back.stderr)).toEqual({ copied: total, already: 0, failed: 0, total });
      expect(back.stderr).toMatch(/remove\s+STORAGE_URL/);
      expect(back.code).toBe(0);
      expect(await storedFilesDump(storageIn(elsewhere))).toEqual(localFiles);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("stops with a clear report when the bucket goes away midway, and a second run copies only the rest", async () => {
    const dataDir = database.location.dataDir;
    const prefix = freshPrefix();
    const total = Object.keys(localFiles).length;
    // The bucket stops answering once the first file is reported copied.
    const child: ChildProcess = spawn("npm", ["run", "cli", "--", "storage", "move", "--to", storageUrl(prefix)], {
      cwd: ROOT,
      env: cliEnv(dataDir),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let paused: Promise<void> | null = null;
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (!paused && /^ {2}1 of \d+ files/m.test(stderr)) paused = s3.pause();
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    await paused;
    await s3.resume();

    const first = summaryOf(stderr);
    expect(paused).not.toBeNull();
    expect(first.total).toBe(total);
    expect(first.copied).toBeGreaterThanOrEqual(1);
    expect(first.copied).toBeLessThan(total);
    expect(stderr).toMatch(/Stopped early: 10 files in a row could not be copied\./);
    expect(stderr).toMatch(/ {2}not copied: (public|private)\/\S+: \S/);
    expect(stderr).toContain("run the same command again to copy what is missing");
    expect(stderr).not.toContain("Every file is in");
    expect(code).toBe(1);

    const second = await cli(dataDir, ["storage", "move", "--to", storageUrl(prefix)]);
    const rest = summaryOf(second.stderr);
    expect(rest.already).toBeGreaterThanOrEqual(first.copied);
    expect(rest.copied + rest.already).toBe(total);
    expect(rest.failed).toBe(0);
    expect(second.code).toBe(0);
    expect(await storedFilesDump(bucketAt(prefix))).toEqual(localFiles);
    expect(await objectCount(prefix)).toBe(total);
  });

  it("refuses what it cannot do with one clear line, copying nothing", async () => {
    const dataDir = database.location.dataDir;
    const prefix = freshPrefix();
    const cases: [string[], Record<string, string>, RegExp][] = [
      [["storage", "move"], {}, /storage move takes --to/],
      [["storage", "move", "--to", "s3://Not_A_Bucket/x"], {}, /--to must name the bucket/],
      [["storage", "move", "--to", "local"], {}, /on the local disk already/],
      [
        ["storage", "move", "--to", storageUrl(prefix)],
        { STORAGE_URL: storageUrl(prefix) },
        /already: nothing to move/,
      ],
      [
        [
          "storage",
          "move",
          "--to",
          `s3://no-such-bucket/x?endpoint=${encodeURIComponent(s3.endpoint)}&forcePathStyle=true`,
        ],
        {},
        /Cannot copy into --to: the bucket "no-such-bucket" .* does not exist/,
      ],
    ];
    // Each run starts npm and tsx (seconds on a busy machine): they run side by side.
    const results = await Promise.all(cases.map(([args, variables]) => cli(dataDir, args, variables)));
    for (const [index, [args, , message]] of cases.entries()) {
      const result = results[index];
      expect(result?.stderr, args.join(" ")).toMatch(message);
      expect(result?.code, args.join(" ")).not.toBe(0);
      expect(result?.stdout).toBe("");
    }
    expect(await objectCount(prefix)).toBe(0);
  });
});
