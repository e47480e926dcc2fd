import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { secretFingerprint } from "#app/auth/auth-secret.server.ts";
import { migrateUpTo, siteMigrations } from "#app/db/migrations.server.ts";
import { defaultBackupDir, listBackups } from "#app/domains/backup/schedule.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { settingKeys } from "#app/domains/settings/settings-defaults.ts";
import { request, type ServerProcess, startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { createTestDatabase, hasPostgres, type TestDatabase } from "#tests/support/test-database.ts";

// Issue 20: instances started at the same moment on one PostgreSQL database (a deployment bringing up its
// replicas, a restart of all of them) take turns at what a start does to the database (app/db/start-lock.server.ts):
// the migrations run once, the backup before an upgrade is taken once, and there is one admin setup code.

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** `count` servers on the database, each with a data folder of its own (as on separate machines), started at once. */
async function startAtOnce(
  database: TestDatabase,
  count: number,
): Promise<{ servers: ServerProcess[]; dirs: string[] }> {
  const dirs = Array.from({ length: count }, () => fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-instance-")));
  cleanup.push(async () => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const started = await Promise.allSettled(
    dirs.map((dataDir) =>
      startServer({ dataDir, databaseUrl: database.location.databaseUrl, authSecret: TEST_AUTH_SECRET }),
    ),
  );
  const servers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  for (const server of servers) cleanup.push(() => server.stop("SIGKILL"));
  const failed = started.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
  expect(failed).toEqual([]);
  return { servers, dirs };
}

async function appliedMigrations(database: TestDatabase): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
  return rows.map((row) => row.name);
}

describe.skipIf(!hasPostgres)("several instances starting at once on one PostgreSQL database", () => {
  it("on an empty database: all answer, the schema is made once, the defaults once, one admin setup code", async () => {
    const database = await createTestDatabase("postgres", { migrate: false });
    cleanup.push(() => database.destroy());

    const { servers } = await startAtOnce(database, 3);

    for (const server of servers) expect((await request(server.url("/readyz"))).status).toBe(200);
    expect(await appliedMigrations(database)).toEqual(Object.keys(siteMigrations("postgres")).sort());
    const settings = await database.db.selectFrom("site_settings").select("key").execute();
    expect(settings.map((row) => row.key).sort()).toEqual([...settingKeys].sort());
    const setupCodes = await database.db
      .selectFrom("invite_codes")
      .select("code")
      .where("grants_role", "=", "admin")
      .execute();
    expect(setupCodes).toHaveLength(1);
    // Each instance prints the one code there is.
    for (const server of servers) expect(server.adminSetupCodes()).toEqual([setupCodes[0]?.code]);
    expect(await database.db.selectFrom("secret_fingerprints").select("name").execute()).toEqual([{ name: "auth" }]);
  });

  it("on a site one migration behind: one backup before the upgrade, taken by one instance, and the upgrade once", async () => {
    const database = await createTestDatabase("postgres", { migrate: false });
    cleanup.push(() => database.destroy());
    const names = Object.keys(siteMigrations("postgres"));
    await migrateUpTo(database.db, "postgres", names[names.length - 2] as string);
    await insertMissingDefaults(database.db);
    await database.db
      .updateTable("site_settings")
      .set({ value: "Before the upgrade" })
      .where("key", "=", "site_name")
      .execute();

    const { servers, dirs } = await startAtOnce(database, 3);

    for (const server of servers) expect((await request(server.url("/readyz"))).status).toBe(200);
    const backups = (await Promise.all(dirs.map((dir) => listBackups(defaultBackupDir(dir))))).flat();
    expect(backups.map((backup) => backup.kind)).toEqual(["pre-migration"]);
    expect(await appliedMigrations(database)).toEqual([...names].sort());
    const siteName = await database.db
      .selectFrom("site_settings")
      .select("value")
      .where("key", "=", "site_name")
      .executeTakeFirst();
    expect(siteName?.value).toBe("Before the upgrade");
    const fingerprints = await database.db.selectFrom("secret_fingerprints").select("fingerprint").execute();
    expect(fingerprints).toEqual([{ fingerprint: secretFingerprint(TEST_AUTH_SECRET) }]);
  });
});
