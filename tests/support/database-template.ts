import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrations.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";

/*
 * Migrating a fresh database took 0.7–2 s a test on two busy cores (nineteen migrations, each its own transaction
 * and, on SQLite, its own sync to disk), and the unit and integration tests make well over a thousand. The run's
 * global setup migrates one database of each kind, with this run's code, before any test file starts; a test's fresh
 * database is then a copy of it: SQLite's file copied, PostgreSQL's database created with it as the template. Each test
 * still gets its own database, and nothing outlives the run (the template is made anew and dropped at its end).
 */

export type DatabaseTemplates = {
  /** A migrated SQLite file with the default settings, closed (its write-ahead log folded in). */
  sqliteFile: string;
  /** A migrated PostgreSQL database with the default settings, on TEST_DATABASE_URL's server, nobody connected. */
  postgresName?: string;
};

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates | null;
  }
}

/** What a migrated, seeded database is made of: the same steps for the template and for a test without one. */
export async function migrateAndSeed(database: AppDatabase): Promise<void> {
  await migrateToLatest(database.db, database.kind);
  await insertMissingDefaults(database.db);
}

export function databaseUrlNamed(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.href;
}

/** Runs statements one by one on the server's own database (CREATE DATABASE cannot share a transaction). */
export async function runOnServer(serverUrl: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A test's database does not wait for its commits to reach the disk: a test never outlives a crash of PostgreSQL, and
 * every commit's flush made the tests wait on the disk (a setting of the database, not copied from its template).
 */
export const noWaitForDisk = (name: string) => `ALTER DATABASE ${name} SET synchronous_commit = off`;

/** Makes this run's templates (the global setup); the function it returns removes them. */
export async function createDatabaseTemplates(): Promise<{
  templates: DatabaseTemplates;
  remove: () => Promise<void>;
}> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-template-"));
  const sqliteFile = path.join(folder, "vitrine.sqlite");
  const sqlite = openDatabase({ sqliteFile });
  await migrateAndSeed(sqlite);
  await sqlite.close();

  const serverUrl = process.env.TEST_DATABASE_URL;
  let postgresName: string | undefined;
  if (serverUrl) {
    postgresName = `vitrine_template_${randomBytes(6).toString("hex")}`;
    await runOnServer(serverUrl, `CREATE DATABASE ${postgresName}`, noWaitForDisk(postgresName));
    const postgres = openDatabase({ databaseUrl: databaseUrlNamed(serverUrl, postgresName) });
    await migrateAndSeed(postgres);
    await postgres.close();
  }
  const remove = async () => {
    if (serverUrl && postgresName) await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${postgresName} WITH (FORCE)`);
    fs.rmSync(folder, { recursive: true, force: true });
  };
  return { templates: { sqliteFile, postgresName }, remove };
}

/** This run's templates, or null outside a Vitest run that made them (the benchmark, a config without the setup). */
export function providedTemplates(): DatabaseTemplates | null {
  try {
    return inject("databaseTemplates") ?? null;
  } catch {
    return null;
  }
}
