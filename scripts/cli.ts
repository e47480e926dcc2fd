// Command line for the site's owner: `npm run cli -- <command>`, with the same environment as the server.
import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { acceptAuthSecret, resolveAuthSecret } from "#app/auth/auth-secret.server.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "#app/auth/password-policy.ts";
import { openDatabase } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { withStartLock } from "#app/db/start-lock.server.ts";
import { CLI_ACTOR } from "#app/domains/audit/audit.server.ts";
import { createBackup } from "#app/domains/backup/backup.server.ts";
import { RestoreError, restoreBackup } from "#app/domains/backup/restore.server.ts";
import { defaultBackupDir, migrateWithBackup, runScheduledBackup } from "#app/domains/backup/schedule.server.ts";
import { createInviteCodes } from "#app/domains/invites/invites.server.ts";
import { importOutboxFolder, listOutbox, outboxDirIn, readOutboxMail } from "#app/domains/mail/outbox.server.ts";
import { formatOutboxList, formatOutboxMail } from "#app/domains/mail/outbox-print.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { reindexAll } from "#app/domains/search-index/search-index.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { createResetLink, UnknownAccountError } from "#app/domains/users/password-recovery.server.ts";
import { resetTwoFactor } from "#app/domains/users/two-factor.server.ts";
import { formatAccountTable, listAccounts } from "#app/domains/users/user-list.server.ts";
import { grantAdmin, RoleChangeError, revokeAdmin, setPassword } from "#app/domains/users/users.server.ts";
import { protectDataDir, protectSqliteFiles } from "#app/lib/data-files.server.ts";
import { type Env, EnvError, parseEnv } from "#app/lib/env.server.ts";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { moveStorage, openStorage } from "./cli-storage.ts";

const USAGE = `Usage:
  npm run cli -- invites create [--count N]   print N new invite codes (default 1), one per line
  npm run cli -- admins grant <email>         give a user the admin role
  npm run cli -- admins revoke <email>        take the admin role away (not from the last admin)
  npm run cli -- backup [--out FILE]          write a backup archive (.tar.gz) of the database and every file
                                              (from DATA_DIR/storage or the STORAGE_URL bucket); without --out
                                              into BACKUP_DIR (or DATA_DIR/backups); prints its path
  npm run cli -- restore FILE                 restore an archive into an empty DATA_DIR / DATABASE_URL, the files
                                              into DATA_DIR/storage or, with STORAGE_URL, into its empty bucket
  npm run cli -- storage move --to URL        copy every file from DATA_DIR/storage into the bucket of URL (an
                                              s3:// URL as STORAGE_URL takes it; the key pair from the environment),
                                              or with --to local from the STORAGE_URL bucket to the disk; run again
                                              after an interruption: what is there already is skipped
  npm run cli -- users set-password <email>   set a new password, read from the first line of stdin;
                                              ends all of the user's sessions
  npm run cli -- users reset-2fa <email>      turn the user's two-factor sign-in off and remove its secret and
                                              recovery codes (a lost phone); recorded in the audit log
  npm run cli -- users list                   every account: e-mail, admin or not, created, last sign-in
  npm run cli -- users reset-link <email>     print a one-time password reset link (from BASE_URL; valid one
                                              hour, replaces older links)
  npm run cli -- outbox latest                print the newest mail of the outbox (without SMTP_URL every mail
                                              is filed there), decoded: a link in it is whole on one line
  npm run cli -- outbox list                  the outbox's mails, newest first, with their IDs
  npm run cli -- outbox show <ID>             print one mail of the outbox (the ID from outbox list or
                                              Admin → Outbox)
  npm run cli -- search reindex               rebuild the search index from every post, picture, question, video
                                              and link (it is kept current by every change; this is for repairs)
  npm run cli -- secret accept                make the database take this AUTH_SECRET (or DATA_DIR/auth-secret)
                                              from now on, after changing it on purpose: every session ends`;

