import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { sql } from "kysely";
import * as tar from "tar";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/database.server.ts";
import { type MigrationSet, migrationState, siteMigrations } from "#app/db/migrations.server.ts";
import { recordAudit } from "#app/domains/audit/audit.server.ts";
import { createInviteCodes } from "#app/domains/invites/invites.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { settingKeys } from "#app/domains/settings/settings-defaults.ts";
import { canonicalDump, createEmptyTarget, type EmptyTarget, targetContents } from "#tests/support/backup-dump.ts";
import { createUser } from "#tests/support/factories.ts";
import { factoryActor, storageIn } from "#tests/support/gallery-factories.ts";
import { addSampleContent } from "#tests/support/sample-content.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
import { createTestDatabase, databaseKinds, hasPostgres, type TestDatabase } from "#tests/support/test-database.ts";
import { createBackup, MANIFEST_NAME } from "./backup.server.ts";
import { RestoreError, restoreBackup, verifyBackup } from "./restore.server.ts";
import { listBackups, migrateWithBackup, pruneBackups, runScheduledBackup } from "./schedule.server.ts";

/** The site's migrations plus one more: a later version of Vitrine as a test can act it out. */
const upgradedMigrations: MigrationSet = (kind) => ({
  ...siteMigrations(kind),
  "9999_test_upgrade": {
    async up(db) {
      await db.schema
        .alterTable("links")
        .addColumn("test_note", "text", (c) => c.notNull().defaultTo(""))
        .execute();
    },
  },
});

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-backup-test-"));
  tempDirs.push(dir);
  return dir;
}
const targets: EmptyTarget[] = [];
async function emptyTarget(kind: "sqlite" | "postgres"): Promise<EmptyTarget> {
  const target = await createEmptyTarget(kind);
  targets.push(target);
  return target;
}
afterEach(async () => {
  for (const target of targets.splice(0)) await target.destroy();
});
afterAll(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** What a backup reads of a test site: its database, data folder and the storage in it. */
const siteOf = (database: TestDatabase) => ({
  database,
  dataDir: database.location.dataDir,
  storage: storageIn(database.location.dataDir),
});

/** A site with a bit of everything: pictures and their files, links, FAQ, a video, users, sessions, invites, audit. */
async function fillSite(database: TestDatabase) {
  const storage = storageIn(database.location.dataDir);
  await addSampleContent(database.db, storage);
  const admin = await createUser(database.db, { admin: true });
  await createUser(database.db);
  await createSessionCookie(database.db, admin.id, "a-secret-that-is-long-enough-for-the-test-0123");
  await createInviteCodes(database.db, { count: 2 });
  await storage.save("public/videos/clip.mp4", Buffer.from("not really a video"));
}

/** The rows a restore of `archive` into a fresh target of `kind` holds, with its files. */
async function restoreInto(kind: "sqlite" | "postgres", archive: string) {
  const target = await emptyTarget(kind);
  await restoreBackup(archive, target);
  const database = openDatabase(
    kind === "postgres"
      ? { databaseUrl: target.databaseUrl }
      : { sqliteFile: path.join(target.dataDir, "vitrine.sqlite") },
  );
  try {
    return {
      target,
      dump: await canonicalDump(database.db, target.dataDir),
      migrations: await migrationState(database.db, kind),
    };
  } finally {
    await database.close();
  }
}

async function expectNothingWritten(target: EmptyTarget) {
  expect(await targetContents(target)).toEqual({ tables: [], files: [] });
}

describe.each(databaseKinds)("backup and restore (from %s)", (kind) => {
  let source: TestDatabase;
  let quietArchive: string;
  let quietDump: Awaited<ReturnType<typeof canonicalDump>>;
  beforeAll(async () => {
    source = await createTestDatabase(kind);
    await fillSite(source);
    quietArchive = path.join(tempDir(), "quiet.tar.gz");
    await createBackup(siteOf(source), quietArchive);
    quietDump = await canonicalDump(source.db, source.location.dataDir);
  });
  afterAll(async () => {
    await source.destroy();
  });

  it("holds one moment while the site writes, and restores it to SQLite and PostgreSQL row for row and file for file", async () => {
    const storage = storageIn(source.location.dataDir);
    // The load writes as the site does: the file first, then in one transaction a link and its audit entry.
    let stop = false;
    let written = 0;
    const load = (async () => {
      while (!stop) {
        const n = written;
        await storage.save(`public/load/${n}.txt`, Buffer.from(`load ${n}`));
        await source.db.transaction().execute(async (trx) => {
          const now = new Date();
          await trx
            .insertInto("links")
            .values({
              id: `load-${n}`,
              url: `https://example.com/${n}`,
              title: `load-${n}`,
              title_de: "",
              icon: "",
              sort_order: 1000 + n,
              active: true,
              created_at: now,
              updated_at: now,
            })
            .execute();
          await recordAudit(trx, factoryActor, { action: "links.create", target: `load-${n}` });
        });
        written = n + 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    while (written < 5) await new Promise((resolve) => setTimeout(resolve, 5));
    const archive = path.join(tempDir(), "busy.tar.gz");
    await createBackup(siteOf(source), archive);
    const writtenAtEnd = written;
    while (written < writtenAtEnd + 3) await new Promise((resolve) => setTimeout(resolve, 5));
    stop = true;
    await load;

    const after = await canonicalDump(source.db, source.location.dataDir);
    const loadNumber = (text: string) => Number(/load-(\d+)/.exec(text)?.[1] ?? -1);
    for (const targetKind of databaseKinds) {
      const { dump } = await restoreInto(targetKind, archive);
      const links = dump.tables.links?.filter((row) => row.includes('"title":"load-')) ?? [];
      const numbers = links.map(loadNumber).sort((a, b) => a - b);
      // A moment: load writes 0…k, every one complete (link, audit entry and file), none after.
      expect(numbers.length).toBeGreaterThanOrEqual(5);
      expect(numbers).toEqual(numbers.map((_, index) => index));
      const audited = (dump.tables.audit_log ?? []).filter((row) => row.includes('"target":"load-')).map(loadNumber);
      expect(audited.sort((a, b) => a - b)).toEqual(numbers);
      const last = numbers.length - 1;
      expect(written).toBeGreaterThan(last + 1); // the load went on after the moment
      // Everything else is what the site holds, as it holds it: the site minus the writes after the moment.
      const expected = {
        tables: Object.fromEntries(
          Object.entries(after.tables).map(([table, rows]) => [
            table,
            rows.filter((row) => !/"(title|target)":"load-/.test(row) || loadNumber(row) <= last),
          ]),
        ),
        files: Object.fromEntries(
          Object.entries(after.files).filter(
            ([file]) => !file.startsWith("public/load/") || Number(/(\d+)\.txt$/.exec(file)?.[1]) <= last,
          ),
        ),
      };
      // Files written after the moment may be in the archive too (they are kept, not referenced), none is missing.
      const restoredFiles = Object.fromEntries(
        Object.entries(dump.files).filter(
          ([file]) => !file.startsWith("public/load/") || Number(/(\d+)\.txt$/.exec(file)?.[1]) <= last,
        ),
      );
      expect({ tables: dump.tables, files: restoredFiles }).toEqual(expected);
    }
  });

  it("restores a quiet site identically, and back again (SQLite ⇄ PostgreSQL)", async () => {
    const { dump: first } = await restoreInto(kind, quietArchive);
    expect(first).toEqual(quietDump);
    // Every setting the registry declares travels, German twins and retired keys too (the rows are plain text).
    const settingRows = (first.tables.site_settings ?? []).map((row) => (JSON.parse(row) as { key: string }).key);
    expect(settingRows.sort()).toEqual([...settingKeys].sort());
    expect(Object.values(first.tables).flat().length).toBeGreaterThan(20);
    expect(Object.keys(first.files).length).toBeGreaterThan(20);
    for (const other of databaseKinds) {
      // Over to the other kind and back: every row and file as it was.
      const { dump: there, target: thereTarget } = await restoreInto(other, quietArchive);
      expect(there).toEqual(quietDump);
      const thereDatabase = openDatabase(
        other === "postgres"
          ? { databaseUrl: thereTarget.databaseUrl }
          : { sqliteFile: path.join(thereTarget.dataDir, "vitrine.sqlite") },
      );
      const back = path.join(tempDir(), `back-${other}.tar.gz`);
      try {
        await createBackup(
          { database: thereDatabase, dataDir: thereTarget.dataDir, storage: thereTarget.storage },
          back,
        );
      } finally {
        await thereDatabase.close();
      }
      const { dump: again } = await restoreInto(kind, back);
      expect(again).toEqual(quietDump);
    }
  });

  it.skipIf(!hasPostgres)("leaves PostgreSQL's change triggers and id sequence working after a restore", async () => {
    const { target } = await restoreInto("postgres", quietArchive);
    const database = openDatabase({ databaseUrl: target.databaseUrl });
    try {
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_trigger where tgname like '%_notify_change'`.execute(database.db);
      // 10 tables of 0003, posts and its slugs and tags (0013), the groups' four tables and share links (0024), albums
      // and their pictures (0027).
      expect(rows[0]?.n).toBe(20);
      // A new audit entry gets the next id, not one the restore loaded.
      const before = await database.db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.max("id").as("max"))
        .executeTakeFirst();
      await recordAudit(database.db, factoryActor, { action: "links.create", target: "after restore" });
      const created = await database.db
        .selectFrom("audit_log")
        .select("id")
        .where("target", "=", "after restore")
        .executeTakeFirst();
      expect(Number(created?.id)).toBe(Number(before?.max) + 1);
    } finally {
      await database.close();
    }
  });

  it("writes the archive and its folder for the owner only, whatever the umask", async () => {
    const dir = path.join(tempDir(), "nested", "backups");
    const previous = process.umask(0);
    try {
      const result = await runScheduledBackup(siteOf(source), { dir, keep: 3 });
      expect(fs.statSync(result.file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(source.location.dataDir, "backups")).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(previous);
    }
  });

  it("refuses a truncated or altered archive, writing nothing", async () => {
    const bytes = fs.readFileSync(quietArchive);
    const truncated = path.join(tempDir(), "truncated.tar.gz");
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const flipped = path.join(tempDir(), "flipped.tar.gz");
    const copy = Buffer.from(bytes);
    copy[Math.floor(copy.length / 2)] = (copy[Math.floor(copy.length / 2)] ?? 0) ^ 0xff;
    fs.writeFileSync(flipped, copy);
    // A well-formed archive whose file was changed after the manifest was written.
    const unpacked = tempDir();
    await tar.extract({ file: quietArchive, cwd: unpacked });
    const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, MANIFEST_NAME), "utf8"));
    const victim = manifest.entries.find((entry: { path: string }) => entry.path.startsWith("storage/public/"));
    fs.appendFileSync(path.join(unpacked, victim.path), "x");
    const altered = path.join(tempDir(), "altered.tar.gz");
    await tar.create({ file: altered, gzip: true, cwd: unpacked }, [MANIFEST_NAME, "database", "storage"]);
    const notGzip = path.join(tempDir(), "plain.tar.gz");
    fs.writeFileSync(notGzip, zlib.gunzipSync(bytes).subarray(0, 2000));

    for (const [archive, message] of [
      [truncated, /damaged/],
      [flipped, /damaged/],
      [altered, new RegExp(`${victim.path}.*altered`)],
      [notGzip, /damaged/],
    ] as const) {
      for (const targetKind of databaseKinds) {
        const target = await emptyTarget(targetKind);
        await expect(restoreBackup(archive, target)).rejects.toThrow(message);
        await expect(restoreBackup(archive, target)).rejects.toBeInstanceOf(RestoreError);
        await expectNothingWritten(target);
      }
    }
  });

  it("refuses a target that is not empty, changing nothing", async () => {
    const before = await canonicalDump(source.db, source.location.dataDir);
    await expect(
      restoreBackup(quietArchive, {
        dataDir: source.location.dataDir,
        databaseUrl: source.location.databaseUrl,
        storage: storageIn(source.location.dataDir),
      }),
    ).rejects.toThrow(/not empty.*Nothing was restored/);
    expect(await canonicalDump(source.db, source.location.dataDir)).toEqual(before);

    // An empty database but files in the storage: refused too.
    const target = await emptyTarget(kind);
    fs.mkdirSync(path.join(target.dataDir, "storage", "public"), { recursive: true });
    fs.writeFileSync(path.join(target.dataDir, "storage", "public", "left.txt"), "left over");
    await expect(restoreBackup(quietArchive, target)).rejects.toThrow(/storage.*not empty/);
    expect(await targetContents(target)).toEqual({ tables: [], files: ["storage/public/left.txt"] });
  });

  it("refuses a data folder holding only a stopped site's database without writing a file into it", async () => {
    // As a stopped server leaves it: one SQLite file in WAL mode, its -wal and -shm removed on close.
    const target = await emptyTarget("sqlite");
    const file = path.join(target.dataDir, "vitrine.sqlite");
    const stopped = openDatabase({ sqliteFile: file });
    await sql`create table left_over (id integer primary key)`.execute(stopped.db);
    await stopped.close();
    const before = fs.readdirSync(target.dataDir).sort();
    expect(before).toEqual(["vitrine.sqlite"]);
    const bytes = fs.readFileSync(file);

    await expect(restoreBackup(quietArchive, target)).rejects.toThrow(/not empty.*Nothing was restored/);

    expect(fs.readdirSync(target.dataDir).sort()).toEqual(before);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it("refuses a data folder whose database has a write-ahead log (a running or crashed site)", async () => {
    // The tables may be only in the -wal file: a restore must not put a new database beside it.
    const target = await emptyTarget("sqlite");
    const running = openDatabase({ sqliteFile: path.join(target.dataDir, "vitrine.sqlite") });
    try {
      await sql`create table left_over (id integer primary key)`.execute(running.db);
      const before = fs.readdirSync(target.dataDir).sort();
      expect(before).toContain("vitrine.sqlite-wal");

      await expect(restoreBackup(quietArchive, target)).rejects.toThrow(/not empty.*Nothing was restored/);

      expect(fs.readdirSync(target.dataDir).sort()).toEqual(before);
    } finally {
      await running.close();
    }
  });
});

describe.each(databaseKinds)("schema versions (%s)", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind, { migrate: false });
  });
  afterAll(async () => {
    await database.destroy();
  });

  it("backs up before a start migrates to a newer schema, and restores an older backup into the newer one", async () => {
    const dataDir = database.location.dataDir;
    // A first start on an empty database: nothing to save.
    expect(await migrateWithBackup(siteOf(database))).toBeNull();
    await insertMissingDefaults(database.db);
    await fillSite(database);
    // The same version again: nothing to migrate, no backup.
    expect(await migrateWithBackup(siteOf(database))).toBeNull();
    const before = await canonicalDump(database.db, dataDir);

    // The upgrade: a backup of the old schema first.
    const backup = await migrateWithBackup(siteOf(database), upgradedMigrations);
    expect(backup).not.toBeNull();
    expect(path.dirname(backup as string)).toBe(path.join(dataDir, "backups"));
    expect(fs.statSync(backup as string).mode & 0o777).toBe(0o600);
    expect((await migrationState(database.db, kind, upgradedMigrations)).pending).toEqual([]);
    const manifest = await verifyBackup(backup as string);
    expect(manifest.schema.version).toBe(Object.keys(siteMigrations(kind)).sort().at(-1));
    expect((await listBackups(path.join(dataDir, "backups"))).map((file) => file.kind)).toEqual(["pre-migration"]);

    // The old version restores it as it was.
    const old = await emptyTarget(kind);
    await restoreBackup(backup as string, old);
    const oldDatabase = openDatabase(
      kind === "postgres" ? { databaseUrl: old.databaseUrl } : { sqliteFile: path.join(old.dataDir, "vitrine.sqlite") },
    );
    try {
      expect(await canonicalDump(oldDatabase.db, old.dataDir)).toEqual(before);
    } finally {
      await oldDatabase.close();
    }

    // The new version restores the old backup and brings it up to date.
    const upgraded = await emptyTarget(kind);
    await restoreBackup(backup as string, { ...upgraded, migrations: upgradedMigrations });
    const upgradedDatabase = openDatabase(
      kind === "postgres"
        ? { databaseUrl: upgraded.databaseUrl }
        : { sqliteFile: path.join(upgraded.dataDir, "vitrine.sqlite") },
    );
    try {
      expect((await migrationState(upgradedDatabase.db, kind, upgradedMigrations)).pending).toEqual([]);
      const links = await sql<{ test_note: string }>`select test_note from links`.execute(upgradedDatabase.db);
      expect(links.rows.length).toBe(before.tables.links?.length);
    } finally {
      await upgradedDatabase.close();
    }

    // A backup of the newer schema is refused by the old version, which writes nothing.
    const newer = path.join(tempDir(), "newer.tar.gz");
    await createBackup(siteOf(database), newer);
    for (const targetKind of databaseKinds) {
      const target = await emptyTarget(targetKind);
      await expect(restoreBackup(newer, target)).rejects.toThrow(/newer than this Vitrine knows.*update Vitrine/);
      await expectNothingWritten(target);
    }
  });
});

describe("scheduled backups", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await database.destroy();
  });

  it("keeps only the newest BACKUP_KEEP archives, and nothing else in the folder is touched", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "vitrine-pre-migration-20200101T000000Z.tar.gz"), "kept");
    fs.writeFileSync(path.join(dir, "notes.txt"), "mine");
    const made: string[] = [];
    for (let run = 0; run < 4; run++) {
      made.push((await runScheduledBackup(siteOf(database), { dir, keep: 2 })).file);
    }
    expect(new Set(made).size).toBe(4);
    const left = (await listBackups(dir)).filter((file) => file.kind === "backup").map((file) => file.file);
    expect(left).toEqual([made[3], made[2]]);
    expect(fs.readdirSync(dir).sort()).toEqual(
      [
        path.basename(made[2] as string),
        path.basename(made[3] as string),
        "notes.txt",
        "vitrine-pre-migration-20200101T000000Z.tar.gz",
      ].sort(),
    );
    expect(await pruneBackups(dir, 1)).toEqual([made[2]]);
  });
});

describe.each(databaseKinds)("the backup's table list (%s)", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.destroy();
  });

  it("names every table of the schema but the unbacked ones, and on PostgreSQL exactly its boolean and date columns", async () => {
    const { BACKUP_TABLES, UNBACKED_TABLES } = await import("./tables.server.ts");
    const tables = (await database.db.introspection.getTables()).filter(
      (table) => !UNBACKED_TABLES.includes(table.name),
    );
    expect(tables.map((table) => table.name).sort()).toEqual(BACKUP_TABLES.map((table) => table.name).sort());
    if (kind !== "postgres") return;
    for (const table of tables) {
      const spec = BACKUP_TABLES.find((entry) => entry.name === table.name);
      const typed = (type: string) =>
        table.columns
          .filter((column) => column.dataType === type)
          .map((column) => column.name)
          .sort();
      expect(typed("bool"), table.name).toEqual([...(spec?.booleans ?? [])].sort());
      expect(typed("timestamptz"), table.name).toEqual([...(spec?.dates ?? [])].sort());
    }
  });
});
