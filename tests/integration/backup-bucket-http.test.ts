import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { verifyBackup } from "#app/domains/backup/restore.server.ts";
import { createS3Storage, type S3FileStorage } from "#app/domains/media/s3-storage.server.ts";
import { signedInAdminAndMember } from "#tests/support/admin-server.ts";
import { createEmptyTarget, type EmptyTarget, storedFilesDump } from "#tests/support/backup-dump.ts";
import { S3RVER_CREDENTIALS, startS3Server, storageUrlOf, type TestS3Server } from "#tests/support/s3rver-process.ts";
import { addSampleContent } from "#tests/support/sample-content.ts";
import {
  cleanEnv,
  request,
  run,
  type ServerProcess,
  startServer,
  TEST_AUTH_SECRET,
} from "#tests/support/server-process.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

// `npm run cli -- backup` of a site whose files are in a bucket (s3rver), restored with `npm run cli -- restore`
// into a site on the local disk, and from there into a bucket again: each restored site, started as the owner
// would start it, shows the same pages and serves the same pictures, byte for byte.
vi.setConfig({ testTimeout: 400_000 });

const PAGES = ["/", "/links", "/faq", "/videos"];
const KEYS = {
  AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
};

let s3: TestS3Server;
const opened: S3FileStorage[] = [];

/** STORAGE_URL for a folder of the test bucket. */
const storageUrl = (prefix: string) => storageUrlOf(s3, prefix);
function bucketAt(prefix: string): S3FileStorage {
  const storage = createS3Storage({ ...s3.location(prefix), secret: "test" });
  opened.push(storage);
  return storage;
}
const freshPrefix = () => `site-${randomBytes(6).toString("hex")}`;

type Site = { dataDir: string; databaseUrl?: string; prefix?: string };
const envOf = (site: Site) => (site.prefix ? { STORAGE_URL: storageUrl(site.prefix), ...KEYS } : {});

function cli(site: Site, ...args: string[]) {
  return run(
    "npm",
    ["run", "cli", "--", ...args],
    cleanEnv({ DATA_DIR: site.dataDir, DATABASE_URL: site.databaseUrl, ...envOf(site) }),
    180_000,
  );
}

/** What a visitor sees of a site: its pages (what differs per server taken out) and every picture they show. */
async function visit(site: Site): Promise<{ pages: Map<string, string>; media: Map<string, Buffer> }> {
  const server: ServerProcess = await startServer({
    dataDir: site.dataDir,
    databaseUrl: site.databaseUrl,
    authSecret: TEST_AUTH_SECRET,
    env: envOf(site),
  });
  try {
    const pages = new Map<string, string>();
    const media = new Map<string, Buffer>();
    for (const pathname of PAGES) {
      const response = await request(server.url(pathname));
      expect(response.status, pathname).toBe(200);
      pages.set(pathname, response.body.replaceAll(server.origin, "ORIGIN").replace(/nonce="[^"]*"/g, 'nonce=""'));
      for (const address of response.body.match(/\/media\/[A-Za-z0-9_./-]+\.(?:avif|webp|jpg)/g) ?? []) {
        if (media.has(address)) continue;
        const answer = await fetch(server.url(address));
        expect(answer.status, address).toBe(200);
        media.set(address, Buffer.from(await answer.arrayBuffer()));
      }
    }
    return { pages, media };
  } finally {
    expect(await server.stop()).toBe(0);
  }
}

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  for (const storage of opened.splice(0)) storage.close();
  await s3?.stop();
});

