import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { type AppDatabase, type DatabaseKind, openDatabase } from "#app/db/database.server.ts";
import {
  databaseUrlNamed,
  migrateAndSeed,
  noWaitForDisk,
  providedTemplates,
  runOnServer,
} from "./database-template.ts";
import { inCi } from "./required-suites.ts";

// Without it every PostgreSQL leg would quietly drop out of the run; in CI that is a failure of every file.
if (inCi && !process.env.TEST_DATABASE_URL)
  throw new Error("CI runs every test on PostgreSQL too: set TEST_DATABASE_URL");

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL points at a server (CI sets it). */
export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

/** Whether the PostgreSQL legs run (for `it.skipIf(!hasPostgres)`: reported as skipped, never passed empty). */
export const hasPostgres = databaseKinds.includes("postgres");

export type TestDatabase = AppDatabase & {
  /** The URL (PostgreSQL) or file (SQLite) of this database, for a server started against it. */
  location: { databaseUrl?: string; sqliteFile?: string; dataDir: string };
  destroy: () => Promise<void>;
};

/**
 * A fresh, migrated database of the given kind, seeded with the default settings.
 * Nothing is shared between calls: SQLite gets a new file, PostgreSQL a new database that is dropped afterwards.
 */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: { migrate?: boolean; serverUrl?: string; dataDir?: string } = {},
): Promise<TestDatabase> {
  // A folder of the test's own (a small disk it mounted, say); removed with the database like a fresh one.
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-test-"));
  let database: AppDatabase;
  let location: TestDatabase["location"];
  let dropDatabase = async () => {};

  // This run's migrated copy where there is one (not for another server's database, nor one left unmigrated).
  const templates = options.migrate === false || options.serverUrl ? null : providedTemplates();
  if (kind === "postgres") {
    // Another server (the bench's) when named; TEST_DATABASE_URL's otherwise.
    const serverUrl = options.serverUrl ?? process.env.TEST_DATABASE_URL;
    if (!serverUrl) throw new Error("TEST_DATABASE_URL is not set");
    const name = `vitrine_test_${randomBytes(6).toString("hex")}`;
    const template = templates?.postgresName;
    await runOnServer(
      serverUrl,
      `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`,
      noWaitForDisk(name),
    );
    const databaseUrl = databaseUrlNamed(serverUrl, name);
    database = openDatabase({ databaseUrl });
    location = { databaseUrl, dataDir };
    dropDatabase = () => runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    if (options.migrate !== false && !template) await migrateAndSeed(database);
  } else {
    const sqliteFile = path.join(dataDir, "vitrine.sqlite");
    if (templates) fs.copyFileSync(templates.sqliteFile, sqliteFile);
    database = openDatabase({ sqliteFile });
    location = { sqliteFile, dataDir };
    if (options.migrate !== false && !templates) await migrateAndSeed(database);
  }

  return {
    ...database,
    location,
    destroy: async () => {
      await database.close().catch(() => {});
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Registers a test database for the surrounding `describe`: a fresh one per test (`"each"`), or one
 * shared by its tests (`"all"`). The returned object always stands for the current one, so tests can
 * use `database.db` although the database is only created once the hook has run.
 */
export function useTestDatabase(kind: DatabaseKind, fresh: "each" | "all"): TestDatabase {
  let database: TestDatabase | undefined;
  const [before, after] = fresh === "each" ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    database = await createTestDatabase(kind);
  });
  after(async () => {
    await database?.destroy();
    database = undefined;
  });
  const current = () => {
    if (!database) throw new Error("The test database only exists inside a test");
    return database;
  };
  return {
    get db() {
      return current().db;
    },
    get kind() {
      return current().kind;
    },
    get location() {
      return current().location;
    },
    changeVersion: (areas) => current().changeVersion(areas),
    noteChange: (areas) => current().noteChange(areas),
    watchCommits: (listener: () => void) => current().watchCommits(listener),
    close: () => current().close(),
    destroy: () => current().destroy(),
  };
}