const passwordProblemText: Record<string, string> = {
  notFound: "No account with that e-mail address.",
  "password.required": "The new password is empty.",
  "password.tooShort": `The new password is too short: at least ${PASSWORD_MIN_LENGTH} characters.`,
  "password.tooLong": `The new password is too long: at most ${PASSWORD_MAX_LENGTH} characters.`,
  "password.common": "The new password is too common or too close to the e-mail address.",
};

/** The first line of stdin: a password never goes on the command line, where `ps` and the shell history show it. */
async function readFirstLine(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes("\n")) break;
  }
  return text.split(/\r?\n/)[0] ?? "";
}

class UsageError extends Error {}

function parseCount(args: string[]): number {
  const index = args.indexOf("--count");
  if (index === -1) {
    if (args.length > 0) throw new UsageError(`Unknown option: ${args[0]}`);
    return 1;
  }
  const raw = args[index + 1];
  const count = Number(raw);
  if (raw === undefined || !/^\d+$/.test(raw) || count < 1 || count > 1000) {
    throw new UsageError("--count takes a whole number from 1 to 1000");
  }
  return count;
}

/**
 * `outbox latest | list | show ID`: the mails of the outbox (a table since migration 0020, the same for every server
 * process), read like the Outbox screen reads them. `db` is null when there is no database yet (a SQLite file
 * never made): then the outbox is empty, and nothing is made by reading it.
 */
async function printOutbox(
  db: Kysely<Database> | null,
  command: string | undefined,
  rest: string[],
  smtp: boolean,
): Promise<number> {
  if (smtp) process.stderr.write("SMTP_URL is set, so mails are sent: the outbox holds only mails filed before.\n");
  const empty = "The outbox is empty: no mail was filed.\n";
  const list = (limit?: number) => (db ? listOutbox(db, limit) : Promise.resolve({ entries: [], total: 0 }));
  if (command === "list") {
    if (rest.length > 0) throw new UsageError("outbox list takes no arguments");
    const { entries, total } = await list();
    if (total === 0) {
      process.stderr.write(empty);
      return 0;
    }
    process.stdout.write(formatOutboxList(entries));
    if (total > entries.length) process.stderr.write(`The newest ${entries.length} of ${total} mails are listed.\n`);
    return 0;
  }
  if (command === "latest" || command === "show") {
    let id: string;
    if (command === "show") {
      if (rest.length !== 1 || !rest[0]) throw new UsageError("outbox show takes exactly one ID (from outbox list)");
      id = rest[0];
    } else {
      if (rest.length > 0) throw new UsageError("outbox latest takes no arguments");
      const newest = (await list(1)).entries[0];
      if (!newest) {
        process.stderr.write(empty);
        return 1;
      }
      id = newest.id;
    }
    const mail = db ? await readOutboxMail(db, id) : undefined;
    if (!mail) {
      process.stderr.write(`No mail "${id}" in the outbox: npm run cli -- outbox list shows their IDs.\n`);
      return 1;
    }
    process.stdout.write(formatOutboxMail(mail));
    return 0;
  }
  throw new UsageError(`Unknown command: ${["outbox", command].filter(Boolean).join(" ")}`);
}

