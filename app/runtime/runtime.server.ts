import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type Auth, createAuth } from "#app/auth/auth.server.ts";
import { createAuthLimiter, type FailedAttemptLimiter } from "#app/auth/rate-limit.server.ts";
import { createResetRequestLimiter } from "#app/auth/recovery-limit.server.ts";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { migrateWithBackup } from "#app/domains/backup/schedule.server.ts";
import { type ContactGuard, contactSecretOf, createContactGuard } from "#app/domains/contact/contact-guard.server.ts";
import { ensureAdminSetupCode } from "#app/domains/invites/invites.server.ts";
import { type ChangeFeed, createChangeFeed } from "#app/domains/live/change-feed.server.ts";
import { type AppMailService, createMailService } from "#app/domains/mail/mail.server.ts";
import { outboxDirIn } from "#app/domains/mail/outbox.server.ts";
import { type FileStorage, mediaSigningSecret } from "#app/domains/media/storage.server.ts";
import { previewSecretOf } from "#app/domains/posts/preview-link.server.ts";
import { insertMissingDefaults, readSettings } from "#app/domains/settings/settings.server.ts";
import { protectDataDir, protectSqliteFiles } from "#app/lib/data-files.server.ts";
import { type Env, maskSmtpUrl } from "#app/lib/env.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { logBackgroundFailure } from "./background-failure.server.ts";
import { type BackgroundTasks, createBackgroundTasks } from "./background-tasks.server.ts";
import { checkStorage, createStorage, describeStorage } from "./storage-choice.server.ts";

/** What the composition root builds from the environment; the background tasks are built from it in turn. */
export type RuntimeServices = {
  env: Env;
  database: AppDatabase;
  auth: Auth;
  /** Failed sign-ins and sign-ups per client address (in the database: see rate-limit.server.ts). */
  authLimiter: FailedAttemptLimiter;
  /** Password reset requests per e-mail address (see recovery-limit.server.ts). */
  resetRequestLimiter: FailedAttemptLimiter;
  /** Uploaded and generated files: under DATA_DIR/storage, or in the bucket of STORAGE_URL. */
  storage: FileStorage;
  /** Outgoing mail (SMTP_URL, or the outbox under DATA_DIR/outbox). */
  mail: AppMailService;
  /** The key of the posts' "preview as visitor" links (app/domains/posts/preview-link.server.ts). */
  previewSecret: string;
  /** The key of the contact form's tokens (app/domains/contact/contact-guard.server.ts). */
  contactSecret: string;
  /** The contact form's spam checks, and its limits and spent tokens (in the database). */
  contactGuard: ContactGuard;
  /** The process's one reader of change events (started with the background tasks); live streams read from it. */
  changeFeed: ChangeFeed;
};

export type Runtime = RuntimeServices & {
  /** The background work started with the runtime (see background-tasks.server.ts), stopped before it closes. */
  tasks: BackgroundTasks;
};

// The one globalThis field: the development server reloads modules on every change, and a reload must find the
// running runtime (one database connection, one set of background tasks) instead of starting a second.
const holder = globalThis as typeof globalThis & { __vitrineRuntime?: Runtime };

export function sqliteFileIn(dataDir: string): string {
  return path.join(dataDir, "vitrine.sqlite");
}

/** AUTH_SECRET from the environment; without it, a random secret kept beside the data (never in the repo). */
function resolveAuthSecret(env: Env): string {
  if (env.authSecret) return env.authSecret;
  const file = path.join(env.dataDir, "auth-secret");
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // Not created yet.
  }
  fs.mkdirSync(env.dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  // Written aside and renamed, so a crash mid-write never leaves a truncated secret behind.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${secret}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
  return secret;
}

/**
 * The services and background tasks on an open, migrated database, nothing started and nothing kept process-wide:
 * `startRuntime` builds the server's with it, and the in-process route tests theirs on a test database.
 */
