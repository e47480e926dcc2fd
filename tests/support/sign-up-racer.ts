/**
 * One racer of the sign-up race on SQLite (app/domains/users/sign-up-race.test.ts), in a process of its own with
 * a connection of its own: sign-ups over one connection in one thread take turns and cannot race. Reads its
 * job as JSON from argv, says "ready", waits for "go" on stdin so that every racer starts at once, and prints
 * one JSON line with what each sign-up came to.
 */
import { openDatabase } from "#app/db/database.server.ts";
import { SignUpError, signUpWithInvite } from "#app/domains/users/users.server.ts";

type Job = { sqliteFile: string; inviteCode: string; signUps: { email: string; password: string }[] };
export type RaceOutcome = { won: { userId: string; email: string } } | { lost: string };

const job = JSON.parse(process.argv[2] ?? "{}") as Job;
const database = openDatabase({ sqliteFile: job.sqliteFile });
process.stdout.write("ready\n");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
const results = await Promise.allSettled(
  job.signUps.map((signUp) => signUpWithInvite(database.db, { ...signUp, inviteCode: job.inviteCode })),
);
const outcomes: RaceOutcome[] = results.map((result) =>
  result.status === "fulfilled"
    ? { won: { userId: result.value.userId, email: result.value.email } }
    : { lost: result.reason instanceof SignUpError ? result.reason.reason : String(result.reason) },
);
await database.close();
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
