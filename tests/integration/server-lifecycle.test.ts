import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { findInviteCode } from "#app/domains/invites/invites.server.ts";
import { currentYear, withBrandValues } from "#app/domains/settings/brand.ts";
import { isVisitorSetting } from "#app/domains/settings/setting-registry.ts";
import { settingDefaults } from "#app/domains/settings/settings-defaults.ts";
import { startServerOn } from "#tests/support/admin-server.ts";
import { expectErrorLog } from "#tests/support/error-logs.ts";
import { createInvite, createUser, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import {
  cleanEnv,
  cookiePair,
  postForm,
  request,
  run,
  type ServerProcess,
  sessionCookie,
} from "#tests/support/server-process.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

const CODE = /^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/;

/** Databases and servers of the running test, cleaned up whatever happens. */
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function emptyDatabase(kind: TestDatabase["kind"]): Promise<TestDatabase> {
  // Not migrated: the server's first start must create the schema itself.
  const database = await createTestDatabase(kind, { migrate: false });
  cleanup.push(() => database.destroy());
  return database;
}

function start(database: TestDatabase, env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServerOn(database, cleanup, env);
}

async function settingsOf(server: ServerProcess): Promise<Record<string, string>> {
  const rows = JSON.parse((await request(server.url("/api/settings"))).body) as { key: string; value: string }[];
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

describe.each(databaseKinds)("starting and stopping the server (%s)", (kind) => {
  it("migrates an empty database, prints the admin setup code until it is used, and keeps what the admin changed", async () => {
    const database = await emptyDatabase(kind);

    // First start: schema, defaults and the one-time admin code.
    const first = await start(database);
    const [code, ...more] = first.adminSetupCodes();
    expect(more).toEqual([]);
    expect(code).toMatch(CODE);
    // Stored as shipped; the API gives them as the pages show them (the brand texts made from the site name).
    const stored = await database.db.selectFrom("site_settings").select(["key", "value"]).execute();
    expect(Object.fromEntries(stored.map((row) => [row.key, row.value]))).toEqual(settingDefaults);
    expect(await settingsOf(first)).toEqual(
      Object.fromEntries(
        Object.entries(withBrandValues(settingDefaults, currentYear())).filter(([key]) => isVisitorSetting(key)),
      ),
    );
    expect(await first.stop()).toBe(0);

    // The admin changes settings; an upgrade brings a key this database does not have yet.
    await database.db
      .updateTable("site_settings")
      .set({ value: "Jo's corner" })
      .where("key", "=", "site_name")
      .execute();
    await database.db.updateTable("site_settings").set({ value: "" }).where("key", "=", "home_subtitle").execute();
    await database.db.deleteFrom("site_settings").where("key", "=", "video_page_title_de").execute();
    const before = await database.db.selectFrom("site_settings").selectAll().orderBy("key").execute();

    // Second start: the same code again, the admin's changes untouched, the missing key back.
    const second = await start(database);
    expect(second.adminSetupCodes()).toEqual([code]);
    const settings = await settingsOf(second);
    expect(settings.site_name).toBe("Jo's corner");
    expect(settings.home_subtitle).toBe("");
    expect(settings.video_page_title_de).toBe(settingDefaults.video_page_title_de);
    const after = await database.db.selectFrom("site_settings").selectAll().orderBy("key").execute();
    expect(after.filter((row) => row.key !== "video_page_title_de")).toEqual(before);
    const adminCodes = await database.db
      .selectFrom("invite_codes")
      .select("code")
      .where("grants_role", "=", "admin")
      .execute();
    expect(adminCodes).toEqual([{ code }]);

    // The owner signs up with the code and signs in.
    const email = uniqueEmail("owner");
    const password = strongPassword();
    const signUp = await postForm(second, "/auth", { intent: "sign-up", email, password, inviteCode: code ?? "" });
    expect(signUp.status).toBe(200);
    const signIn = await postForm(second, "/auth", { intent: "sign-in", email, password });
    const cookie = cookiePair(sessionCookie(signIn) ?? "");
    expect(cookie).not.toBe("");
    expect((await request(second.url("/admin"), { headers: { Cookie: cookie } })).status).toBe(200);
    expect(await second.stop()).toBe(0);

    // Third start: an admin exists, so no code; the session survives the restart.
    const third = await start(database);
    expect(third.adminSetupCodes()).toEqual([]);
    expect(third.stdout).not.toContain("Admin setup code");
    const admin = await request(third.url("/admin"), { headers: { Cookie: cookie } });
    expect(admin.status).toBe(200);
    expect(admin.body).toContain(email);
    expect(await third.stop()).toBe(0);
  }, 90_000);

  it("ends a fresh start with the address and then the admin setup code, the two lines the owner needs", async () => {
    const database = await emptyDatabase(kind);
    const server = await start(database);
    await server.waitForOutput(/^Admin setup code: /m, 5000);
    // What the server printed while starting: the request lines of the test's own requests are not part of it.
    const lines = (await server.writtenStdout())
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.includes('"msg":"request"'));
    const [address, code] = lines.slice(-2);
    expect(JSON.parse(address ?? "{}")).toMatchObject({ msg: expect.stringMatching(/^Vitrine is running on http:/) });
    expect(code).toMatch(/^Admin setup code: [A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    server.adminSetupCodes();
    expect(server.stderr).toBe("");
    expect(await server.stop()).toBe(0);
  });

  it("renders pages with the default settings, and logs why, when the settings cannot be read", async () => {
    expectErrorLog('"msg":"Could not read site settings; using defaults."');
    const database = await createTestDatabase(kind);
    cleanup.push(() => database.destroy());
    const server = await start(database);
    await database.db
      .updateTable("site_settings")
      .set({ value: "Jo's corner" })
      .where("key", "=", "site_name")
      .execute();
    // Another process's write: on PostgreSQL the server hears of it by NOTIFY, a moment later.
    let first = await request(server.url("/"));
    for (let tries = 0; tries < 50 && !first.body.includes("<title>Jo&#x27;s corner</title>"); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      first = await request(server.url("/"));
    }
    expect(first.body).toContain("<title>Jo&#x27;s corner</title>");

    await database.db.schema.alterTable("site_settings").renameTo("site_settings_lost").execute();
    // PostgreSQL announces no schema change; announce it as another process's write would be. Until the server
    // hears it, it may still show the settings and pages it kept (the last good ones, fine while broken).
    if (kind === "postgres") await sql`NOTIFY vitrine_changes`.execute(database.db);
    let fallbackPath = "/?page=1";
    try {
      // A page not rendered before.
      let page = await request(server.url(fallbackPath));
      for (let tries = 0; kind === "postgres" && tries < 50 && !page.body.includes("<title>Vitrine</title>"); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        fallbackPath = `/?page=1&try=${tries}`;
        page = await request(server.url(fallbackPath));
      }
      expect(page.status).toBe(200);
      expect(page.body).toContain("<title>Vitrine</title>");
      expect(page.body).toContain(`© ${new Date().getUTCFullYear()} Vitrine`);
      const api = await request(server.url("/api/settings"));
      expect(api.status).toBe(200);
      expect(JSON.parse(api.body)).toContainEqual({ key: "site_name", value: "Vitrine" });
      await server.waitForOutput("Could not read site settings", 3000);
    } finally {
      await database.db.schema.alterTable("site_settings_lost").renameTo("site_settings").execute();
    }
    // What was rendered from the defaults was not kept: once the settings can be read, they show again. (Asked
    // again for a moment on a busy machine: a kept page would come back every time, for ten minutes.)
    let restored = await request(server.url(fallbackPath));
    for (let tries = 0; tries < 30 && !restored.body.includes("Jo&#x27;s corner"); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      restored = await request(server.url(fallbackPath));
    }
    expect(restored.body).toContain("<title>Jo&#x27;s corner</title>");
  });

  it("finishes a request in flight on SIGTERM, refuses new ones, then exits with 0", async () => {
    const database = await emptyDatabase(kind);
    const server = await start(database);
    const [code = ""] = server.adminSetupCodes();
    const email = uniqueEmail("late");
    const body = new URLSearchParams({
      intent: "sign-up",
      email,
      password: strongPassword(),
      inviteCode: code,
    }).toString();

    // A sign-up whose body is still arriving when the signal comes.
    const socket = net.connect(server.port, "127.0.0.1");
    let raw = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      raw += chunk;
    });
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write(
      [
        "POST /auth HTTP/1.1",
        `Host: 127.0.0.1:${server.port}`,
        `Origin: ${server.origin}`,
        "Content-Type: application/x-www-form-urlencoded",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "Connection: close",
        "",
        body.slice(0, 10),
      ].join("\r\n"),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));

    server.child.kill("SIGTERM");
    await server.waitForOutput("SIGTERM received");

    // No longer accepting…
    await expect(request(server.url("/"))).rejects.toThrow(/ECONNREFUSED|ECONNRESET/);
    expect(server.child.exitCode).toBeNull();
    // …but the request in flight completes.
    // Written, not ended: a half-closed connection is an aborted request to Node's HTTP server.
    socket.write(body.slice(10));
    await closed;
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    expect(raw).toContain("Account created successfully");

    const exit = await server.exited;
    expect(exit.code).toBe(0);
    expect(server.stderr).toBe("");
    expect((await findInviteCode(database.db, code))?.isUsed).toBe(true);
    expect(await database.db.selectFrom("user").select("email").execute()).toEqual([{ email }]);
  });
});

