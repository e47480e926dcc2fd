import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { secretFingerprint } from "#app/auth/auth-secret.server.ts";
import { migrateUpTo, siteMigrations } from "#app/db/migrations.server.ts";
import { BACKUP_TABLES } from "#app/domains/backup/tables.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import {
  cleanEnv,
  freePort,
  type ProcessResult,
  request,
  run,
  type ServerProcess,
  startServer,
} from "#tests/support/server-process.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

// Issue 20: every instance on one database must sign with the same AUTH_SECRET, or a session made by one is
// refused by the next. The database keeps a fingerprint of the secret it was set up with (migration 0019); a start
// with another secret stops with one line, before it changes anything, and `secret accept` changes it on purpose.

// Starts of `node server.js` and `npm run cli`, several per test.
vi.setConfig({ testTimeout: 120_000 });

const SECRET_A = "first-secret-of-the-site-0123456789-abcdefghijklmnop";
const SECRET_B = "another-secret-nobody-set-up-9876543210-zyxwvutsrqpo";
const REFUSED_SET = /^AUTH_SECRET is not the secret this database was set up with: /;
const REFUSED_GENERATED =
  /^AUTH_SECRET is not set, and the secret in \S+auth-secret is not the one this database was set up with: set AUTH_SECRET to the same value on every instance/;

// No server may log either: the run's teardown looks for them in every server's output.
beforeAll(() => {
  noteSecret(SECRET_A);
  noteSecret(SECRET_B);
});

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function emptyDatabase(kind: TestDatabase["kind"]): Promise<TestDatabase> {
  const database = await createTestDatabase(kind, { migrate: false });
  cleanup.push(() => database.destroy());
  return database;
}

async function start(database: TestDatabase, authSecret?: string, dataDir = database.location.dataDir) {
  const server = await startServer({ dataDir, databaseUrl: database.location.databaseUrl, authSecret });
  cleanup.push(() => server.stop("SIGKILL"));
  expect((await request(server.url("/readyz"))).status).toBe(200);
  return server;
}

async function stop(server: ServerProcess) {
  expect(await server.stop()).toBe(0);
}

/** `node server.js` to its end, for a start that is meant to be refused (it never answers). */
async function refusedStart(database: TestDatabase, authSecret?: string, dataDir = database.location.dataDir) {
  const port = await freePort();
  return run(
    process.execPath,
    ["server.js"],
    cleanEnv({
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: database.location.databaseUrl,
      AUTH_SECRET: authSecret,
    }),
  );
}

/** One plain line on stderr and a failing exit code; no stack, no secret, no server running. */
function expectRefused(result: ProcessResult, line: RegExp) {
  expect(result.code).not.toBe(0);
  expect(result.code).not.toBeNull();
  expect(result.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(line)]);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stdout).not.toContain("Vitrine is running");
  for (const secret of [SECRET_A, SECRET_B]) expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
}

/** Every row the site keeps (the backup's tables, the migrations, the fingerprint), to compare before and after. */
async function siteData(database: TestDatabase): Promise<Record<string, string[]>> {
  const data: Record<string, string[]> = {};
  for (const table of [...BACKUP_TABLES.map((each) => each.name), "secret_fingerprints", "kysely_migration"]) {
    const rows = await database.db
      .selectFrom(table as "site_settings")
      .selectAll()
      .execute();
    data[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return data;
}

function filesIn(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

describe.each(databaseKinds)("the auth secret the database was set up with (%s)", (kind) => {
  it("refuses a start with another AUTH_SECRET and changes nothing, starts with the first, and takes a new one on purpose", async () => {
    const database = await emptyDatabase(kind);
    await stop(await start(database, SECRET_A));

    // What the database holds is a fingerprint, of no use to find the secret.
    const rows = await database.db.selectFrom("secret_fingerprints").selectAll().execute();
    expect(rows.map((row) => [row.name, row.fingerprint])).toEqual([["auth", secretFingerprint(SECRET_A)]]);
    const fingerprint = rows[0]?.fingerprint ?? "";
    expect(fingerprint).not.toContain(SECRET_A);
    expect(fingerprint).not.toContain(Buffer.from(SECRET_A).toString("base64url").slice(0, 16));
    expect(fingerprint).not.toBe(secretFingerprint(SECRET_B));

    const before = await siteData(database);
    const filesBefore = filesIn(database.location.dataDir);
    expectRefused(await refusedStart(database, SECRET_B), REFUSED_SET);
    expect(await siteData(database)).toEqual(before);
    expect(filesIn(database.location.dataDir)).toEqual(filesBefore);

    // The right secret again: the site starts as before.
    await stop(await start(database, SECRET_A));

    // The owner changes the secret on purpose: the new one is taken, the old one refused from then on.
    const cliEnv = (secret: string) =>
      cleanEnv({
        DATA_DIR: database.location.dataDir,
        DATABASE_URL: database.location.databaseUrl,
        AUTH_SECRET: secret,
      });
    const accepted = await run("npm", ["run", "cli", "--", "secret", "accept"], cliEnv(SECRET_B), 90_000);
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toContain(
      "The database now takes the secret of AUTH_SECRET: start every instance with it.",
    );
    expect(`${accepted.stdout}${accepted.stderr}`).not.toContain(SECRET_B);
    const again = await run("npm", ["run", "cli", "--", "secret", "accept"], cliEnv(SECRET_B), 90_000);
    expect(again.stderr).toContain("already takes the secret of AUTH_SECRET: nothing changed");
    const [changed] = await database.db.selectFrom("secret_fingerprints").select("fingerprint").execute();
    expect(changed?.fingerprint).toBe(secretFingerprint(SECRET_B));
    await stop(await start(database, SECRET_B));
    expectRefused(await refusedStart(database, SECRET_A), REFUSED_SET);
  });

  it("records the secret of a site that upgrades to the version keeping it, and holds it to that one", async () => {
    const database = await emptyDatabase(kind);
    const names = Object.keys(siteMigrations(kind));
    await migrateUpTo(database.db, kind, names[names.indexOf("0019_secret_fingerprints") - 1] as string);
    await insertMissingDefaults(database.db);

    await stop(await start(database, SECRET_A));
    const rows = await database.db.selectFrom("secret_fingerprints").select("fingerprint").execute();
    expect(rows).toEqual([{ fingerprint: secretFingerprint(SECRET_A) }]);
    expectRefused(await refusedStart(database, SECRET_B), REFUSED_SET);
  });

  it("refuses a secret made on its own when AUTH_SECRET is unset, and says to set AUTH_SECRET everywhere", async () => {
    const database = await emptyDatabase(kind);
    const first = await start(database);
    if (kind === "postgres") {
      // A second instance with a data folder of its own makes a secret of its own: refused, the first one serves on.
      const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-second-instance-"));
      cleanup.push(async () => fs.rmSync(otherDir, { recursive: true, force: true }));
      expectRefused(await refusedStart(database, undefined, otherDir), REFUSED_GENERATED);
      expect((await request(first.url("/readyz"))).status).toBe(200);
      await stop(first);
    } else {
      // On SQLite the database lives in the data folder: its auth-secret file lost, the next start makes another.
      await stop(first);
      fs.rmSync(path.join(database.location.dataDir, "auth-secret"));
      expectRefused(await refusedStart(database), REFUSED_GENERATED);
    }
  });
});