async function main(argv: string[]): Promise<number> {
  const [group, command, ...rest] = argv;
  if (!group || group === "help" || group === "--help") {
    process.stderr.write(`${USAGE}\n`);
    return group ? 0 : 2;
  }
  const env = parseEnv();
  // Private files whatever the umask, a restored site's included.
  protectDataDir(env.dataDir);
  // Reading the outbox of a site that never started makes no database.
  if (group === "outbox" && !env.databaseUrl && !fs.existsSync(sqliteFileIn(env.dataDir))) {
    return printOutbox(null, command, rest, Boolean(env.mail.smtpUrl));
  }
  if (group === "storage") {
    if (command !== "move") throw new UsageError(`Unknown command: ${["storage", command].filter(Boolean).join(" ")}`);
    if (rest.length !== 2 || rest[0] !== "--to" || !rest[1]) {
      throw new UsageError("storage move takes --to followed by an s3:// URL or local");
    }
    return moveStorage(env, rest[1], (text) => process.stderr.write(text));
  }
  // The files where the site keeps them: DATA_DIR/storage, or the bucket of STORAGE_URL.
  const files = await openStorage(env);
  try {
    if (group === "restore") {
      const [file, ...extra] = [command, ...rest].filter((arg) => arg !== undefined);
      if (!file || extra.length > 0) throw new UsageError("restore takes exactly one archive file");
      let shown = 0;
      const { manifest, kind } = await restoreBackup(path.resolve(file), {
        dataDir: env.dataDir,
        databaseUrl: env.databaseUrl,
        storage: files.storage,
        storageName: files.name,
        // A terminal sees how far the files are, on one line; a script only gets the summary.
        onProgress: process.stderr.isTTY
          ? ({ done, total }) => {
              if (done !== total && Date.now() - shown < 500) return;
              shown = Date.now();
              process.stderr.write(`\rRestoring the files: ${done} of ${total}${done === total ? "\n" : ""}`);
            }
          : undefined,
      });
      const rows = Object.values(manifest.counts.rows).reduce((sum, count) => sum + count, 0);
      process.stderr.write(
        `Restored the backup of ${manifest.createdAt} into ${kind === "postgres" ? "PostgreSQL" : env.dataDir}: ${rows} rows, ${manifest.counts.files} files${env.storage.kind === "s3" ? ` (into ${files.name.replace(/^The /, "the ")})` : ""}.\n`,
      );
      return 0;
    }
    return await withDatabase(env, group, command, rest, files.storage);
  } finally {
    files.close();
  }
}