describe("a bad environment", () => {
  let dataDir = "";
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-env-"));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    ["PORT", "abc"],
    ["DATABASE_URL", "mysql://root@localhost/site"],
    ["BASE_URL", "example.com"],
    ["LOG_LEVEL", "loud"],
  ])("stops the start with a non-zero exit and one line naming %s", async (name, value) => {
    const result = await run(
      process.execPath,
      ["server.js"],
      cleanEnv({ NODE_ENV: "production", DATA_DIR: dataDir, PORT: "0", [name]: value }),
      20_000,
    );

    expect(result.code).not.toBe(0);
    const lines = result.stderr.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(result.stdout).not.toContain("running on");
  });
});

describe("too many failed attempts", () => {
  it("slows down repeated failures from one address with 'Too many attempts'", async () => {
    const database = await createTestDatabase("sqlite");
    cleanup.push(() => database.destroy());
    const server = await start(database, { AUTH_MAX_FAILED_ATTEMPTS: "3" });
    const user = await createUser(database.db);
    const signIn = (password: string, localAddress: string) =>
      postForm(server, "/auth", { intent: "sign-in", email: user.email, password }, { localAddress });

    for (let attempt = 0; attempt < 3; attempt++) {
      const failed = await signIn("wrong-password-123", "127.0.0.2");
      expect(failed.status).toBe(400);
      expect(failed.body).toContain("Sign in failed");
    }
    const limited = await signIn("wrong-password-123", "127.0.0.2");
    expect(limited.status).toBe(429);
    expect(limited.body).toContain("Too many attempts");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // Even the right password waits now.
    const stillLimited = await signIn(user.password, "127.0.0.2");
    expect(stillLimited.status).toBe(429);
    expect(sessionCookie(stillLimited)).toBeUndefined();

    // Another address is not affected.
    const other = await signIn(user.password, "127.0.0.3");
    expect(other.status).toBe(302);

    // Guessing invite codes counts too, and the limit holds back a valid code afterwards.
    const code = await createInvite(database.db);
    const signUp = (inviteCode: string) =>
      postForm(
        server,
        "/auth",
        { intent: "sign-up", email: uniqueEmail(), password: strongPassword(), inviteCode },
        { localAddress: "127.0.0.4" },
      );
    for (let attempt = 0; attempt < 3; attempt++) expect((await signUp("ABCD-EFGH-JKMN-PQRS")).status).toBe(400);
    const blocked = await signUp(code);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toContain("Too many attempts");
    expect((await findInviteCode(database.db, code))?.isUsed).toBe(false);

    // Sent all at once, wrong passwords still get no more than the limit's worth of checks.
    const burst = await Promise.all(Array.from({ length: 12 }, () => signIn("wrong-password-123", "127.0.0.5")));
    expect(burst.filter((response) => response.status === 400)).toHaveLength(3);
    expect(burst.filter((response) => response.status === 429)).toHaveLength(9);

    // A successful sign-in in between does not wipe the address's earlier failures.
    for (let attempt = 0; attempt < 2; attempt++)
      expect((await signIn("wrong-password-123", "127.0.0.6")).status).toBe(400);
    expect((await signIn(user.password, "127.0.0.6")).status).toBe(302);
    expect((await signIn("wrong-password-123", "127.0.0.6")).status).toBe(400);
    expect((await signIn("wrong-password-123", "127.0.0.6")).status).toBe(429);
  });
});
