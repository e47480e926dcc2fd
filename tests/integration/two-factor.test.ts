import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FREE_FAILURES } from "#app/auth/account-throttle.server.ts";
import { toBoolean } from "#app/db/values.ts";
import { adminPaths } from "#tests/support/admin-routes.ts";
import {
  cookieFor,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
  visibleText,
} from "#tests/support/admin-server.ts";
import { type CreatedUser, createUser } from "#tests/support/factories.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import {
  cleanEnv,
  cookiePair,
  type HttpResponse,
  postForm,
  request,
  run,
  type ServerProcess,
  sessionCookie,
} from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

// Password hashing and TOTP checks on a busy machine, many of them per test.
vi.setConfig({ testTimeout: 120_000 });

const PERIOD_MS = 30_000;
/** The per-address limit of the server under test: small, so the test reaches it quickly. */
const ADDRESS_LIMIT = 3;

let nextAddress = 10;
/** A client address of its own for each sign-in story, so that the per-address limit of one does not touch another. */
function freshAddress(): string {
  nextAddress += 1;
  return `127.0.3.${nextAddress}`;
}

/** The code an authenticator app shows for the secret, `steps` time steps away from now (the test's own TOTP). */
function codeFor(secret: string, steps = 0): string {
  const totp = new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
    digits: 6,
    period: 30,
    algorithm: "SHA1",
  });
  return totp.generate({ timestamp: Date.now() + steps * PERIOD_MS });
}

