import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "#app/db/database.server.ts";
import { verifyBackup } from "#app/domains/backup/restore.server.ts";
import { listBackups } from "#app/domains/backup/schedule.server.ts";
import { expectSentToSignIn, signedInAdminAndMember, visibleText } from "#tests/support/admin-server.ts";
import { canonicalDump, createEmptyTarget, type EmptyTarget } from "#tests/support/backup-dump.ts";
import { storageIn } from "#tests/support/gallery-factories.ts";
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

vi.setConfig({ testTimeout: 180_000 });

const PUBLIC_PAGES = ["/", "/home", "/links", "/faq", "/videos", "/legal-notice", "/privacy"];

/** A page's HTML with what differs per server and response (its origin, the CSP nonce) taken out. */
async function pageHtml(server: ServerProcess, pathname: string): Promise<string> {
  const response = await request(server.url(pathname));
  expect(response.status, pathname).toBe(200);
  return response.body.replaceAll(server.origin, "ORIGIN").replace(/nonce="[^"]*"/g, 'nonce=""');
}

/** `npm run cli -- …` against a data folder (and PostgreSQL database). */
function cli(location: { dataDir: string; databaseUrl?: string }, ...args: string[]) {
  return run(
    "npm",
    ["run", "cli", "--", ...args],
    cleanEnv({ DATA_DIR: location.dataDir, DATABASE_URL: location.databaseUrl }),
    120_000,
  );
}

describe.each(databaseKinds)("backups of a running site (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let backupDir: string;
  let adminCookie: string;
  let memberCookie: string;
  const targets: EmptyTarget[] = [];
  const oldArchives = ["20200101T000000Z", "20200102T000000Z", "20200103T000000Z"].map(
    (stamp) => `vitrine-backup-${stamp}.tar.gz`,
  );

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await addSampleContent(database.db, storageIn(database.location.dataDir));
    ({ adminCookie, memberCookie } = await signedInAdminAndMember(database));
    backupDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-backups-"));
    for (const name of oldArchives) fs.writeFileSync(path.join(backupDir, name), "an old archive");
    server = await startServer({
      dataDir: database.location.dataDir,
      databaseUrl: database.location.databaseUrl,
      authSecret: TEST_AUTH_SECRET,
      env: { BACKUP_DIR: backupDir, BACKUP_KEEP: "2", BACKUP_INTERVAL_HOURS: "24" },
    });
  });
  afterAll(async () => {
    const code = await server?.stop();
    for (const target of targets) await target.destroy();
    await database?.destroy();
    fs.rmSync(backupDir, { recursive: true, force: true });
    expect(code).toBe(0);
  });

  it("takes a scheduled backup at start when the last is a day old, keeping BACKUP_KEEP archives", async () => {
    const deadline = Date.now() + 60_000;
    let names: string[] = [];
    while (Date.now() < deadline) {
      names = (await listBackups(backupDir)).map((file) => file.name);
      if (!names.includes(oldArchives[0] as string) && names.length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(names).toHaveLength(2);
    expect(names[1]).toBe(oldArchives[2]);
    expect(names[0]).not.toBe(oldArchives[2]);
    const fresh = path.join(backupDir, names[0] as string);
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o600);
    expect((await verifyBackup(fresh)).counts.rows.gallery_images).toBeGreaterThan(0);
    const written = await server.waitForLogLine((line) => line.msg === "Backup written" && line.file === fresh);
    expect(written).toBeDefined();
  });

  it("shows the last backup on the dashboard, to admins only", async () => {
    const [newest] = await listBackups(backupDir);
    const dashboard = await request(server.url("/admin"), { headers: { Cookie: adminCookie } });
    expect(dashboard.status).toBe(200);
    const text = visibleText(dashboard.body);
    const time = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" }).format(
      newest?.createdAt,
    );
    const megabytes = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 1 }).format(
      (newest?.size ?? 0) / 1024 / 1024,
    );
    expect(text).toContain(`Last backup: ${time} UTC, ${megabytes} MB.`);
    expect(text).toContain(`A backup is taken every 24 hours into ${backupDir}; the newest 2 are kept.`);

    expect((await request(server.url("/admin"), { headers: { Cookie: memberCookie } })).status).toBe(403);
    expectSentToSignIn(await request(server.url("/admin")));
  });

  it("lets an admin download a fresh backup (audited, never cached), refuses anyone else", async () => {
    const post = (cookie?: string) =>
      fetch(server.url("/admin/backup"), {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.origin, ...(cookie ? { Cookie: cookie } : {}) },
      });
    // Only a post makes one: a plain visit to the address is no server error and sends no archive.
    const visit = await fetch(server.url("/admin/backup"), { redirect: "manual", headers: { Cookie: adminCookie } });
    expect(visit.status).toBe(405);
    expect(visit.headers.get("allow")).toBe("POST");
    expect(visit.headers.get("content-type")).not.toContain("gzip");
    const member = await post(memberCookie);
    expect(member.status).toBe(403);
    expect(member.headers.get("content-type")).not.toContain("gzip");
    const visitor = await post();
    expect([302, 303]).toContain(visitor.status);
    expect(visitor.headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
    const before = await database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "backup.download")
      .execute();
    expect(before).toHaveLength(0);

    const response = await post(adminCookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/gzip");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="vitrine-backup-\d{8}T\d{6}Z\.tar\.gz"$/,
    );
    const archive = path.join(backupDir, "downloaded.tar.gz");
    fs.writeFileSync(archive, Buffer.from(await response.arrayBuffer()));
    const manifest = await verifyBackup(archive);
    expect(manifest.source).toBe(kind);
    const audit = await database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "backup.download")
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_email).toMatch(/@/);
    // Nothing of the download stays on the server's disk.
    expect(
      fs.readdirSync(path.join(database.location.dataDir, "backups")).filter((name) => !name.startsWith(".work")),
    ).toEqual([]);

    // Restored into a fresh SQLite folder and a fresh PostgreSQL database, the site serves the same pages.
    const expected = new Map<string, string>();
    for (const pathname of PUBLIC_PAGES) expected.set(pathname, await pageHtml(server, pathname));
    const pictureId = (await database.db.selectFrom("gallery_images").select("id").executeTakeFirstOrThrow()).id;
    expected.set(`/?image=${pictureId}`, await pageHtml(server, `/?image=${pictureId}`));
    const sourceDump = await canonicalDump(database.db, database.location.dataDir);
    for (const targetKind of databaseKinds) {
      const target = await createEmptyTarget(targetKind);
      targets.push(target);
      const restored = await cli(target, "restore", archive);
      expect(restored.stderr).toMatch(/^Restored the backup of /);
      expect(restored.code).toBe(0);
      const restoredDatabase = openDatabase(
        targetKind === "postgres"
          ? { databaseUrl: target.databaseUrl }
          : { sqliteFile: path.join(target.dataDir, "vitrine.sqlite") },
      );
      try {
        const dump = await canonicalDump(restoredDatabase.db, target.dataDir);
        // The audit entry of the download itself is written after the archive.
        expect(dump).toEqual({
          ...sourceDump,
          tables: {
            ...sourceDump.tables,
            audit_log: sourceDump.tables.audit_log?.filter((row) => !row.includes('"backup.download"')),
          },
        });
      } finally {
        await restoredDatabase.close();
      }
      const restoredServer = await startServer({
        dataDir: target.dataDir,
        databaseUrl: target.databaseUrl,
        authSecret: TEST_AUTH_SECRET,
      });
      try {
        for (const [pathname, html] of expected) {
          expect(await pageHtml(restoredServer, pathname), `${pathname} on the restored ${targetKind} site`).toBe(html);
        }
      } finally {
        expect(await restoredServer.stop()).toBe(0);
      }
    }
  });
});