export function createRuntime(env: Env, database: AppDatabase): Runtime {
  const secret = resolveAuthSecret(env);
  const auth = createAuth({ db: database.db, kind: database.kind, secret, baseUrl: env.baseUrl });
  const storage = createStorage(env, mediaSigningSecret(secret));
  const services: RuntimeServices = {
    env,
    database,
    auth,
    authLimiter: createAuthLimiter(database.db, env.authMaxFailedAttempts),
    resetRequestLimiter: createResetRequestLimiter(database.db),
    storage,
    previewSecret: previewSecretOf(secret),
    contactSecret: contactSecretOf(secret),
    contactGuard: createContactGuard({ db: database.db, secret: contactSecretOf(secret) }),
    changeFeed: createChangeFeed({
      db: database.db,
      watchCommits: database.watchCommits,
      onError: (error) => logBackgroundFailure(getLogger(), "Could not read the change events", error),
    }),
    mail: createMailService({
      smtpUrl: env.mail.smtpUrl,
      from: env.mail.from,
      outboxDir: outboxDirIn(env.dataDir),
      baseUrl: env.baseUrl,
      readSiteName: async () => (await readSettings(database.db)).site_name,
      db: database.db,
      logger: getLogger(),
    }),
  };
  return { ...services, tasks: createBackgroundTasks(services, getLogger()) };
}

/** Opens the database, migrates it, fills in missing settings; returns the admin setup code while no admin exists. */
export async function startRuntime(env: Env): Promise<{ runtime: Runtime; adminSetupCode: string | null }> {
  if (holder.__vitrineRuntime) {
    return {
      runtime: holder.__vitrineRuntime,
      adminSetupCode: await ensureAdminSetupCode(holder.__vitrineRuntime.database.db),
    };
  }
  // A bucket that does not answer stops the start before the database is opened or upgraded.
  await checkStorage(env);
  protectDataDir(env.dataDir);
  const database = openDatabase({ databaseUrl: env.databaseUrl, sqliteFile: sqliteFileIn(env.dataDir) });
  if (database.kind === "sqlite") protectSqliteFiles(sqliteFileIn(env.dataDir));
  try {
    // The files are read where the site keeps them (the bucket too); nothing is signed with this storage.
    const files = createStorage(env, randomBytes(32).toString("base64url"));
    const preMigrationBackup = await migrateWithBackup({ database, dataDir: env.dataDir, storage: files });
    if (preMigrationBackup) getLogger().info({ file: preMigrationBackup }, "Backup before upgrading the database");
    await insertMissingDefaults(database.db);
    const adminSetupCode = await ensureAdminSetupCode(database.db);
    const runtime = createRuntime(env, database);
    getLogger().info(
      env.mail.smtpUrl
        ? { mail: "smtp", smtp: maskSmtpUrl(env.mail.smtpUrl), from: env.mail.from }
        : { mail: "outbox", outbox: outboxDirIn(env.dataDir), from: env.mail.from },
      env.mail.smtpUrl ? "Mail is sent through SMTP" : "Mail goes to the outbox (SMTP_URL is not set)",
    );
    if (env.mail.smtpUrl && env.mail.fromIsDefault) {
      // Many mail servers refuse a sender outside their own domains (and every one refuses vitrine@127.0.0.1).
      getLogger().warn(
        { from: env.mail.from },
        "MAIL_FROM is not set: mail goes out from this made-up address, which your mail server may refuse; set MAIL_FROM to an address it accepts",
      );
    }
    getLogger().info(
      describeStorage(env),
      env.storage.kind === "s3" ? "Files are kept in the bucket of STORAGE_URL" : "Files are kept on the local disk",
    );
    runtime.tasks.start();
    holder.__vitrineRuntime = runtime;
    return { runtime, adminSetupCode };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

export function getRuntime(): Runtime {
  const runtime = holder.__vitrineRuntime;
  if (!runtime) throw new Error("The server runtime has not been started");
  return runtime;
}

/**
 * The storage the server runs with (made here: DATA_DIR/storage, or STORAGE_URL's bucket). It lives in the runtime, not in the
 * storage module, so that storage does not import the runtime that creates it.
 */
export function getStorage(): FileStorage {
  return getRuntime().storage;
}

export function getDb() {
  return getRuntime().database.db;
}

export async function stopRuntime(): Promise<void> {
  const runtime = holder.__vitrineRuntime;
  holder.__vitrineRuntime = undefined;
  // Background work first (in the reverse order of its start): none of it may write once the database closes.
  await runtime?.tasks.stop();
  // Mails under way are given a moment to go out (or be recorded as failed) before the database closes.
  await runtime?.mail.close();
  await runtime?.database.close();
}