describe.each(databaseKinds)("backups of a site on a bucket (%s)", (kind) => {
  let source: TestDatabase;
  const targets: EmptyTarget[] = [];
  beforeAll(async () => {
    source = await createTestDatabase(kind);
  });
  afterAll(async () => {
    for (const target of targets) await target.destroy();
    await source?.destroy();
  });

  it("restores from the bucket into the local disk and back into a bucket: the same pages, the same picture bytes", async () => {
    const sourcePrefix = freshPrefix();
    const bucket = bucketAt(sourcePrefix);
    // Pictures through the real pipeline, written by the S3 driver into the bucket.
    await addSampleContent(source.db, bucket);
    const files = await storedFilesDump(bucket);
    const sourceSite: Site = { ...source.location, prefix: sourcePrefix };

    const archive = path.join(source.location.dataDir, "exported", "site.tar.gz");
    const backup = await cli(sourceSite, "backup", "--out", archive);
    expect(backup.stdout).toBe(`${archive}\n`);
    expect(backup.stderr).toContain(`${Object.keys(files).length} files`);
    expect(backup.code).toBe(0);
    expect((await verifyBackup(archive)).counts.files).toBe(Object.keys(files).length);

    // Into an empty site on the local disk.
    const local = await createEmptyTarget(kind);
    targets.push(local);
    const restored = await cli(local, "restore", archive);
    expect(restored.stderr).toMatch(/^Restored the backup of /);
    expect(restored.code).toBe(0);
    expect(await storedFilesDump(local.storage)).toEqual(files);
    const onDisk = await visit(local);
    expect(onDisk.media.size).toBeGreaterThan(5);
    expect(onDisk.pages.get("/")).toContain("Morning fog");
    // The pictures it shows are the files as they were in the bucket.
    for (const [address, bytes] of onDisk.media) {
      const key = `public/${address.slice("/media/".length)}`;
      expect(createHash("sha256").update(bytes).digest("hex"), address).toBe(files[key]);
    }

    // From the local disk into an empty folder of the bucket.
    const back = path.join(local.dataDir, "exported", "back.tar.gz");
    expect((await cli(local, "backup", "--out", back)).code).toBe(0);
    const again = await createEmptyTarget(kind);
    targets.push(again);
    const againSite: Site = { dataDir: again.dataDir, databaseUrl: again.databaseUrl, prefix: freshPrefix() };
    const restoredAgain = await cli(againSite, "restore", back);
    expect(restoredAgain.stderr).toMatch(/^Restored the backup of .*\(into the bucket "vitrine-test"/);
    expect(restoredAgain.code).toBe(0);
    expect(await storedFilesDump(bucketAt(againSite.prefix as string))).toEqual(files);
    expect(await storedFilesDump(again.storage)).toEqual({});
    const inBucket = await visit(againSite);
    expect(inBucket.pages).toEqual(onDisk.pages);
    expect(inBucket.media).toEqual(onDisk.media);

    // A second restore into that bucket folder is refused: it holds the site's files now.
    const twice = await createEmptyTarget(kind);
    targets.push(twice);
    const refused = await cli({ ...twice, prefix: againSite.prefix }, "restore", back);
    expect(refused.stderr).toMatch(/^The bucket "vitrine-test" \(folder "site-\w+"\) at .* is not empty \(\d+ files\)/);
    expect(refused.code).not.toBe(0);
  });
});

describe("the server's own backups of a site on a bucket", () => {
  let database: TestDatabase;
  let backupDir: string;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    backupDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-bucket-backups-"));
  });
  afterAll(async () => {
    await database?.destroy();
    fs.rmSync(backupDir, { recursive: true, force: true });
  });

  it("holds the bucket's files in the scheduled backup and in the dashboard's download", async () => {
    const prefix = freshPrefix();
    const bucket = bucketAt(prefix);
    await addSampleContent(database.db, bucket);
    const files = await storedFilesDump(bucket);
    const { adminCookie } = await signedInAdminAndMember(database);
    const server = await startServer({
      dataDir: database.location.dataDir,
      authSecret: TEST_AUTH_SECRET,
      env: { ...envOf({ ...database.location, prefix }), BACKUP_DIR: backupDir },
    });
    try {
      // Nothing at start warns that backups miss the bucket's files any more.
      expect(await server.writtenStdout()).not.toMatch(/Backups do not include/);
      const written = await server.waitForLogLine((line) => line.msg === "Backup written", 60_000);
      const scheduled = await verifyBackup(String(written?.file));
      const archivedFiles = (manifest: typeof scheduled) =>
        Object.fromEntries(
          manifest.entries
            .filter((entry) => entry.path.startsWith("storage/"))
            .map((entry) => [entry.path.slice("storage/".length), entry.sha256]),
        );
      expect(archivedFiles(scheduled)).toEqual(files);

      const download = await fetch(server.url("/admin/backup"), {
        method: "POST",
        headers: { Origin: server.origin, Cookie: adminCookie },
      });
      expect(download.status).toBe(200);
      const archive = path.join(backupDir, "downloaded.tar.gz");
      fs.writeFileSync(archive, Buffer.from(await download.arrayBuffer()));
      expect(archivedFiles(await verifyBackup(archive))).toEqual(files);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
