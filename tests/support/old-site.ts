import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AppDatabase, type DatabaseKind, openDatabase } from "#app/db/database.server.ts";
import type { FixtureFacts } from "../../scripts/make-upgrade-fixture.ts";
import { ROOT, type ServerProcess, startServer } from "./server-process.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

/*
 * A site an older version of Vitrine made (tests/fixtures/upgrade/<name>/, written by scripts/make-upgrade-fixture.ts),
 * unpacked where an owner keeps it and served by today's server: what an owner who updates after a long time runs.
 */

export const UPGRADE_FIXTURES = path.join(ROOT, "tests/fixtures/upgrade");

/** The fixtures' names, oldest version first (any order would do; a stable one keeps the reports comparable). */
export function upgradeFixtureNames(): string[] {
  return fs
    .readdirSync(UPGRADE_FIXTURES)
    .filter((name) => fs.existsSync(path.join(UPGRADE_FIXTURES, name, "fixture.json")))
    .sort();
}

export function fixtureFacts(name: string): FixtureFacts {
  return JSON.parse(fs.readFileSync(path.join(UPGRADE_FIXTURES, name, "fixture.json"), "utf8")) as FixtureFacts;
}

export type OldSite = {
  facts: FixtureFacts;
  dataDir: string;
  databaseUrl?: string;
  /** The site's database, opened by the test beside the server (to see what the server's start did to it). */
  database: AppDatabase;
  server: ServerProcess;
  stop: () => Promise<number | null>;
};

/** The old site's data: DATA_DIR as the old server left it, and on PostgreSQL its dump loaded into a fresh database. */
async function unpack(name: string, kind: DatabaseKind): Promise<{ dataDir: string; testDatabase?: TestDatabase }> {
  const dir = path.join(UPGRADE_FIXTURES, name);
  if (kind === "sqlite") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-upgrade-"));
    execFileSync("tar", ["-xzf", path.join(dir, "sqlite.tar.gz"), "-C", dataDir]);
    return { dataDir };
  }
  // An empty database of its own (never the run's migrated copy: the old schema comes from the dump).
  const testDatabase = await createTestDatabase("postgres", { migrate: false });
  await testDatabase.close();
  const dump = execFileSync("gunzip", ["-c", path.join(dir, "postgres.sql.gz")], { maxBuffer: 64 * 1024 * 1024 });
  execFileSync("psql", ["-v", "ON_ERROR_STOP=1", "-q", testDatabase.location.databaseUrl ?? ""], {
    input: dump,
    stdio: ["pipe", "ignore", "inherit"],
  });
  execFileSync("tar", ["-xzf", path.join(dir, "postgres-files.tar.gz"), "-C", testDatabase.location.dataDir]);
  return { dataDir: testDatabase.location.dataDir, testDatabase };
}

/**
 * Today's `node server.js` started on the old site, with the site's own auth secret (DATA_DIR/auth-secret, as the
 * old server kept it: on PostgreSQL the database also holds its fingerprint since migration 0019).
 */
export async function startOnOldSite(name: string, kind: DatabaseKind): Promise<OldSite> {
  const { dataDir, testDatabase } = await unpack(name, kind);
  const databaseUrl = testDatabase?.location.databaseUrl;
  const cleanUp = async () => {
    if (testDatabase) await testDatabase.destroy();
    else fs.rmSync(dataDir, { recursive: true, force: true });
  };
  let server: ServerProcess;
  try {
    server = await startServer({ dataDir, databaseUrl });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const database = openDatabase({ databaseUrl, sqliteFile: path.join(dataDir, "vitrine.sqlite") });
  return {
    facts: fixtureFacts(name),
    dataDir,
    databaseUrl,
    database,
    server,
    stop: async () => {
      const code = await server.stop();
      await database.close().catch(() => {});
      await cleanUp();
      return code;
    },
  };
}

/** Every `/media/…` address a page refers to (src, srcset, href, preload links), once each. */
export function mediaAddresses(html: string): string[] {
  const found = html.replaceAll("&amp;", "&").match(/\/media\/[^"'\s,)<>]+/g) ?? [];
  return [...new Set(found)];
}