/** The commands that work on the site's database (migrated first, with a backup before an upgrade). */
async function withDatabase(
  env: Env,
  group: string,
  command: string | undefined,
  rest: string[],
  storage: FileStorage,
): Promise<number> {
  const database = openDatabase({ databaseUrl: env.databaseUrl, sqliteFile: sqliteFileIn(env.dataDir) });
  if (database.kind === "sqlite") protectSqliteFiles(sqliteFileIn(env.dataDir));
  try {
    if (group === "backup") {
      const args = [command, ...rest].filter((arg) => arg !== undefined);
      let out: string | undefined;
      if (args.length > 0) {
        if (args[0] !== "--out" || !args[1] || args.length > 2) throw new UsageError("backup takes only --out FILE");
        out = path.resolve(args[1]);
      }
      const source = { database, dataDir: env.dataDir, storage };
      const result = out
        ? await createBackup(source, out)
        : await runScheduledBackup(source, {
            dir: env.backup.dir ?? defaultBackupDir(env.dataDir),
            keep: env.backup.dir ? env.backup.keep : Number.MAX_SAFE_INTEGER,
          });
      process.stdout.write(`${result.file}\n`);
      process.stderr.write(
        `Backup written: ${result.size} bytes, ${result.manifest.counts.files} files, schema ${result.manifest.schema.version}.\n`,
      );
      return 0;
    }
    // In turns with servers starting on the same PostgreSQL database (app/db/start-lock.server.ts).
    const preMigrationBackup = await withStartLock(database, () =>
      migrateWithBackup({ database, dataDir: env.dataDir, storage }),
    );
    if (preMigrationBackup) process.stderr.write(`Backup before upgrading the database: ${preMigrationBackup}\n`);
    await insertMissingDefaults(database.db);
    if (group === "secret" && command === "accept") {
      if (rest.length > 0) throw new UsageError("secret accept takes no arguments");
      const secret = resolveAuthSecret(env);
      const result = await acceptAuthSecret(database.db, secret.value);
      const source = secret.file ?? "AUTH_SECRET";
      const outcome = {
        same: `The database already takes the secret of ${source}: nothing changed.`,
        recorded: `The database now takes the secret of ${source}: start every instance with it.`,
        changed: `The database now takes the secret of ${source}: start every instance with it. Sessions signed with the old secret no longer work, nor two-factor sign-in set up under it (users reset-2fa <email>).`,
      };
      process.stderr.write(`${outcome[result]}\n`);
      return 0;
    }
    if (group === "outbox") {
      // Mails an older version filed as files, should the server not have moved them yet.
      await importOutboxFolder(database.db, outboxDirIn(env.dataDir), new Date());
      return await printOutbox(database.db, command, rest, Boolean(env.mail.smtpUrl));
    }
    if (group === "search" && command === "reindex") {
      if (rest.length > 0) throw new UsageError("search reindex takes no arguments");
      const started = Date.now();
      const counts = await reindexAll(database.db);
      const items = Object.entries(counts).map(([kind, count]) => `${count} ${kind}${count === 1 ? "" : "s"}`);
      process.stderr.write(`Search index rebuilt in ${Date.now() - started} ms: ${items.join(", ")}.
`);
      return 0;
    }
    if (group === "invites" && command === "create") {
      const codes = await createInviteCodes(database.db, { count: parseCount(rest) });
      process.stdout.write(`${codes.join("\n")}\n`);
      return 0;
    }
    if (group === "admins" && (command === "grant" || command === "revoke")) {
      const email = rest[0];
      if (!email || rest.length > 1) throw new UsageError(`admins ${command} takes exactly one e-mail address`);
      if (command === "grant") {
        const result = await grantAdmin(database.db, email);
        process.stderr.write(result === "granted" ? `${email} is now an admin.\n` : `${email} was already an admin.\n`);
      } else {
        const result = await revokeAdmin(database.db, email);
        process.stderr.write(
          result === "revoked" ? `${email} is no longer an admin.\n` : `${email} was not an admin.\n`,
        );
      }
      return 0;
    }
    if (group === "users" && command === "set-password") {
      const email = rest[0];
      if (!email || rest.length > 1) throw new UsageError("users set-password takes exactly one e-mail address");
      const result = await setPassword(database.db, { email, password: await readFirstLine() });
      if (!result.ok) {
        process.stderr.write(`${passwordProblemText[result.reason] ?? result.reason}\n`);
        return 1;
      }
      process.stderr.write(`The password of ${email} is changed; ${result.sessionsEnded} sessions ended.\n`);
      return 0;
    }
    if (group === "users" && command === "reset-2fa") {
      const email = rest[0];
      if (!email || rest.length > 1) throw new UsageError("users reset-2fa takes exactly one e-mail address");
      const result = await resetTwoFactor(database.db, CLI_ACTOR, email);
      if (result === "notFound") {
        process.stderr.write("No account with that e-mail address.\n");
        return 1;
      }
      process.stderr.write(
        result === "reset"
          ? `Two-factor sign-in of ${email} is off; its secret and recovery codes are removed.\n`
          : `${email} did not use two-factor sign-in.\n`,
      );
      return 0;
    }
    if (group === "users" && command === "list") {
      if (rest.length > 0) throw new UsageError("users list takes no arguments");
      process.stdout.write(`${formatAccountTable(await listAccounts(database.db))}\n`);
      return 0;
    }
    if (group === "users" && command === "reset-link") {
      const email = rest[0];
      if (!email || rest.length > 1) throw new UsageError("users reset-link takes exactly one e-mail address");
      const link = await createResetLink(database.db, { email, baseUrl: env.baseUrl, actor: CLI_ACTOR });
      // The link alone on stdout (for a script); what it is on stderr.
      process.stdout.write(`${link.url}\n`);
      process.stderr.write(
        `A password reset link for ${email}: it works once, until ${link.expiresAt.toISOString()}, and replaces older links.\n`,
      );
      return 0;
    }
    throw new UsageError(`Unknown command: ${[group, command].filter(Boolean).join(" ")}`);
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    else if (
      error instanceof EnvError ||
      error instanceof RoleChangeError ||
      error instanceof RestoreError ||
      error instanceof UnknownAccountError
    )
      process.stderr.write(`${error.message}\n`);
    else process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
