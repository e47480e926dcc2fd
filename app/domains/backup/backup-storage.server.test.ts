import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HeadObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import pg from "pg";
import * as tar from "tar";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "#app/db/database.server.ts";
import { type MigrationSet, siteMigrations } from "#app/db/migrations.server.ts";
import { createS3Client, createS3Storage, type S3FileStorage } from "#app/domains/media/s3-storage.server.ts";
import {
  canonicalDump,
  createEmptyTarget,
  type EmptyTarget,
  storedFilesDump,
  targetContents,
} from "#tests/support/backup-dump.ts";
import { startS3Server, type TestS3Server } from "#tests/support/s3rver-process.ts";
import { addSampleContent } from "#tests/support/sample-content.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";
import { createBackup, MANIFEST_NAME } from "./backup.server.ts";
import { RestoreError, restoreBackup, verifyBackup } from "./restore.server.ts";

// Backups of a site whose files are in a bucket (a real S3-compatible server, s3rver), restored into a site on
// the local disk and back: the archive is the same whatever the storage (docs/decisions/003-backup-format.md).

// A restore into s3rver takes about 0.1 s a file on this machine; each test restores a site of 45 files a few times.
vi.setConfig({ testTimeout: 120_000 });

let server: TestS3Server;
let client: S3Client;
const opened: S3FileStorage[] = [];
const targets: EmptyTarget[] = [];
const tempDirs: string[] = [];

function bucketAt(prefix: string): S3FileStorage {
  const storage = createS3Storage({ ...server.location(prefix), secret: "test" });
  opened.push(storage);
  return storage;
}
const freshPrefix = () => `t-${randomBytes(6).toString("hex")}/site`;
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-backup-s3-"));
  tempDirs.push(dir);
  return dir;
}
async function emptyTarget(kind: "sqlite" | "postgres"): Promise<EmptyTarget> {
  const target = await createEmptyTarget(kind);
  targets.push(target);
  return target;
}
/** The rows of a restored site (whichever database), to compare with the source's. */
async function tablesOf(target: EmptyTarget) {
  const database = openDatabase(
    target.kind === "postgres"
      ? { databaseUrl: target.databaseUrl }
      : { sqliteFile: path.join(target.dataDir, "vitrine.sqlite") },
  );
  try {
    return (await canonicalDump(database.db, target.dataDir)).tables;
  } finally {
    await database.close();
  }
}
/** Keys under a prefix of the bucket, read around the driver. */
async function objectsUnder(prefix: string): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: `${prefix}/` }));
  return (listed.Contents ?? []).map((object) => object.Key ?? "").sort();
}

