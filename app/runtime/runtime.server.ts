import { randomBytes } from "node:crypto";
import path from "node:path";
import { type Auth, createAuth } from "#app/auth/auth.server.ts";
import { type AuthSecret, checkAuthSecret, resolveAuthSecret } from "#app/auth/auth-secret.server.ts";
import { createAuthLimiter, FailedAttemptLimiter } from "#app/auth/rate-limit.server.ts";
import { createResetRequestLimiter } from "#app/auth/recovery-limit.server.ts";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { withStartLock } from "#app/db/start-lock.server.ts";
import { migrateWithBackup } from "#app/domains/backup/schedule.server.ts";
import { type ContactGuard, contactSecretOf, createContactGuard } from "#app/domains/contact/contact-guard.server.ts";
import { ensureAdminSetupCode } from "#app/domains/invites/invites.server.ts";
import { configureLocalJobs } from "#app/domains/jobs/job-local-run.server.ts";
import { type ChangeFeed, createChangeFeed } from "#app/domains/live/change-feed.server.ts";
import { type AppMailService, createMailService } from "#app/domains/mail/mail.server.ts";
import { mailJobKeyOf } from "#app/domains/mail/mail-job-payload.server.ts";
import { type FileStorage, mediaSigningSecret } from "#app/domains/media/storage.server.ts";
import { previewSecretOf } from "#app/domains/posts/preview-link.server.ts";
import { SearchLimiter } from "#app/domains/search/search-limit.server.ts";
import { insertMissingDefaults, readSettings } from "#app/domains/settings/settings.server.ts";
import { shareSecretOf } from "#app/domains/shares/share-links.server.ts";
import {
  createStatisticsRecorder,
  type StatisticsRecorder,
} from "#app/domains/statistics/statistics-recorder.server.ts";
import { unsubscribeSecretOf } from "#app/domains/subscriptions/unsubscribe-token.server.ts";
import { protectDataDir, protectSqliteFiles } from "#app/lib/data-files.server.ts";
import { type Env, maskSmtpUrl } from "#app/lib/env.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { logBackgroundFailure } from "./background-failure.server.ts";
import { type BackgroundTasks, createBackgroundTasks } from "./background-tasks.server.ts";
import { checkStorage, closeStorage, createStorage, describeStorage } from "./storage-choice.server.ts";

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
  /** Outgoing mail (SMTP_URL, or the outbox in the database), each mail a `mail.send` job until delivered. */
  mail: AppMailService;
  /** The key of the posts' "preview as visitor" links (app/domains/posts/preview-link.server.ts). */
  previewSecret: string;
  /** The key of the cookie a share link's right password gives (app/domains/shares/share-links.server.ts). */
  shareSecret: string;
  /** Wrong passwords of share links per link and client address (in the database, like authLimiter). */
  sharePasswordLimiter: FailedAttemptLimiter;
  /** Wrong passwords per link from all addresses together: many addresses cannot guess on without end. */
  shareLinkLimiter: FailedAttemptLimiter;
  /** The key of the unsubscribe links of the mails about new posts (app/domains/subscriptions/). */
  unsubscribeSecret: string;
  /** The key of the contact form's tokens (app/domains/contact/contact-guard.server.ts). */
  contactSecret: string;
  /** The contact form's spam checks, and its limits and spent tokens (in the database). */
  contactGuard: ContactGuard;
  /** Searches per client address (in this process's memory: see search-limit.server.ts). */
  searchLimiter: SearchLimiter;
  /** The process's one reader of change events (started with the background tasks); live streams read from it. */
  changeFeed: ChangeFeed;
  /** Visitors' views counted by the edge, written as sums every few seconds (issue 46; a background task). */
  statistics: StatisticsRecorder;
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

/**
 * The services and background tasks on an open, migrated database, nothing started and nothing kept process-wide:
 * `startRuntime` builds the server's with it, and the in-process route tests theirs on a test database.
 */
