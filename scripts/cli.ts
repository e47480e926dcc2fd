// Command line for the site's owner: `npm run cli -- <command>`, with the same environment as the server.
import { openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrations.server.ts";
import { createInviteCodes } from "#app/domains/invites/invites.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "#app/domains/users/password-policy.ts";
import { grantAdmin, RoleChangeError, revokeAdmin, setPassword } from "#app/domains/users/users.server.ts";
import { protectDataDir, protectSqliteFiles } from "#app/lib/data-files.server.ts";
import { EnvError, parseEnv } from "#app/lib/env.server.ts";
import { sqliteFileIn } from "#app/lib/runtime.server.ts";

const USAGE = `Usage:
  npm run cli -- invites create [--count N]   print N new invite codes (default 1), one per line
  npm run cli -- admins grant <email>         give a user the admin role
  npm run cli -- admins revoke <email>        take the admin role away (not from the last admin)
  npm run cli -- users set-password <email>   set a new password, read from the first line of stdin;
                                              ends all of the user's sessions`;

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

async function main(argv: string[]): Promise<number> {
  const [group, command, ...rest] = argv;
  if (!group || group === "help" || group === "--help") {
    process.stderr.write(`${USAGE}\n`);
    return group ? 0 : 2;
  }
  const env = parseEnv();
  protectDataDir(env.dataDir);
  const database = openDatabase({ databaseUrl: env.databaseUrl, sqliteFile: sqliteFileIn(env.dataDir) });
  if (database.kind === "sqlite") protectSqliteFiles(sqliteFileIn(env.dataDir));
  try {
    await migrateToLatest(database.db, database.kind);
    await insertMissingDefaults(database.db);
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
        process.stderr.write(`${passwordProblemText[result.problem] ?? result.problem}\n`);
        return 1;
      }
      process.stderr.write(`The password of ${email} is changed; ${result.sessionsEnded} sessions ended.\n`);
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
    else if (error instanceof EnvError || error instanceof RoleChangeError) process.stderr.write(`${error.message}\n`);
    else process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