/** Waits out the last seconds of a time step, so that a code computed now is checked in the same step. */
async function awayFromStepEdge(): Promise<void> {
  const left = PERIOD_MS - (Date.now() % PERIOD_MS);
  if (left < 4000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

function decode(html: string): string {
  return html.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#x27;", "'");
}

/** Cookie pairs a response sets with a value (not the ones it clears). */
function setCookies(response: HttpResponse): string[] {
  return response.cookies.map(cookiePair).filter((pair) => !/=$/.test(pair));
}

async function sessionCount(database: TestDatabase, userId: string): Promise<number> {
  const rows = await database.db.selectFrom("session").select("id").where("userId", "=", userId).execute();
  return rows.length;
}

describe.each(databaseKinds)("two-factor sign-in over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind, {
      AUTH_MAX_FAILED_ATTEMPTS: String(ADDRESS_LIMIT),
    }));
  });
  afterAll(async () => {
    await stopServerAndDatabase(server, database);
  });

  /** Turns 2FA on through /account/two-factor as the user would; returns the secret and the recovery codes shown. */
  async function enrol(user: CreatedUser): Promise<{ secret: string; codes: string[]; cookie: string }> {
    let cookie = await cookieFor(database, user);
    const page = await request(server.url("/account/two-factor"), { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(visibleText(page.body)).toContain("Two-factor sign-in is off.");

    const wrongPassword = await postForm(
      server,
      "/account/two-factor",
      { intent: "start", password: "not-it-at-all" },
      { cookie, localAddress: freshAddress() },
    );
    expect(wrongPassword.status).toBe(400);
    expect(visibleText(wrongPassword.body)).toContain("The password is not right.");

    const started = await postForm(
      server,
      "/account/two-factor",
      { intent: "start", password: user.password },
      { cookie },
    );
    expect(started.status).toBe(200);
    const secretText = /data-testid="totp-secret"[^>]*>([^<]+)</.exec(started.body)?.[1] ?? "";
    const secret = secretText.replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
    noteSecret(secret);
    // The QR code is drawn here, as SVG, from the otpauth:// URI with the site's name as issuer.
    expect(started.body).toMatch(/<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const uri = decode(/name="uri" value="([^"]+)"/.exec(started.body)?.[1] ?? "");
    expect(uri).toMatch(/^otpauth:\/\/totp\/Vitrine:/);
    expect(new URL(uri).searchParams.get("issuer")).toBe("Vitrine");
    expect(new URL(uri).searchParams.get("secret")).toBe(secret);
    noteSecret(uri);
    // Not on yet: the first code confirms it.
    expect(await twoFactorEnabled(user)).toBe(false);

    const wrongCode = await postForm(
      server,
      "/account/two-factor",
      { intent: "confirm", uri, code: codeFor(secret, 3) },
      { cookie },
    );
    expect(wrongCode.status).toBe(400);
    expect(visibleText(wrongCode.body)).toContain("The code is not right.");
    expect(await twoFactorEnabled(user)).toBe(false);

    await awayFromStepEdge();
    const confirmed = await postForm(
      server,
      "/account/two-factor",
      { intent: "confirm", uri, code: codeFor(secret) },
      { cookie },
    );
    expect(confirmed.status).toBe(200);
    const list = /data-testid="recovery-codes"[^>]*>([\s\S]*?)<\/ul>/.exec(confirmed.body)?.[1] ?? "";
    const codes = [...list.matchAll(/<li>([^<]+)<\/li>/g)].map((match) => match[1] ?? "");
    for (const code of codes) noteSecret(code);
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await twoFactorEnabled(user)).toBe(true);
    // better-auth renews the session when 2FA changes: the page hands over the new cookie.
    const renewed = sessionCookie(confirmed);
    expect(renewed).toBeDefined();
    cookie = cookiePair(renewed ?? "");

    // Stored: the secret encrypted, the recovery codes only as SHA-256 hashes.
    const row = await database.db
      .selectFrom("twoFactor")
      .selectAll()
      .where("userId", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(secret);
    const stored = JSON.parse(row.backupCodes) as string[];
    expect(stored).toHaveLength(10);
    for (const hash of stored) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    for (const code of codes) expect(row.backupCodes).not.toContain(code);

    const after = await request(server.url("/account/two-factor"), { headers: { Cookie: cookie } });
    expect(visibleText(after.body)).toContain("Two-factor sign-in is on. Recovery codes left: 10 of 10.");
    return { secret, codes, cookie };
  }

  async function twoFactorEnabled(user: CreatedUser): Promise<boolean> {
    const row = await database.db
      .selectFrom("user")
      .select("twoFactorEnabled")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    return row.twoFactorEnabled != null && toBoolean(row.twoFactorEnabled);
  }

  /** The password step: for an account with 2FA it answers with the second step and its pending-sign-in cookie. */
  async function passwordStep(user: CreatedUser, localAddress: string): Promise<string> {
    const sessionsBefore = await sessionCount(database, user.id);
    const answer = await postForm(
      server,
      "/auth",
      { intent: "sign-in", email: user.email, password: user.password, redirectTo: "/account" },
      { localAddress },
    );
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe("/auth/two-factor?redirectTo=%2Faccount");
    expect(sessionCookie(answer)).toBeUndefined();
    // No session exists until the second step succeeds.
    expect(await sessionCount(database, user.id)).toBe(sessionsBefore);
    const pending = setCookies(answer).join("; ");
    expect(pending).toMatch(/^vitrine\.two_factor=/);
    noteSecret(pending.split("=")[1]);
    return pending;
  }

  function secondStep(pending: string, intent: "totp" | "recovery", code: string, localAddress: string) {
    return postForm(
      server,
      "/auth/two-factor",
      { intent, code, redirectTo: "/account" },
      { cookie: pending, localAddress },
    );
  }

  function expectSignedIn(answer: HttpResponse) {
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe("/account");
    expect(sessionCookie(answer)).toBeDefined();
  }

  it("turns on with a code computed from the shown secret; signing in then needs the second step", async () => {
    const user = await createUser(database.db);
    const { secret } = await enrol(user);
    const address = freshAddress();

    // Without the pending sign-in there is nothing to complete.
    const page = await request(server.url("/auth/two-factor"));
    expect(visibleText(page.body)).toContain("Your sign-in has expired");

    const pending = await passwordStep(user, address);
    const step = await request(server.url("/auth/two-factor?redirectTo=%2Faccount"), { headers: { Cookie: pending } });
    expect(step.status).toBe(200);
    expect(visibleText(step.body)).toContain("Code from the app");

    const sessionsBefore = await sessionCount(database, user.id);
    const malformed = await secondStep(pending, "totp", "12345", address);
    expect(malformed.status).toBe(400);
    expect(visibleText(malformed.body)).toContain("Enter the 6 digits your app shows.");
    await awayFromStepEdge();
    const signedIn = await secondStep(pending, "totp", codeFor(secret), address);
    expectSignedIn(signedIn);
    expect(await sessionCount(database, user.id)).toBe(sessionsBefore + 1);
    const account = await request(server.url("/account/two-factor"), {
      headers: { Cookie: cookiePair(sessionCookie(signedIn) ?? "") },
    });
    expect(account.status).toBe(200);

    // The pending sign-in is used up: the same cookie cannot make a second session.
    await awayFromStepEdge();
    const again = await secondStep(pending, "totp", codeFor(secret), address);
    expect(again.status).toBe(400);
    expect(sessionCookie(again)).toBeUndefined();
  });

  it("accepts codes one time step off (clock drift) and refuses codes two steps off", async () => {
    const user = await createUser(database.db);
    const { secret } = await enrol(user);
    for (const steps of [-1, 1]) {
      const address = freshAddress();
      const pending = await passwordStep(user, address);
      await awayFromStepEdge();
      expectSignedIn(await secondStep(pending, "totp", codeFor(secret, steps), address));
    }
    for (const steps of [-2, 2]) {
      const address = freshAddress();
      const pending = await passwordStep(user, address);
      await awayFromStepEdge();
      const refused = await secondStep(pending, "totp", codeFor(secret, steps), address);
      expect(refused.status).toBe(400);
      expect(visibleText(refused.body)).toContain("The code is not right.");
      expect(sessionCookie(refused)).toBeUndefined();
      // The right code still works on the same pending sign-in.
      await awayFromStepEdge();
      expectSignedIn(await secondStep(pending, "totp", codeFor(secret), address));
    }
  });

  it("signs in once with each recovery code, typed loosely, and counts down what is left", async () => {
    const user = await createUser(database.db);
    const { codes } = await enrol(user);
    const [first = "", second = ""] = codes;
    const address = freshAddress();

    let pending = await passwordStep(user, address);
    const signedIn = await secondStep(pending, "recovery", ` ${first.toUpperCase().replace("-", " ")} `, address);
    expectSignedIn(signedIn);

    pending = await passwordStep(user, address);
    const reused = await secondStep(pending, "recovery", first, address);
    expect(reused.status).toBe(400);
    expect(visibleText(reused.body)).toContain("This recovery code is not right or has been used already.");
    expect(sessionCookie(reused)).toBeUndefined();
    expectSignedIn(await secondStep(pending, "recovery", second, address));

    // The stored hash itself is no code.
    const row = await database.db
      .selectFrom("twoFactor")
      .select("backupCodes")
      .where("userId", "=", user.id)
      .executeTakeFirstOrThrow();
    const hashes = JSON.parse(row.backupCodes) as string[];
    expect(hashes).toHaveLength(8);
    pending = await passwordStep(user, address);
    expect((await secondStep(pending, "recovery", hashes[0] ?? "", address)).status).toBe(400);

    const page = await request(server.url("/account/two-factor"), {
      headers: { Cookie: await cookieFor(database, user) },
    });
    expect(visibleText(page.body)).toContain("Recovery codes left: 8 of 10.");
  });

  it("counts wrong codes towards the per-address limit: Too many attempts, and then not even the right code is checked", async () => {
    const user = await createUser(database.db);
    const { secret } = await enrol(user);
    const address = freshAddress();
    const pending = await passwordStep(user, address);
    const answers: HttpResponse[] = [];
    for (let attempt = 0; attempt < ADDRESS_LIMIT + 1; attempt++) {
      answers.push(await secondStep(pending, "totp", codeFor(secret, 5 + attempt), address));
    }
    const limited = answers.find((answer) => answer.status === 429);
    expect(limited).toBeDefined();
    expect(visibleText(limited?.body ?? "")).toContain("Too many attempts");
    expect(Number(limited?.headers["retry-after"])).toBeGreaterThan(0);
    await awayFromStepEdge();
    const right = await secondStep(pending, "totp", codeFor(secret), address);
    expect(right.status).toBe(429);
    expect(sessionCookie(right)).toBeUndefined();
  });

  it("counts wrong codes towards the account's own limit, from many addresses", async () => {
    const user = await createUser(database.db);
    const { secret } = await enrol(user);
    let limited: HttpResponse | undefined;
    // Each address makes one password step and one wrong code; the account's count (the right password included,
    // until a second step succeeds) still adds up, and then the account waits whichever address asks.
    for (let round = 0; round < FREE_FAILURES + 2 && !limited; round++) {
      const address = freshAddress();
      const password = await postForm(
        server,
        "/auth",
        { intent: "sign-in", email: user.email, password: user.password },
        { localAddress: address },
      );
      if (password.status === 429) {
        limited = password;
        break;
      }
      expect(password.status).toBe(302);
      const pending = setCookies(password).join("; ");
      noteSecret(pending.split("=")[1]);
      const code = await secondStep(pending, "totp", codeFor(secret, 7), address);
      if (code.status === 429) limited = code;
      else expect(code.status).toBe(400);
    }
    expect(limited).toBeDefined();
    expect(visibleText(limited?.body ?? "")).toContain("Too many attempts");
    expect(visibleText(limited?.body ?? "")).toContain("Too many failed sign-ins for this account");
    expect(await sessionCount(database, user.id)).toBe(1);
  });

  it("with the setting on, sends an admin without 2FA to set it up before any admin page or action", async () => {
    const admin = await createUser(database.db, { admin: true });
    const cookie = await cookieFor(database, admin);

    // Off (the default): the dashboard recommends it.
    const dashboard = await request(server.url("/admin"), { headers: { Cookie: cookie } });
    expect(dashboard.status).toBe(200);
    expect(visibleText(dashboard.body)).toContain("Recommended: require two-factor sign-in for admins");
    expect(visibleText(dashboard.body)).toContain(`Admins without two-factor sign-in: `);

    await database.db
      .insertInto("site_settings")
      .values({ key: "admin_require_two_factor", value: "true" })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: "true" }))
      .execute();
    try {
      const page = await request(server.url("/admin/settings"), { headers: { Cookie: cookie } });
      expect(page.status).toBe(302);
      expect(page.headers.location).toBe("/account/two-factor?required=admin");
      const data = await request(server.url("/admin.data"), { headers: { Cookie: cookie } });
      expect(data.body).toContain("/account/two-factor?required=admin");
      // Every admin route, read from app/routes.ts: none opens (or answers anything else) before 2FA is set up.
      for (const pathname of adminPaths()) {
        const answer = await request(server.url(pathname), { headers: { Cookie: cookie } });
        expect([answer.status, answer.headers.location], pathname).toEqual([302, "/account/two-factor?required=admin"]);
      }

      const before = await database.db
        .selectFrom("site_settings")
        .select("value")
        .where("key", "=", "site_name")
        .executeTakeFirst();
      const write = await postForm(server, "/admin/settings", { intent: "save", site_name: "Taken over" }, { cookie });
      expect(write.status).toBe(302);
      expect(write.headers.location).toBe("/account/two-factor?required=admin");
      const after = await database.db
        .selectFrom("site_settings")
        .select("value")
        .where("key", "=", "site_name")
        .executeTakeFirst();
      expect(after).toEqual(before);

      const explained = await request(server.url("/account/two-factor?required=admin"), {
        headers: { Cookie: cookie },
      });
      expect(visibleText(explained.body)).toContain("This site requires two-factor sign-in for admins.");

      // Once 2FA is on, the admin area opens again.
      const { cookie: renewed } = await enrol(admin);
      const open = await request(server.url("/admin"), { headers: { Cookie: renewed } });
      expect(open.status).toBe(200);
      expect(visibleText(open.body)).toContain("Admins must use two-factor sign-in.");
    } finally {
      await database.db
        .updateTable("site_settings")
        .set({ value: "false" })
        .where("key", "=", "admin_require_two_factor")
        .execute();
    }
  });

  it("regenerates recovery codes and turns off with the password, each audited without secrets", async () => {
    const user = await createUser(database.db);
    const { codes, cookie } = await enrol(user);

    const wrong = await postForm(
      server,
      "/account/two-factor",
      { intent: "regenerate", password: "wrong-password-here" },
      { cookie, localAddress: freshAddress() },
    );
    expect(wrong.status).toBe(400);
    const regenerated = await postForm(
      server,
      "/account/two-factor",
      { intent: "regenerate", password: user.password },
      { cookie },
    );
    expect(regenerated.status).toBe(200);
    const list = /data-testid="recovery-codes"[^>]*>([\s\S]*?)<\/ul>/.exec(regenerated.body)?.[1] ?? "";
    const fresh = [...list.matchAll(/<li>([^<]+)<\/li>/g)].map((match) => match[1] ?? "");
    for (const code of fresh) noteSecret(code);
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => codes.includes(code))).toBe(false);

    // An old code no longer works; a new one does.
    const address = freshAddress();
    let pending = await passwordStep(user, address);
    expect((await secondStep(pending, "recovery", codes[0] ?? "", address)).status).toBe(400);
    expectSignedIn(await secondStep(pending, "recovery", fresh[0] ?? "", address));

    const off = await postForm(
      server,
      "/account/two-factor",
      { intent: "disable", password: user.password },
      { cookie },
    );
    expect(off.status).toBe(200);
    expect(await twoFactorEnabled(user)).toBe(false);
    expect(await database.db.selectFrom("twoFactor").select("id").where("userId", "=", user.id).execute()).toEqual([]);
    pending = "";
    const plain = await postForm(
      server,
      "/auth",
      { intent: "sign-in", email: user.email, password: user.password },
      { localAddress: address },
    );
    expect(plain.status).toBe(302);
    expect(plain.headers.location).toBe("/");
    expect(sessionCookie(plain)).toBeDefined();

    const audit = await database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("actor_id", "=", user.id)
      .orderBy("id")
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual([
      "account.two-factor-on",
      "account.recovery-codes-new",
      "account.two-factor-off",
    ]);
    const recorded = JSON.stringify(audit);
    for (const code of [...codes, ...fresh]) expect(recorded).not.toContain(code);
    void pending;
  });

  it("refuses a form that is not one with a 400 and changes nothing", async () => {
    const user = await createUser(database.db);
    const cookie = await cookieFor(database, user);
    const bad = await postForm(server, "/account/two-factor", { intent: "explode" }, { cookie });
    expect(bad.status).toBe(400);
    const badStep = await postForm(server, "/auth/two-factor", { intent: "sms", code: "1" });
    expect(badStep.status).toBe(400);
    expect(await twoFactorEnabled(user)).toBe(false);
  });

  it("resets 2FA from the command line, audited", async () => {
    const user = await createUser(database.db);
    const { secret } = await enrol(user);
    const result = await run(
      "npm",
      ["run", "cli", "--", "users", "reset-2fa", user.email.toUpperCase()],
      cleanEnv({ DATA_DIR: database.location.dataDir, DATABASE_URL: database.location.databaseUrl }),
      90_000,
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("is off; its secret and recovery codes are removed");
    expect(result.stdout + result.stderr).not.toContain(secret);
    expect(await twoFactorEnabled(user)).toBe(false);
    expect(await database.db.selectFrom("twoFactor").select("id").where("userId", "=", user.id).execute()).toEqual([]);
    const [entry] = await database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "users.two-factor-reset")
      .where("target", "=", user.email)
      .execute();
    expect(entry).toMatchObject({ actor_id: "cli", actor_email: "command line", old_value: null, new_value: null });

    // The password alone signs in again.
    const plain = await postForm(
      server,
      "/auth",
      { intent: "sign-in", email: user.email, password: user.password },
      { localAddress: freshAddress() },
    );
    expect(plain.status).toBe(302);
    expect(plain.headers.location).toBe("/");

    const unknown = await run(
      "npm",
      ["run", "cli", "--", "users", "reset-2fa", "nobody@example.test"],
      cleanEnv({ DATA_DIR: database.location.dataDir, DATABASE_URL: database.location.databaseUrl }),
      90_000,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No account with that e-mail address.");
  });
});