describe("the backup commands", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await database.destroy();
  });

  it("backs up to --out, restores into an empty folder, and refuses a folder that is not empty", async () => {
    const out = path.join(database.location.dataDir, "exported", "site.tar.gz");
    const backup = await cli(database.location, "backup", "--out", out);
    expect(backup.code).toBe(0);
    expect(backup.stdout).toBe(`${out}\n`);
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);

    const target = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-cli-restore-"));
    try {
      const restored = await cli({ dataDir: target }, "restore", out);
      expect(restored.code).toBe(0);
      expect(fs.existsSync(path.join(target, "vitrine.sqlite"))).toBe(true);

      // Refused with nothing written: not even the -wal and -shm files of opening the database to look.
      const listing = fs.readdirSync(target).sort();
      const again = await cli({ dataDir: target }, "restore", out);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toMatch(/is not empty .*Nothing was restored\.\n$/);
      expect(again.stdout).toBe("");
      expect(fs.readdirSync(target).sort()).toEqual(listing);

      const missing = await cli({ dataDir: target }, "restore", path.join(target, "nope.tar.gz"));
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toMatch(/Cannot read .*nope\.tar\.gz/);

      const usage = await cli({ dataDir: target }, "backup", "--into", "x");
      expect(usage.code).not.toBe(0);
      expect(usage.stderr).toMatch(/--out/);
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  });

  it("writes into DATA_DIR/backups without --out", async () => {
    const backup = await cli(database.location, "backup");
    expect(backup.code).toBe(0);
    const file = backup.stdout.trim();
    expect(path.dirname(file)).toBe(path.join(database.location.dataDir, "backups"));
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    await verifyBackup(file);
  });
});
