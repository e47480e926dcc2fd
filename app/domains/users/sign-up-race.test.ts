import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findInviteCode } from "#app/domains/invites/invites.server.ts";
import { createInvite, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { ROOT } from "#tests/support/server-process.ts";
import type { RaceOutcome } from "#tests/support/sign-up-racer.ts";
import { databaseKinds, type TestDatabase, useTestDatabase } from "#tests/support/test-database.ts";
import { SignUpError, signUpWithInvite } from "./users.server.ts";

const RACER = path.join(ROOT, "tests/support/sign-up-racer.ts");
const PROCESSES = 4;

/**
 * SQLite: the sign-ups go through several processes, each with its own connection to the file, started at one
 * signal (tests/support/sign-up-racer.ts). Over one connection in one thread they would only take turns.
 */
async function raceInProcesses(
  database: TestDatabase,
  inviteCode: string,
  signUps: { email: string; password: string }[],
): Promise<RaceOutcome[]> {
  const racers = Array.from({ length: PROCESSES }, (_, index) => {
    const job = {
      sqliteFile: database.location.sqliteFile,
      inviteCode,
      signUps: signUps.filter((_, n) => n % PROCESSES === index),
    };
    const child = spawn(process.execPath, ["--import", "tsx", RACER, JSON.stringify(job)], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "inherit"],
    });
    let output = "";
    const ready = new Promise<void>((resolve) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
        if (output.startsWith("ready\n")) resolve();
      });
    });
    const done = new Promise<RaceOutcome[]>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => {
        const last = output.trim().split("\n").at(-1) ?? "";
        if (code === 0) resolve(JSON.parse(last) as RaceOutcome[]);
        else reject(new Error(`A racer ended with ${code}: ${output}`));
      });
    });
    return { child, ready, done };
  });
  await Promise.all(racers.map((racer) => racer.ready));
  for (const racer of racers) racer.child.stdin.end("go\n");
  return (await Promise.all(racers.map((racer) => racer.done))).flat();
}

/** PostgreSQL: in this process, over the pool's several connections. */
async function raceInPool(
  database: TestDatabase,
  inviteCode: string,
  signUps: { email: string; password: string }[],
): Promise<RaceOutcome[]> {
  const results = await Promise.allSettled(
    signUps.map((signUp) => signUpWithInvite(database.db, { ...signUp, inviteCode })),
  );
  return results.map((result) => {
    if (result.status === "fulfilled") return { won: { userId: result.value.userId, email: result.value.email } };
    expect(result.reason).toBeInstanceOf(SignUpError);
    return { lost: (result.reason as SignUpError).reason };
  });
}

describe.each(databaseKinds)("twenty simultaneous sign-ups with one invite code (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("creates exactly one account; the other nineteen get 'invalid invite code'", async () => {
    const code = await createInvite(database.db);
    const signUps = Array.from({ length: 20 }, (_, i) => ({
      email: uniqueEmail(`racer${i}`),
      password: strongPassword(),
    }));

    const outcomes = await (kind === "sqlite" ? raceInProcesses : raceInPool)(database, code, signUps);

    const winners = outcomes.flatMap((outcome) => ("won" in outcome ? [outcome.won] : []));
    const losers = outcomes.flatMap((outcome) => ("lost" in outcome ? [outcome.lost] : []));
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(19);
    for (const problem of losers) expect(problem).toBe("inviteInvalid");

    const users = await database.db.selectFrom("user").select(["id", "email"]).execute();
    const winner = winners[0];
    expect(users).toEqual([{ id: winner?.userId, email: winner?.email }]);
    const accounts = await database.db.selectFrom("account").select("userId").execute();
    expect(accounts).toEqual([{ userId: winner?.userId }]);
    const state = await findInviteCode(database.db, code);
    expect(state?.isUsed).toBe(true);
    expect(state?.usedBy).toBe(winner?.userId);
  });
});
