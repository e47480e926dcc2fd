import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listInvites } from "#app/domains/invites/invite-admin.server.ts";
import { accountAndAuthPaths } from "#tests/support/admin-routes.ts";
import { createInvite, createUser, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import {
  cookiePair,
  type HttpResponse,
  request,
  type ServerProcess,
  sessionCookie,
  startServer,
} from "#tests/support/server-process.ts";
import { readNewestOutboxMail } from "#tests/support/smtp-server.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/** The account pages over real HTTP: /account (password, mail language, deletion) and /account/sessions. */

const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const CHROME_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

// Each test's requests come from addresses of their own, so that the per-address limit of one test (3 failures
// here) never refuses another's.
let nextAddress = 1;
function freshAddress(): string {
  const n = nextAddress++;
  return `127.0.${40 + Math.floor(n / 200)}.${(n % 200) + 1}`;
}

describe.each(databaseKinds)("the account pages (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startServer({
      dataDir: database.location.dataDir,
      databaseUrl: database.location.databaseUrl,
      env: { AUTH_MAX_FAILED_ATTEMPTS: "3" },
    });
  });

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await database?.destroy();
  });

  type Client = { cookie?: string; userAgent?: string; localAddress?: string; headers?: Record<string, string> };

  function post(pathname: string, fields: Record<string, string>, client: Client = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: server.origin,
      ...(client.cookie ? { Cookie: client.cookie } : {}),
      ...(client.userAgent ? { "User-Agent": client.userAgent } : {}),
      ...client.headers,
    };
    return request(server.url(pathname), {
      method: "POST",
      headers,
      body: new URLSearchParams(fields).toString(),
      localAddress: client.localAddress,
    });
  }

  function get(pathname: string, cookie?: string): Promise<HttpResponse> {
    return request(server.url(pathname), { headers: cookie ? { Cookie: cookie } : {} });
  }

  /** Signs in through the form; returns the `name=value` of the session cookie. */
  async function signIn(email: string, password: string, client: Client = {}): Promise<string> {
    const response = await post("/auth", { intent: "sign-in", email, password }, client);
    expect(response.status, response.body).toBe(302);
    const cookie = sessionCookie(response);
    if (!cookie) throw new Error("No session cookie");
    return cookiePair(cookie);
  }

  async function isSignedIn(cookie: string): Promise<boolean> {
    const response = await get("/account", cookie);
    if (response.status === 200) return true;
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe("/auth?redirectTo=%2Faccount");
    return false;
  }

  async function sessionRows(userId: string) {
    return database.db
      .selectFrom("session")
      .select(["id", "userAgent", "ipAddress"])
      .where("userId", "=", userId)
      .execute();
  }

  async function passwordHash(userId: string) {
    const row = await database.db
      .selectFrom("account")
      .select("password")
      .where("userId", "=", userId)
      .executeTakeFirstOrThrow();
    return row.password;
  }

  async function auditOf(email: string) {
    return database.db
      .selectFrom("audit_log")
      .select(["actor_email", "action", "target", "old_value", "new_value"])
      .where("actor_email", "=", email)
      .orderBy("id")
      .execute();
  }

  it("sends visitors to sign in, from the pages and from their forms", async () => {
    const pages = accountAndAuthPaths().filter((path) => path === "/account" || path.startsWith("/account/"));
    expect(pages).toEqual(expect.arrayContaining(["/account", "/account/email", "/account/two-factor"]));
    // The e-mail confirmation link works without a session (it may be opened on another device).
    for (const pathname of pages.filter((path) => !path.startsWith("/account/confirm-email"))) {
      const response = await get(pathname);
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe(`/auth?redirectTo=${encodeURIComponent(pathname)}`);
    }
    const posted = await post("/account?index", { intent: "language", language: "de" });
    expect(posted.status).toBe(302);
    expect(posted.headers.location).toMatch(/^\/auth\?redirectTo=/);
    const ended = await post("/account/sessions", { intent: "signOutOthers" });
    expect(ended.status).toBe(302);
  });

  it("records the last sign-in and the language used to sign in and to sign up", async () => {
    const email = uniqueEmail();
    const password = strongPassword();
    const inviteCode = await createInvite(database.db);
    const signedUp = await post("/auth?lang=de", { intent: "sign-up", email, password, inviteCode });
    expect(signedUp.status, signedUp.body).toBe(200);
    const created = await database.db
      .selectFrom("user")
      .select(["id", "language", "lastSignInAt"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(created).toMatchObject({ language: "de", lastSignInAt: null });

    const before = Date.now();
    await signIn(email, password, { headers: { Cookie: "lang=en" } });
    const afterEnglish = await database.db
      .selectFrom("user")
      .select(["language", "lastSignInAt"])
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(afterEnglish.language).toBe("en");
    expect(new Date(afterEnglish.lastSignInAt ?? 0).getTime()).toBeGreaterThanOrEqual(before - 1000);

    const cookie = await signIn(email, password, { headers: { Cookie: "lang=de" } });
    const page = await get("/account", cookie);
    expect(page.status).toBe(200);
    expect(page.body).toContain("Last sign-in:");
    expect(
      (await database.db.selectFrom("user").select("language").where("id", "=", created.id).executeTakeFirstOrThrow())
        .language,
    ).toBe("de");
  });

  it("changes the mail language from the account page, audited, and refuses an unknown one", async () => {
    const user = await createUser(database.db);
    const cookie = await signIn(user.email, user.password, { localAddress: freshAddress() });
    const changed = await post("/account?index", { intent: "language", language: "de" }, { cookie });
    expect(changed.status).toBe(200);
    expect(changed.body).toContain("E-mails will reach you in German");
    const refused = await post("/account?index", { intent: "language", language: "fr" }, { cookie });
    expect(refused.status).toBe(400);
    const row = await database.db
      .selectFrom("user")
      .select("language")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.language).toBe("de");
    const page = await get("/account", cookie);
    expect(page.body).toMatch(/<option value="de" selected="">/);
    expect(await auditOf(user.email)).toEqual([
      expect.objectContaining({
        action: "account.changeLanguage",
        target: user.email,
        old_value: "en",
        new_value: "de",
      }),
    ]);
  });

  it("changes the password only with the right current one and a strong new one; other sessions end, this one goes on", async () => {
    const user = await createUser(database.db);
    const address = freshAddress();
    const here = await signIn(user.email, user.password, { localAddress: address, userAgent: CHROME_LINUX });
    const elsewhere = await signIn(user.email, user.password, { localAddress: freshAddress() });
    const hashBefore = await passwordHash(user.id);
    const newPassword = strongPassword();

    const wrong = await post(
      "/account?index",
      { intent: "password", currentPassword: "not-my-password-1", newPassword },
      { cookie: here, localAddress: address },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain("That is not your current password.");
    const weak = await post(
      "/account?index",
      { intent: "password", currentPassword: user.password, newPassword: "password123" },
      { cookie: here, localAddress: address },
    );
    expect(weak.status).toBe(400);
    expect(weak.body).toContain("The new password is too common or too easy to guess.");
    const short = await post(
      "/account?index",
      { intent: "password", currentPassword: user.password, newPassword: "short" },
      { cookie: here, localAddress: address },
    );
    expect(short.status).toBe(400);
    expect(short.body).toContain("at least 10 characters");
    const missing = await post(
      "/account?index",
      { intent: "password", newPassword },
      { cookie: here, localAddress: address },
    );
    expect(missing.status).toBe(400);
    // Nothing changed by any refusal: the same hash, both sessions alive.
    expect(await passwordHash(user.id)).toBe(hashBefore);
    expect(await sessionRows(user.id)).toHaveLength(2);

    const changed = await post(
      "/account?index",
      { intent: "password", currentPassword: user.password, newPassword },
      { cookie: here, localAddress: address, userAgent: CHROME_LINUX },
    );
    expect(changed.status, changed.body).toBe(200);
    expect(changed.body).toContain("Your password has been changed.");
    const fresh = sessionCookie(changed);
    expect(fresh).toMatch(/HttpOnly/i);
    const freshCookie = cookiePair(fresh ?? "");
    expect(freshCookie).not.toBe(here);

    // The old cookies (this one's too) are worthless; the fresh one is signed in, recorded like a sign-in.
    expect(await isSignedIn(elsewhere)).toBe(false);
    expect(await isSignedIn(here)).toBe(false);
    expect(await isSignedIn(freshCookie)).toBe(true);
    const rows = await sessionRows(user.id);
    expect(rows).toEqual([expect.objectContaining({ userAgent: CHROME_LINUX, ipAddress: address })]);
    // The new password signs in, the old one no longer does.
    await signIn(user.email, newPassword, { localAddress: freshAddress() });
    const old = await post(
      "/auth",
      { intent: "sign-in", email: user.email, password: user.password },
      { localAddress: freshAddress() },
    );
    expect(old.status).toBe(400);
    const audit = await auditOf(user.email);
    expect(audit).toEqual([expect.objectContaining({ action: "account.changePassword", target: user.email })]);
    expect(JSON.stringify(audit)).not.toContain(newPassword);
    // A notice reaches the account's address (the outbox here: no SMTP_URL), both parts, no password in it.
    const notice = await readNewestOutboxMail(database.db, (mail) => mail.to.includes(user.email));
    expect(notice.subject).toBe("Your password on Vitrine was changed");
    expect(notice.text).toContain(`The password of your account ${user.email} on Vitrine was changed`);
    expect(notice.html).toContain("Forgot password?");
    for (const secret of [newPassword, user.password]) {
      expect(notice.text).not.toContain(secret);
      expect(notice.html).not.toContain(secret);
    }
  });

  it("counts wrong current passwords toward the per-address limit: the page cannot be used to guess", async () => {
    const user = await createUser(database.db);
    const address = freshAddress();
    const cookie = await signIn(user.email, user.password, { localAddress: address });
    const newPassword = strongPassword();
    for (let attempt = 0; attempt < 3; attempt++) {
      const wrong = await post(
        "/account?index",
        { intent: "password", currentPassword: `wrong-password-${attempt}`, newPassword },
        { cookie, localAddress: address },
      );
      expect(wrong.status).toBe(400);
    }
    // The limit is reached: even the right password is not checked now, and the deletion form is limited too.
    const blocked = await post(
      "/account?index",
      { intent: "password", currentPassword: user.password, newPassword },
      { cookie, localAddress: address },
    );
    expect(blocked.status).toBe(429);
    expect(blocked.body).toContain("Too many failed attempts from your address.");
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    const deletion = await post(
      "/account?index",
      { intent: "delete", password: user.password },
      { cookie, localAddress: address },
    );
    expect(deletion.status).toBe(429);
    // The sign-in form shares the count.
    const signInBlocked = await post(
      "/auth",
      { intent: "sign-in", email: user.email, password: user.password },
      { localAddress: address },
    );
    expect(signInBlocked.status).toBe(429);
    // Every other form that checks a password refuses too, and a plain form post (no JavaScript) still tells the
    // browser when to try again: the page's answer carries the action's Retry-After.
    const otherForms: [string, Record<string, string>][] = [
      ["/account/email", { newEmail: uniqueEmail(), password: user.password }],
      ["/account/two-factor", { intent: "start", password: user.password }],
      ["/account/confirm-email", { token: "a".repeat(43), password: user.password }],
    ];
    for (const [pathname, fields] of otherForms) {
      const refused = await post(pathname, fields, { cookie, localAddress: address });
      expect(refused.status, pathname).toBe(429);
      expect(Number(refused.headers["retry-after"]), pathname).toBeGreaterThan(0);
    }
    expect(await isSignedIn(cookie)).toBe(true);
    expect(
      await database.db.selectFrom("user").select("id").where("id", "=", user.id).executeTakeFirst(),
    ).toBeDefined();
  });

  it("refuses the account forms when posted from another site, and changes nothing", async () => {
    const user = await createUser(database.db);
    const cookie = await signIn(user.email, user.password, { localAddress: freshAddress() });
    const hash = await passwordHash(user.id);
    const crossSite = { cookie, headers: { Origin: "https://evil.example" } };
    const forms: [string, Record<string, string>][] = [
      ["/account?index", { intent: "password", currentPassword: user.password, newPassword: strongPassword() }],
      ["/account?index", { intent: "delete", password: user.password }],
      ["/account/email", { newEmail: uniqueEmail(), password: user.password }],
      ["/account/sessions", { intent: "signOutOthers" }],
      ["/account/two-factor", { intent: "start", password: user.password }],
      ["/auth/forgot", { email: user.email }],
    ];
    for (const [pathname, fields] of forms) {
      const refused = await post(pathname, fields, crossSite);
      expect(refused.status, pathname).toBe(403);
    }
    expect(await passwordHash(user.id)).toBe(hash);
    expect(await isSignedIn(cookie)).toBe(true);
    expect(await auditOf(user.email)).toEqual([]);
    expect(
      await database.db.selectFrom("account_tokens").select("user_id").where("user_id", "=", user.id).execute(),
    ).toEqual([]);
  });

  it("keeps each session's last activity within five minutes of its real use, without a write on every page", async () => {
    const user = await createUser(database.db);
    const cookie = await signIn(user.email, user.password, { localAddress: freshAddress() });
    const [row] = await sessionRows(user.id);
    const setLastActive = (at: Date) =>
      database.db
        .updateTable("session")
        .set({ updatedAt: at })
        .where("id", "=", row?.id ?? "")
        .execute();
    const lastActive = async () => {
      const found = await database.db
        .selectFrom("session")
        .select("updatedAt")
        .where("id", "=", row?.id ?? "")
        .executeTakeFirstOrThrow();
      return new Date(found.updatedAt).getTime();
    };

    // Used two minutes after the last note: nothing is written.
    const twoMinutesAgo = new Date(Date.now() - 2 * 60_000);
    await setLastActive(twoMinutesAgo);
    expect((await get("/", cookie)).status).toBe(200);
    expect(await lastActive()).toBe(twoMinutesAgo.getTime());

    // Used ten minutes after it: noted as now.
    await setLastActive(new Date(Date.now() - 10 * 60_000));
    const before = Date.now();
    expect((await get("/", cookie)).status).toBe(200);
    expect(await lastActive()).toBeGreaterThanOrEqual(before - 1000);
    expect(await lastActive()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("lists every session with browser, system and address, marks this device, and signs out one or all others", async () => {
    const user = await createUser(database.db);
    const stranger = await createUser(database.db);
    const hereAddress = freshAddress();
    const phoneAddress = freshAddress();
    const here = await signIn(user.email, user.password, { userAgent: FIREFOX_WINDOWS, localAddress: hereAddress });
    // A forged X-Forwarded-For (no proxy is trusted here) and a forged address header change nothing.
    const phone = await signIn(user.email, user.password, {
      userAgent: SAFARI_IPHONE,
      localAddress: phoneAddress,
      headers: { "X-Forwarded-For": "203.0.113.7", "X-Vitrine-Client-Address": "198.51.100.4" },
    });
    const strangerCookie = await signIn(stranger.email, stranger.password, { localAddress: freshAddress() });

    const page = await get("/account/sessions", here);
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("private, no-store");
    expect(page.body).toContain("Firefox 128 on Windows 10");
    expect(page.body).toContain("Safari 17 on iOS 17.5");
    expect(page.body).toContain(hereAddress);
    expect(page.body).toContain(phoneAddress);
    expect(page.body).not.toContain("203.0.113.7");
    expect(page.body).not.toContain("198.51.100.4");
    expect(page.body.match(/>This device</g)).toHaveLength(1);
    expect(page.body).not.toContain(stranger.email);
    // No session token reaches the page.
    for (const cookie of [here, phone]) {
      const token = decodeURIComponent(cookie.split("=")[1] ?? "").split(".")[0] ?? "";
      expect(page.body).not.toContain(token);
    }

    const rows = await sessionRows(user.id);
    const phoneRow = rows.find((row) => row.userAgent === SAFARI_IPHONE);
    expect(phoneRow?.ipAddress).toBe(phoneAddress);
    const [strangerRow] = await sessionRows(stranger.id);

    // An IPv6 address is stored written out in full (by better-auth) and shown in its short form.
    await database.db
      .updateTable("session")
      .set({ ipAddress: "0000:0000:0000:0000:0000:0000:0000:0001" })
      .where("id", "=", phoneRow?.id ?? "")
      .execute();
    const local = await get("/account/sessions", here);
    expect(local.body).toMatch(/>::1</);
    expect(local.body).not.toContain("0000:");

    // Someone else's session is not theirs to end: refused, nothing ended.
    const foreign = await post(
      "/account/sessions",
      { intent: "signOut", sessionId: strangerRow?.id ?? "" },
      { cookie: here },
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body).toContain("That session has already ended.");
    expect(await isSignedIn(strangerCookie)).toBe(true);
    const bad = await post("/account/sessions", { intent: "signOut", sessionId: "../x" }, { cookie: here });
    expect(bad.status).toBe(400);

    const ended = await post(
      "/account/sessions",
      { intent: "signOut", sessionId: phoneRow?.id ?? "" },
      { cookie: here },
    );
    expect(ended.status).toBe(200);
    expect(ended.body).toContain("That device has been signed out.");
    expect(await isSignedIn(phone)).toBe(false);
    expect(await isSignedIn(here)).toBe(true);

    const second = await signIn(user.email, user.password, { userAgent: CHROME_LINUX, localAddress: freshAddress() });
    const third = await signIn(user.email, user.password, { localAddress: freshAddress() });
    const others = await post("/account/sessions", { intent: "signOutOthers" }, { cookie: here });
    expect(others.status).toBe(200);
    expect(others.body).toContain("Signed out everywhere else (2).");
    expect(await isSignedIn(second)).toBe(false);
    expect(await isSignedIn(third)).toBe(false);
    expect(await isSignedIn(here)).toBe(true);
    expect(await isSignedIn(strangerCookie)).toBe(true);

    const audit = await auditOf(user.email);
    expect(audit.map((row) => [row.action, row.new_value])).toEqual([
      ["account.endSession", "1 session ended (Safari 17, iOS 17.5)"],
      ["account.endSession", "2 sessions ended (all others)"],
    ]);
  });

  it("deletes the account only with its password, never the last admin, and keeps the invite history", async () => {
    // The only admin of this database (the first one created in it).
    const admins = await database.db.selectFrom("user_roles").select("user_id").where("role", "=", "admin").execute();
    expect(admins).toEqual([]);
    const admin = await createUser(database.db, { admin: true });
    const adminCookie = await signIn(admin.email, admin.password, { localAddress: freshAddress() });
    const lastAdmin = await post(
      "/account?index",
      { intent: "delete", password: admin.password },
      { cookie: adminCookie },
    );
    expect(lastAdmin.status).toBe(400);
    expect(lastAdmin.body).toContain("The last admin cannot be removed");
    expect(await isSignedIn(adminCookie)).toBe(true);

    const user = await createUser(database.db);
    const address = freshAddress();
    const cookie = await signIn(user.email, user.password, { localAddress: address });
    const other = await signIn(user.email, user.password, { localAddress: freshAddress() });
    const missing = await post("/account?index", { intent: "delete", password: "" }, { cookie, localAddress: address });
    expect(missing.status).toBe(400);
    expect(missing.body).toContain("Enter your password to delete your account.");
    const wrong = await post(
      "/account?index",
      { intent: "delete", password: "not-the-password-1" },
      { cookie, localAddress: address },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain("That is not your password.");
    expect(
      await database.db.selectFrom("user").select("id").where("id", "=", user.id).executeTakeFirst(),
    ).toBeDefined();

    const deleted = await post(
      "/account?index",
      { intent: "delete", password: user.password },
      { cookie, localAddress: address },
    );
    expect(deleted.status).toBe(302);
    expect(deleted.headers.location).toBe("/account-deleted");
    // The cookie is cleared, and the account with all its sessions is gone.
    expect(deleted.cookies.some((c) => /^vitrine\.session_token=;/.test(c) && /Max-Age=0/i.test(c))).toBe(true);
    expect(
      await database.db.selectFrom("user").select("id").where("id", "=", user.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await sessionRows(user.id)).toEqual([]);
    expect(await isSignedIn(other)).toBe(false);
    const goodbye = await get("/account-deleted");
    expect(goodbye.status).toBe(200);
    expect(goodbye.body).toContain("Your account has been deleted");
    expect((await get("/account-deleted?lang=de")).body).toContain("Ihr Konto wurde gelöscht");

    // The invite code it used is still listed as used, by a deleted account.
    const invites = await listInvites(database.db);
    expect(invites.some((invite) => invite.usedByDeleted)).toBe(true);
    expect(await auditOf(user.email)).toEqual([
      expect.objectContaining({ action: "users.delete", target: user.email }),
    ]);
  });

  it("shows an Account link in the header for the signed-in only", async () => {
    const user = await createUser(database.db);
    const cookie = await signIn(user.email, user.password, { localAddress: freshAddress() });
    expect((await get("/links", cookie)).body).toMatch(/<a[^>]*href="\/account"[^>]*>Account<\/a>/);
    expect((await get("/links")).body).not.toMatch(/href="\/account"/);
    expect((await get("/links?lang=de", cookie)).body).toMatch(/<a[^>]*href="\/account"[^>]*>Konto<\/a>/);
  });
});