beforeAll(async () => {
  server = await startS3Server();
  client = createS3Client(server.location());
});
afterEach(async () => {
  for (const target of targets.splice(0)) await target.destroy();
});
afterAll(async () => {
  for (const storage of opened.splice(0)) storage.close();
  client?.destroy();
  await server?.stop();
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(databaseKinds)("a site whose files are in a bucket (%s)", (kind) => {
  let source: TestDatabase;
  let sourcePrefix: string;
  let sourceFiles: Record<string, string>;
  let archive: string;

  beforeAll(async () => {
    source = await createTestDatabase(kind);
    sourcePrefix = freshPrefix();
    const storage = bucketAt(sourcePrefix);
    // Pictures through the real pipeline, straight into the bucket; a video larger than one upload part (5 MB: a
    // multipart upload on the way back), one of more than the 1 MB a backup holds in memory, and an empty file.
    await addSampleContent(source.db, storage);
    await storage.save("public/videos/long.mp4", randomBytes(6 * 1024 * 1024 + 123));
    await storage.save("private/originals/big.bin", randomBytes(1024 * 1024 + 1));
    await storage.save("public/videos/empty.txt", Buffer.alloc(0));
    sourceFiles = await storedFilesDump(storage);
    archive = path.join(tempDir(), "from-bucket.tar.gz");
    await createBackup({ database: source, dataDir: source.location.dataDir, storage }, archive);
  });
  afterAll(async () => {
    await source.destroy();
  });

  it("backs up every file of the bucket and nothing of the data folder's own storage", async () => {
    expect(Object.keys(sourceFiles).length).toBeGreaterThan(20);
    // The data folder of a bucket-backed site holds no stored file: all came from the bucket.
    expect(fs.existsSync(path.join(source.location.dataDir, "storage", "public"))).toBe(false);
    const manifest = await verifyBackup(archive);
    const archived = manifest.entries.filter((entry) => entry.path.startsWith("storage/"));
    expect(archived.map((entry) => entry.path.slice("storage/".length)).sort()).toEqual(
      Object.keys(sourceFiles).sort(),
    );
    for (const entry of archived) expect(entry.sha256).toBe(sourceFiles[entry.path.slice("storage/".length)]);
    expect(manifest.counts.files).toBe(archived.length);
    expect(manifest.counts.fileBytes).toBe(archived.reduce((sum, entry) => sum + entry.size, 0));
  });

  it("restores into a site on the local disk byte for byte, and from there into a bucket again", async () => {
    const sourceTables = (await canonicalDump(source.db, source.location.dataDir)).tables;
    for (const targetKind of databaseKinds) {
      const local = await emptyTarget(targetKind);
      await restoreBackup(archive, local);
      expect(await storedFilesDump(local.storage)).toEqual(sourceFiles);
      expect(await tablesOf(local)).toEqual(sourceTables);

      // Back: a backup of the disk-backed site, restored into an empty folder of the bucket.
      const localDatabase = openDatabase(
        targetKind === "postgres"
          ? { databaseUrl: local.databaseUrl }
          : { sqliteFile: path.join(local.dataDir, "vitrine.sqlite") },
      );
      const back = path.join(tempDir(), `from-disk-${targetKind}.tar.gz`);
      try {
        await createBackup({ database: localDatabase, dataDir: local.dataDir, storage: local.storage }, back);
      } finally {
        await localDatabase.close();
      }
      const again = await emptyTarget(kind);
      const prefix = freshPrefix();
      const bucket = bucketAt(prefix);
      const progress: number[] = [];
      await restoreBackup(back, { ...again, storage: bucket, onProgress: ({ done }) => progress.push(done) });
      expect(await storedFilesDump(bucket)).toEqual(sourceFiles);
      expect(await tablesOf(again)).toEqual(sourceTables);
      expect(progress).toEqual(Object.keys(sourceFiles).map((_, index) => index + 1));
      // Nothing went to the restored site's data folder: the files are in the bucket, with the headers the site
      // gives each key.
      expect((await targetContents(again)).files.filter((file) => file.startsWith("storage/"))).toEqual([]);
      const picture = Object.keys(sourceFiles).find((key) => key.startsWith("public/images/") && key.endsWith(".avif"));
      const head = await client.send(new HeadObjectCommand({ Bucket: server.bucket, Key: `${prefix}/${picture}` }));
      expect(head.ContentType).toBe("image/avif");
      expect(head.CacheControl).toBe("public, max-age=31536000, immutable");
      const original = Object.keys(sourceFiles).find((key) => key.startsWith("private/originals/"));
      const privateHead = await client.send(
        new HeadObjectCommand({ Bucket: server.bucket, Key: `${prefix}/${original}` }),
      );
      expect(privateHead.CacheControl).toBe("private, no-store");
    }
  });

  it("refuses a bucket that holds a file, changing nothing", async () => {
    const target = await emptyTarget(kind);
    const prefix = freshPrefix();
    const bucket = bucketAt(prefix);
    await bucket.save("private/left-over.txt", Buffer.from("someone's file"));

    await expect(
      restoreBackup(archive, { ...target, storage: bucket, storageName: 'The bucket "vitrine-test"' }),
    ).rejects.toThrow(/^The bucket "vitrine-test" is not empty \(1 files\).*Nothing was restored\.$/);

    expect(await objectsUnder(prefix)).toEqual([`${prefix}/private/left-over.txt`]);
    expect(await targetContents(target)).toEqual({ tables: [], files: [] });
  });

  it("removes the files it wrote when the database cannot be restored, leaving the bucket empty", async () => {
    // A later version whose newest migration fails: the files are written first, then the database fails.
    const failing: MigrationSet = (databaseKind) => ({
      ...siteMigrations(databaseKind),
      "9999_test_fails": {
        async up() {
          throw new Error("the test's migration fails");
        },
      },
    });
    const target = await emptyTarget(kind);
    const prefix = freshPrefix();
    const bucket = bucketAt(prefix);
    let written = 0;
    await expect(
      restoreBackup(archive, {
        ...target,
        storage: bucket,
        migrations: failing,
        onProgress: ({ done }) => {
          written = done;
        },
      }),
    ).rejects.toThrow(/the test's migration fails/);

    expect(written).toBe(Object.keys(sourceFiles).length);
    expect(await objectsUnder(prefix)).toEqual([]);
    expect(await targetContents(target)).toEqual({ tables: [], files: [] });
    if (kind === "postgres") {
      // Nor the migrations' trigger functions: the database is as empty as it was.
      const check = new pg.Client({ connectionString: target.databaseUrl });
      await check.connect();
      try {
        const { rows } = await check.query<{ name: string }>(
          "select proname as name from pg_proc where pronamespace = current_schema()::regnamespace",
        );
        expect(rows).toEqual([]);
      } finally {
        await check.end();
      }
    }
  });

  it("restores an archive of the earlier layout (manifest first, folder entries) into a bucket", async () => {
    // As the previous version wrote it with tar.create: the same files, the manifest first.
    const unpacked = tempDir();
    await tar.extract({ file: archive, cwd: unpacked });
    const earlier = path.join(tempDir(), "earlier.tar.gz");
    await tar.create({ file: earlier, gzip: true, cwd: unpacked, portable: true }, [
      MANIFEST_NAME,
      "database",
      "storage",
    ]);
    // The layout is what is tested here, not the database: SQLite is enough.
    const target = await emptyTarget("sqlite");
    const bucket = bucketAt(freshPrefix());
    await restoreBackup(earlier, { ...target, storage: bucket });
    expect(await storedFilesDump(bucket)).toEqual(sourceFiles);
  });
});

describe("restoring into a bucket that goes away midway", () => {
  it("fails with a message that says the bucket must be emptied, since what was written could not be removed", async () => {
    const source = await createTestDatabase("sqlite");
    try {
      const storage = bucketAt(freshPrefix());
      for (let index = 0; index < 30; index++) {
        await storage.save(`public/videos/clip-${index}.txt`, Buffer.from(`clip ${index}`));
      }
      const archive = path.join(tempDir(), "thirty.tar.gz");
      await createBackup({ database: source, dataDir: source.location.dataDir, storage }, archive);

      const target = await emptyTarget("sqlite");
      const prefix = freshPrefix();
      const bucket = bucketAt(prefix);
      let paused = false;
      const restore = restoreBackup(archive, {
        ...target,
        storage: bucket,
        storageName: "The bucket",
        onProgress: ({ done }) => {
          if (done === 10 && !paused) {
            paused = true;
            void server.pause();
          }
        },
      });
      const failure = await restore.then(
        () => null,
        (error: unknown) => error as Error,
      );
      await server.resume();
      // The files written before it went away could not be removed either: the message says to empty it.
      expect(failure?.message).toMatch(/could not all be removed .*: empty the bucket before restoring again\.$/);
      expect(failure).not.toBeInstanceOf(RestoreError);
      expect((await objectsUnder(prefix)).length).toBeGreaterThanOrEqual(10);
      expect(await targetContents(target)).toEqual({ tables: [], files: [] });
      // And a second try is refused rather than mixed with those files.
      await expect(restoreBackup(archive, { ...target, storage: bucket })).rejects.toThrow(/is not empty/);
    } finally {
      await source.destroy();
    }
  });
});
