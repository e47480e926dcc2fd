import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { EnvError } from "#app/lib/env.server.ts";

/** The secret the site signs with, and where it came from (for the message when it is not the database's). */
export type AuthSecret = {
  value: string;
  /** The file it was read from or made in (DATA_DIR/auth-secret) when AUTH_SECRET is unset; null when it is set. */
  file: string | null;
};

/** AUTH_SECRET from the environment; without it, a random secret kept beside the data (never in the repo). */
export function resolveAuthSecret(env: { authSecret?: string | undefined; dataDir: string }): AuthSecret {
  if (env.authSecret) return { value: env.authSecret, file: null };
  const file = path.join(env.dataDir, "auth-secret");
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return { value: existing, file };
  } catch {
    // Not created yet.
  }
  fs.mkdirSync(env.dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  // Written aside and renamed, so a crash mid-write never leaves a truncated secret behind.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${secret}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
  return { value: secret, file };
}

/** The one row of `secret_fingerprints` this module keeps (migration 0019). */
const NAME = "auth";
/** A fixed label, so that the fingerprint is of no use for anything the secret signs (sessions, links, tokens). */
const LABEL = "vitrine:auth-secret-fingerprint:v1";

/**
 * An HMAC of a fixed label under the secret: the same secret always gives the same fingerprint, another secret
 * another one, and the secret cannot be read back from it.
 */
export function secretFingerprint(secret: string): string {
  return createHmac("sha256", secret).update(LABEL).digest("base64url");
}

function sameFingerprint(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The message of a start refused for its secret: one line, naming the remedy, never the secret. */
function mismatchMessage(secret: AuthSecret): string {
  const remedy =
    "to change the secret on purpose, stop every instance and run `npm run cli -- secret accept` once with the new one";
  return secret.file
    ? `AUTH_SECRET is not set, and the secret in ${secret.file} is not the one this database was set up with: set AUTH_SECRET to the same value on every instance (the content of the auth-secret file of the instance that set the database up), or, ${remedy}`
    : `AUTH_SECRET is not the secret this database was set up with: every instance must run with the same AUTH_SECRET (another one would sign everyone out); set the one the site was set up with, or, ${remedy}`;
}

async function recordedFingerprint(db: Kysely<Database>): Promise<string | null> {
  const row = await db
    .selectFrom("secret_fingerprints")
    .select("fingerprint")
    .where("name", "=", NAME)
    .executeTakeFirst();
  return row?.fingerprint ?? null;
}

/** Whether migration 0019 has made the table (before a start migrates, it may not have). */
async function hasFingerprintTable(db: Kysely<Database>): Promise<boolean> {
  const tables = await db.introspection.getTables();
  return tables.some((table) => table.name === "secret_fingerprints");
}

/**
 * Checks the secret against the fingerprint the database was set up with, and records it when none is (the first
 * start, or the first of a version that keeps one). Throws an EnvError, which the server prints alone, when it
 * differs. `record: false` only checks, and passes a database that has no fingerprint table yet (before migrating).
 */
export async function checkAuthSecret(
  db: Kysely<Database>,
  secret: AuthSecret,
  options: { record: boolean },
): Promise<"same" | "recorded" | "none"> {
  if (!options.record && !(await hasFingerprintTable(db))) return "none";
  const fingerprint = secretFingerprint(secret.value);
  let recorded = await recordedFingerprint(db);
  let outcome: "same" | "recorded" = "same";
  if (recorded === null) {
    if (!options.record) return "none";
    // Another process may record at the same moment (without the start lock, on SQLite): the first one wins,
    // and this one is checked against it like any later start.
    await db
      .insertInto("secret_fingerprints")
      .values({ name: NAME, fingerprint, recorded_at: new Date() })
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
    recorded = await recordedFingerprint(db);
    outcome = "recorded";
  }
  if (recorded === null || !sameFingerprint(recorded, fingerprint)) throw new EnvError(mismatchMessage(secret));
  return outcome;
}

/**
 * Makes the database take this secret from now on (the owner changed it on purpose): its fingerprint replaces the
 * recorded one. Returns whether there was one and whether it was another.
 */
export async function acceptAuthSecret(db: Kysely<Database>, secret: string): Promise<"changed" | "same" | "recorded"> {
  const fingerprint = secretFingerprint(secret);
  const before = await recordedFingerprint(db);
  if (before !== null && sameFingerprint(before, fingerprint)) return "same";
  await db
    .insertInto("secret_fingerprints")
    .values({ name: NAME, fingerprint, recorded_at: new Date() })
    .onConflict((oc) => oc.column("name").doUpdateSet({ fingerprint, recorded_at: new Date() }))
    .execute();
  return before === null ? "recorded" : "changed";
}
