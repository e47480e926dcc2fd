import { afterEach, describe, expect, it } from "vitest";
import { delayAfterFailures, FREE_FAILURES } from "#app/auth/account-throttle.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { postForm, type ServerProcess, sessionCookie, startServer } from "#tests/support/server-process.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/** Databases and servers of the running test, cleaned up whatever happens. */
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function freshDatabase(kind: TestDatabase["kind"]): Promise<TestDatabase> {
  const database = await createTestDatabase(kind);
  cleanup.push(() => database.destroy());
  return database;
}

async function start(database: TestDatabase, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServer({
    dataDir: database.location.dataDir,
    databaseUrl: database.location.databaseUrl,
    env,
  });
  cleanup.push(() => server.stop("SIGKILL"));
  return server;
}

describe.each(databaseKinds)("failed sign-ins for one account from many addresses (%s)", (kind) => {
  it("checks only a few of 160 wrong passwords from 16 addresses, keeps the wait over a restart, and lets the owner in after it", async () => {
    const database = await freshDatabase(kind);
    let server = await start(database);
    const owner = await createUser(database.db);
    const other = await createUser(database.db);
    const signIn = (email: string, password: string, localAddress: string) =>
      postForm(server, "/auth", { intent: "sign-in", email, password }, { localAddress });

    // 16 addresses, 10 wrong passwords each: each address stays within its own limit (10 per 15 minutes).
    const addresses = Array.from({ length: 16 }, (_, index) => `127.0.1.${index + 1}`);
    const began = Date.now();
    const answers = (
      await Promise.all(
        addresses.map(async (address) => {
          const mine = [];
          for (let attempt = 0; attempt < 10; attempt++)
            mine.push(await signIn(owner.email, `wrong-password-${address}-${attempt}`, address));
          return mine;
        }),
      )
    ).flat();

    const elapsed = Date.now() - began;

    // Five free failures and the sixth, after which the account waits 15 seconds, then 30, …; the rest were never
    // checked. How many waits ended while the test ran depends on the machine's speed: at most what the schedule allows.
    let allowed = FREE_FAILURES + 1;
    for (let spent = delayAfterFailures(allowed); spent < elapsed; spent += delayAfterFailures(allowed)) allowed++;
    const checked = answers.filter((answer) => answer.status === 400);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(checked.length).toBeGreaterThanOrEqual(FREE_FAILURES + 1);
    expect(checked.length).toBeLessThanOrEqual(allowed);
    for (const answer of checked) expect(answer.body).toContain("Invalid e-mail or password.");
    expect(refused).toHaveLength(160 - checked.length);
    for (const answer of refused) {
      expect(answer.body).toContain("Too many failed sign-ins for this account.");
      expect(answer.body).toMatch(/please wait \d+ seconds/);
      expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(answer.headers["retry-after"]) * 1000).toBeLessThanOrEqual(delayAfterFailures(checked.length));
      expect(sessionCookie(answer)).toBeUndefined();
    }
    const [row] = await database.db.selectFrom("sign_in_failures").selectAll().execute();
    expect(row).toMatchObject({ account: owner.email, failures: checked.length });

    // Another account is not affected, from the same addresses.
    expect((await signIn(other.email, other.password, "127.0.1.1")).status).toBe(302);

    // The count is in the database: a restarted server still makes the owner wait, even with the right password.
    await server.stop();
    server = await start(database);
    const waiting = await signIn(owner.email, owner.password, "127.0.1.2");
    expect(waiting.status).toBe(429);
    expect(sessionCookie(waiting)).toBeUndefined();

    // Once the wait is over (moved into the past here), the right password signs the owner in and clears the count.
    await database.db
      .updateTable("sign_in_failures")
      .set({ locked_until: new Date(Date.now() - 1000) })
      .execute();
    const signedIn = await signIn(owner.email, owner.password, "127.0.1.3");
    expect(signedIn.status).toBe(302);
    expect(sessionCookie(signedIn)).toBeDefined();
    expect(await database.db.selectFrom("sign_in_failures").selectAll().execute()).toEqual([]);
  }, 120_000);
});