export function createRuntime(env: Env, database: AppDatabase, authSecret?: AuthSecret): Runtime {
  const secret = (authSecret ?? resolveAuthSecret(env)).value;
  configureLocalJobs({ leaseMs: env.jobs.leaseMs });
  const auth = createAuth({ db: database.db, kind: database.kind, secret, baseUrl: env.baseUrl });
  const storage = createStorage(env, mediaSigningSecret(secret));
  const services: RuntimeServices = {
    env,
    database,
    auth,
    authLimiter: createAuthLimiter(database.db, env.authMaxFailedAttempts),
    resetRequestLimiter: createResetRequestLimiter(database.db),
    searchLimiter: new SearchLimiter(),
    storage,
    previewSecret: previewSecretOf(secret),
    shareSecret: shareSecretOf(secret),
    sharePasswordLimiter: new FailedAttemptLimiter(database.db, "share-password", 10, 15 * 60_000),
    shareLinkLimiter: new FailedAttemptLimiter(database.db, "share-link", 50, 60 * 60_000),
    unsubscribeSecret: unsubscribeSecretOf(secret),
    contactSecret: contactSecretOf(secret),
    contactGuard: createContactGuard({ db: database.db, secret: contactSecretOf(secret) }),
    statistics: createStatisticsRecorder({
      db: database.db,
      site: env.baseUrl,
      retentionDays: async () => Number((await readSettings(database.db)).statistics_retention_days) || 0,
      onError: (error) => logBackgroundFailure(getLogger(), "Could not write the statistics", error),
    }),
    changeFeed: createChangeFeed({
      db: database.db,
      watchCommits: database.watchCommits,
      onError: (error) => logBackgroundFailure(getLogger(), "Could not read the change events", error),
    }),
    mail: createMailService({
      smtpUrl: env.mail.smtpUrl,
      from: env.mail.from,
      baseUrl: env.baseUrl,
      readSiteName: async () => (await readSettings(database.db)).site_name,
      db: database.db,
      jobKey: mailJobKeyOf(secret),
      logger: getLogger(),
      leaseMs: env.jobs.leaseMs,
    }),
  };
  return { ...services, tasks: createBackgroundTasks(services, getLogger()) };
}

/**
 * What a start does to the database before serving, in turns with the other instances starting on it (the start
 * lock, on PostgreSQL): refuse a secret other than the one the database was set up with (before anything is
 * written), migrate (after a backup when there was a schema), fill in missing settings, record the secret's
 * fingerprint when none is, and keep one admin setup code while no admin exists (returned).
 */
async function prepareDatabase(
  database: AppDatabase,
  dataDir: string,
  authSecret: AuthSecret,
  storage: FileStorage,
): Promise<string | null> {
  return withStartLock(
    database,
    async () => {
      await checkAuthSecret(database.db, authSecret, { record: false });
      const preMigrationBackup = await migrateWithBackup({ database, dataDir, storage });
      if (preMigrationBackup) getLogger().info({ file: preMigrationBackup }, "Backup before upgrading the database");
      await insertMissingDefaults(database.db);
      if ((await checkAuthSecret(database.db, authSecret, { record: true })) === "recorded")
        getLogger().info(
          "The auth secret's fingerprint is recorded: every instance on this database must run with the same secret",
        );
      return ensureAdminSetupCode(database.db);
    },
    () => getLogger().info("Another instance is starting on this database: waiting for it to finish upgrading"),
  );
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
    const authSecret = resolveAuthSecret(env);
    // The pre-migration backup reads the files where the site keeps them (the bucket too); nothing is signed
    // with this storage, and it is closed once the database is prepared.
    const files = createStorage(env, randomBytes(32).toString("base64url"));
    const adminSetupCode = await prepareDatabase(database, env.dataDir, authSecret, files).finally(() =>
      closeStorage(files),
    );
    const runtime = createRuntime(env, database, authSecret);
    getLogger().info(
      env.mail.smtpUrl
        ? { mail: "smtp", smtp: maskSmtpUrl(env.mail.smtpUrl), from: env.mail.from }
        : { mail: "outbox", from: env.mail.from },
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
  // Mails waiting for their turn go back to the queue; those under way are given a moment to end before the
  // database closes (cut off, they stay claimed until their lease ends, then another process delivers them).
  await runtime?.mail.close();
  if (runtime) closeStorage(runtime.storage);
  await runtime?.database.close();
}
