import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { delayAfterFailures, FREE_FAILURES } from "#app/auth/account-throttle.server.ts";
import { startServerOn } from "#tests/support/admin-server.ts";
import { createUser, strongPassword } from "#tests/support/factories.ts";
import {
  cleanEnv,
  cookiePair,
  postForm,
  request,
  run,
  type ServerProcess,
  sessionCookie,
  startServer,
  TEST_AUTH_SECRET,
} from "#tests/support/server-process.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
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

function start(database: TestDatabase, env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServerOn(database, cleanup, env);
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
    // (The wait is set to the 5 minutes of a long attack here: a restart on a busy machine can outlast 15 seconds.)
    await database.db
      .updateTable("sign_in_failures")
      .set({ locked_until: new Date(Date.now() + 5 * 60_000) })
      .execute();
    await server.stop();
    server = await start(database);
    const waiting = await signIn(owner.email, owner.password, "127.0.1.2");
    expect(waiting.status).toBe(429);
    expect(waiting.body).toMatch(/please wait 5 minutes/);
    expect(Number(waiting.headers["retry-after"])).toBeGreaterThan(200);
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

describe.each(databaseKinds)("how long a session lasts (%s)", (kind) => {
  it("ends a session 30 days after its sign-in however much it was used, and every session on a password change", async () => {
    const database = await freshDatabase(kind);
    const server = await startServer({
      dataDir: database.location.dataDir,
      databaseUrl: database.location.databaseUrl,
      authSecret: TEST_AUTH_SECRET,
    });
    cleanup.push(() => server.stop("SIGKILL"));
    const admin = await createUser(database.db, { admin: true });
    const day = 24 * 60 * 60 * 1000;
    /** A session signed in `age` ago and still in use: better-auth has kept extending it. */
    const sessionSignedIn = async (age: number) => {
      const cookie = await createSessionCookie(database.db, admin.id, TEST_AUTH_SECRET);
      const token = decodeURIComponent(cookie.value).split(".")[0] ?? "";
      await database.db
        .updateTable("session")
        .set({ createdAt: new Date(Date.now() - age), expiresAt: new Date(Date.now() + 20 * day) })
        .where("token", "=", token)
        .execute();
      return { header: `${cookie.name}=${cookie.value}`, token };
    };
    const young = await sessionSignedIn(29 * day);
    const old = await sessionSignedIn(30 * day + 60_000);

    expect((await request(server.url("/admin"), { headers: { Cookie: young.header } })).status).toBe(200);
    const refused = await request(server.url("/admin"), { headers: { Cookie: old.header } });
    expect(refused.status).toBe(302);
    expect(refused.headers.location).toBe("/auth?redirectTo=%2Fadmin");
    // The cookie is cleared and the row is gone: the session cannot come back.
    expect(refused.cookies.find((cookie) => cookie.startsWith("vitrine.session_token="))).toMatch(/Max-Age=0/);
    const tokens = await database.db.selectFrom("session").select("token").where("userId", "=", admin.id).execute();
    expect(tokens.map((row) => row.token)).toEqual([young.token]);

    // A password change (the command line; the account page will use the same service) ends every session.
    const signedIn = await postForm(server, "/auth", {
      intent: "sign-in",
      email: admin.email,
      password: admin.password,
    });
    expect(signedIn.status).toBe(302);
    const formCookie = cookiePair(sessionCookie(signedIn) ?? "");
    expect((await request(server.url("/admin"), { headers: { Cookie: formCookie } })).status).toBe(200);
    const passwordFile = path.join(database.location.dataDir, "new-password.txt");
    const newPassword = strongPassword();
    fs.writeFileSync(passwordFile, `${newPassword}\n`);
    const changed = await run(
      "sh",
      ["-c", `npm run --silent cli -- users set-password "${admin.email}" < "${passwordFile}"`],
      cleanEnv({ DATA_DIR: database.location.dataDir, DATABASE_URL: database.location.databaseUrl }),
      90_000,
    );
    expect(changed.stderr).toContain("2 sessions ended");
    expect(changed.code).toBe(0);
    for (const cookie of [young.header, formCookie]) {
      const after = await request(server.url("/admin"), { headers: { Cookie: cookie } });
      expect(after.status).toBe(302);
    }
    expect(await database.db.selectFrom("session").select("id").execute()).toEqual([]);
    // The old password no longer signs in; the new one does.
    const oldPassword = await postForm(server, "/auth", {
      intent: "sign-in",
      email: admin.email,
      password: admin.password,
    });
    expect(oldPassword.status).toBe(400);
    const newOne = await postForm(server, "/auth", { intent: "sign-in", email: admin.email, password: newPassword });
    expect(newOne.status).toBe(302);

    // A password the policy refuses changes nothing, with a clear message.
    fs.writeFileSync(passwordFile, "short\n");
    const refusedChange = await run(
      "sh",
      ["-c", `npm run --silent cli -- users set-password "${admin.email}" < "${passwordFile}"`],
      cleanEnv({ DATA_DIR: database.location.dataDir, DATABASE_URL: database.location.databaseUrl }),
      90_000,
    );
    expect(refusedChange.code).toBe(1);
    expect(refusedChange.stderr).toContain("The new password is too short: at least 10 characters.");
    expect((await database.db.selectFrom("session").select("id").execute()).length).toBe(1);
  }, 180_000);
});
