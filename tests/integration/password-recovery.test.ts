import { afterEach, describe, expect, it, vi } from "vitest";
import { RESET_REQUESTS_PER_EMAIL } from "#app/auth/recovery-limit.server.ts";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { recoveryDe } from "#app/i18n/recovery.de.ts";
import { recoveryEn } from "#app/i18n/recovery.en.ts";
import { cookieFor, startServerOnFreshDatabase, visibleText } from "#tests/support/admin-server.ts";
import { createUser, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import { cleanEnv, postForm, request, run, type ServerProcess, sessionCookie } from "#tests/support/server-process.ts";
import { outboxIds, type ReceivedMail, readNewestOutboxMail, startSmtpServer } from "#tests/support/smtp-server.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

// Servers and the command line start in a few seconds each on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function start(kind: TestDatabase["kind"], env: Record<string, string> = {}) {
  const started = await startServerOnFreshDatabase(kind, env);
  cleanup.push(async () => {
    await started.server.stop("SIGKILL");
    await started.database.destroy();
  });
  return started;
}

/** The answer to a forgot-password request with the address itself blanked: what else could tell them apart? */
function answerWithout(body: string, email: string): string {
  return body.replaceAll(email, "EMAIL").replace(/nonce="[^"]*"/g, "");
}

let clientCounter = 0;
function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** A fresh client address for each visitor whose per-address count must not be shared. */
function nextClient(): string {
  clientCounter += 1;
  return `127.0.${10 + Math.floor(clientCounter / 200)}.${1 + (clientCounter % 200)}`;
}

/** The one link of a mail's text part, with its token noted as a secret (no log may hold it). */
function linkIn(mail: ReceivedMail, pathname: string): { url: string; path: string; token: string } {
  const match = mail.text.match(new RegExp(`https?://[^\\s]+${pathname}\\?token=([\\w-]+)`));
  if (!match) throw new Error(`No ${pathname} link in: ${mail.text}`);
  const token = match[1] ?? "";
  noteSecret(token);
  const url = new URL(match[0]);
  return { url: url.href, path: `${url.pathname}${url.search}`, token };
}

async function cliResetLink(database: TestDatabase, server: ServerProcess, email: string) {
  const result = await run(
    "npm",
    ["run", "--silent", "cli", "--", "users", "reset-link", email],
    cleanEnv({
      DATA_DIR: database.location.dataDir,
      DATABASE_URL: database.location.databaseUrl,
      BASE_URL: server.origin,
    }),
    90_000,
  );
  const link = result.stdout.trim();
  noteSecret(new URL(link || "http://x/").searchParams.get("token") ?? undefined);
  return { ...result, link };
}

describe.each(databaseKinds)("password recovery over HTTP (%s)", (kind) => {
  it("answers a known and an unknown address alike, in about the same time", async () => {
    const { database, server } = await start(kind);
    const user = await createUser(database.db);
    const unknown = uniqueEmail("nobody");
    // Warm up the page so that the first compile or cache fill is in neither measurement.
    await postForm(server, "/auth/forgot", { email: uniqueEmail("warm") }, { localAddress: nextClient() });
    const timed = async (email: string) => {
      const began = performance.now();
      const answer = await postForm(server, "/auth/forgot", { email }, { localAddress: nextClient() });
      return { answer, ms: performance.now() - began };
    };
    const known = await timed(user.email);
    const missing = await timed(unknown);
    expect(known.answer.status).toBe(200);
    expect(missing.answer.status).toBe(200);
    expect(answerWithout(known.answer.body, user.email)).toBe(answerWithout(missing.answer.body, unknown));
    expect(visibleText(known.answer.body)).toContain(
      `If an account with the address ${user.email} exists, a link to reset its password is on its way.`,
    );
    // The work for a known address happens after the answer: nothing in the answer waits for it. One sample a
    // side is at the mercy of a busy machine: many, interleaved (each side first in turn, so that a known
    // address's background work weighs on both), compared by their medians.
    const knownMs = [known.ms];
    const missingMs = [missing.ms];
    for (let round = 0; round < 8; round++) {
      const other = await createUser(database.db);
      const sides = [
        async () => knownMs.push((await timed(other.email)).ms),
        async () => missingMs.push((await timed(uniqueEmail("nobody"))).ms),
      ];
      for (const side of round % 2 === 0 ? sides : sides.reverse()) await side();
    }
    expect(Math.abs(median(knownMs) - median(missingMs))).toBeLessThan(400);
  });

  it("limits requests per e-mail address and per client with the “Too many attempts” message", async () => {
    const { database, server } = await start(kind, { AUTH_MAX_FAILED_ATTEMPTS: "5" });
    const user = await createUser(database.db);
    // Per address: from a different client each time, the address alone is limited.
    for (let sent = 0; sent < RESET_REQUESTS_PER_EMAIL; sent++) {
      const answer = await postForm(server, "/auth/forgot", { email: user.email }, { localAddress: nextClient() });
      expect(answer.status).toBe(200);
    }
    for (const email of [user.email, user.email.toUpperCase()]) {
      const limited = await postForm(server, "/auth/forgot", { email }, { localAddress: nextClient() });
      expect(limited.status).toBe(429);
      expect(visibleText(limited.body)).toContain("Too many attempts");
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    }
    // An address without an account is limited exactly alike.
    const nobody = uniqueEmail("nobody");
    for (let sent = 0; sent < RESET_REQUESTS_PER_EMAIL; sent++) {
      expect((await postForm(server, "/auth/forgot", { email: nobody }, { localAddress: nextClient() })).status).toBe(
        200,
      );
    }
    expect((await postForm(server, "/auth/forgot", { email: nobody }, { localAddress: nextClient() })).status).toBe(
      429,
    );

    // Per client: five requests for five addresses, then the sixth waits.
    const client = nextClient();
    for (let sent = 0; sent < 5; sent++) {
      const answer = await postForm(server, "/auth/forgot", { email: uniqueEmail() }, { localAddress: client });
      expect(answer.status).toBe(200);
    }
    const blocked = await postForm(server, "/auth/forgot", { email: uniqueEmail() }, { localAddress: client });
    expect(blocked.status).toBe(429);
    expect(visibleText(blocked.body)).toContain("Too many attempts");

    // A typo is answered at once and counts nowhere.
    const typo = await postForm(server, "/auth/forgot", { email: "not an address" }, { localAddress: nextClient() });
    expect(typo.status).toBe(400);
    expect(visibleText(typo.body)).toContain("Please enter a valid e-mail address.");
  });

  it("a command-line link sets a new password once, ends every session, and asks to sign in", async () => {
    const { database, server } = await start(kind);
    const user = await createUser(database.db);
    const before = await cookieFor(database, user);
    expect((await request(server.url("/account"), { headers: { Cookie: before } })).status).toBe(200);

    const made = await cliResetLink(database, server, user.email);
    expect(made.code).toBe(0);
    expect(made.link).toMatch(new RegExp(`^${server.origin}/auth/reset\\?token=[\\w-]{43}$`));
    expect(made.stderr).toContain(`A password reset link for ${user.email}`);
    const path = made.link.slice(server.origin.length);

    const page = await request(server.url(path));
    expect(page.status).toBe(200);
    expect(visibleText(page.body)).toContain(`For the account ${user.email}.`);

    // The policy holds: a short password changes nothing and the link still works.
    const weak = await postForm(server, path, {
      token: new URL(made.link).searchParams.get("token") ?? "",
      password: "short",
    });
    expect(weak.status).toBe(400);
    expect(visibleText(weak.body)).toContain("The password must be at least 10 characters long.");

    const password = strongPassword();
    const token = new URL(made.link).searchParams.get("token") ?? "";
    const done = await postForm(server, path, { token, password });
    expect(done.status, visibleText(done.body).slice(0, 600)).toBe(200);
    expect(visibleText(done.body)).toContain("Every device was signed out. Please sign in with your new password.");
    expect(sessionCookie(done)).toBeUndefined();
    const after = await request(server.url("/account"), { headers: { Cookie: before } });
    expect(after.status).toBe(302);

    // Used: the link no longer opens anything.
    const again = await postForm(server, path, { token, password: strongPassword() });
    expect(again.status).toBe(400);
    expect(visibleText(again.body)).toContain("This link does not work");
    const reopened = await request(server.url(path));
    expect(visibleText(reopened.body)).toContain("The link has expired, was already used or was replaced");

    const oldPassword = await postForm(server, "/auth", {
      intent: "sign-in",
      email: user.email,
      password: user.password,
    });
    expect(oldPassword.status).toBe(400);
    const signedIn = await postForm(server, "/auth", { intent: "sign-in", email: user.email, password });
    expect(signedIn.status).toBe(302);
    expect(sessionCookie(signedIn)).toBeDefined();

    const { records } = await listAudit(database.db, { action: "users.password-reset" });
    expect(records.map((record) => [record.action, record.actorEmail, record.target])).toEqual([
      ["users.password-reset", user.email, user.email],
      ["users.password-reset-link", "command line", user.email],
    ]);
    // Nothing of the token reached the log (the ledger checks the whole run; this is the request log's part).
    const logged = await server.writtenStdout();
    expect(logged).toContain("[redacted]");
    expect(logged).not.toContain(token);
  });

  it("lists the accounts on the command line, and refuses a link for an unknown address", async () => {
    const { database, server } = await start(kind);
    const admin = await createUser(database.db, { admin: true });
    const env = cleanEnv({ DATA_DIR: database.location.dataDir, DATABASE_URL: database.location.databaseUrl });
    const listed = await run("npm", ["run", "--silent", "cli", "--", "users", "list"], env, 90_000);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${admin.email.replaceAll(".", "\\.")}\\s+yes\\s+.+ UTC\\s+never`));
    const unknown = await cliResetLink(database, server, uniqueEmail("nobody"));
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toContain("No account with the e-mail address");
  });
});

describe.each(databaseKinds)("recovery and e-mail change mails through a real SMTP server (%s)", (kind) => {
  it("mails a German reset link with both parts that sets the password and ends the other sessions; nothing for an unknown address", async () => {
    const smtp = await startSmtpServer();
    cleanup.push(() => smtp.close());
    const { database, server } = await start(kind, { SMTP_URL: smtp.url, MAIL_FROM: "site@example.test" });
    expect(server.logLines().some((entry) => String(entry.msg).startsWith("MAIL_FROM is not set"))).toBe(false);
    const user = await createUser(database.db);
    const otherDevice = await cookieFor(database, user);
    const unknown = uniqueEmail("nobody");

    expect(
      (await postForm(server, "/auth/forgot?lang=de", { email: unknown }, { localAddress: nextClient() })).status,
    ).toBe(200);
    const asked = await postForm(server, "/auth/forgot?lang=de", { email: user.email }, { localAddress: nextClient() });
    expect(asked.status).toBe(200);
    expect(visibleText(asked.body)).toContain(`Wenn es ein Konto mit der Adresse ${user.email} gibt`);
    // Mail is sent: no word of the outbox or of the command that reads it.
    expect(asked.body).not.toContain("outbox latest");
    expect(visibleText(asked.body)).not.toContain(recoveryDe["recovery.forgot.outbox"]);

    const mail = await smtp.waitForMail((received) => received.to.includes(user.email));
    expect(mail.subject).toBe("Passwort zurücksetzen");
    expect(mail.language).toBe("de");
    expect(mail.text).toContain("Neues Passwort wählen");
    expect(mail.html).toContain("Neues Passwort wählen");
    const link = linkIn(mail, "/auth/reset");
    expect(link.url.startsWith(`${server.origin}/auth/reset?token=`)).toBe(true);
    expect(mail.html).toContain(link.url.replaceAll("&", "&amp;"));
    const stored = await database.db.selectFrom("user").select("language").where("id", "=", user.id).executeTakeFirst();
    expect(stored?.language).toBe("de");

    const page = await request(server.url(link.path));
    expect(page.status).toBe(200);
    const password = strongPassword();
    const done = await postForm(server, link.path, { token: link.token, password });
    expect(done.status).toBe(200);
    expect((await request(server.url("/account"), { headers: { Cookie: otherDevice } })).status).toBe(302);
    const signedIn = await postForm(server, "/auth", { intent: "sign-in", email: user.email, password });
    expect(signedIn.status).toBe(302);

    // The unknown address got nothing: only the one mail arrived. Not "nothing within some wait": a control
    // request made after everything above, whose mail arriving shows the mail work since the unknown request
    // has gone out.
    const control = await createUser(database.db);
    expect(
      (await postForm(server, "/auth/forgot", { email: control.email }, { localAddress: nextClient() })).status,
    ).toBe(200);
    await smtp.waitForMail((received) => received.to.includes(control.email));
    expect(smtp.mails.flatMap((received) => received.to)).toEqual([user.email, control.email]);
    expect(await server.writtenStdout()).not.toContain(link.token);
  });

  it("supersedes an older mailed link and refuses it after a password change", async () => {
    const smtp = await startSmtpServer();
    cleanup.push(() => smtp.close());
    const { database, server } = await start(kind, { SMTP_URL: smtp.url });
    // Mail is sent, from a made-up sender: the operator is told to set MAIL_FROM.
    const warning = server.logLines().find((entry) => String(entry.msg).startsWith("MAIL_FROM is not set"));
    expect(warning).toMatchObject({ level: 40, from: "vitrine@127.0.0.1" });
    const user = await createUser(database.db);
    await postForm(server, "/auth/forgot", { email: user.email }, { localAddress: nextClient() });
    const first = linkIn(await smtp.waitForMail(), "/auth/reset");
    smtp.clear();
    await postForm(server, "/auth/forgot", { email: user.email }, { localAddress: nextClient() });
    const second = linkIn(await smtp.waitForMail(), "/auth/reset");
    expect(second.token).not.toBe(first.token);
    const superseded = await postForm(server, first.path, { token: first.token, password: strongPassword() });
    expect(superseded.status).toBe(400);
    expect(visibleText(superseded.body)).toContain("This link does not work");

    // A password set another way (here the command line's set-password) ends the second link too.
    const { setPassword } = await import("#app/domains/users/users.server.ts");
    expect((await setPassword(database.db, { email: user.email, password: strongPassword() })).ok).toBe(true);
    const afterChange = await postForm(server, second.path, { token: second.token, password: strongPassword() });
    expect(afterChange.status).toBe(400);
    expect(visibleText(afterChange.body)).toContain("This link does not work");
  });

  it("changes the address only when the mailed link is followed, refuses one in use, and tells the old address", async () => {
    const smtp = await startSmtpServer();
    cleanup.push(() => smtp.close());
    const { database, server } = await start(kind, { SMTP_URL: smtp.url });
    const user = await createUser(database.db);
    const other = await createUser(database.db);
    const cookie = await cookieFor(database, user);

    const taken = await postForm(
      server,
      "/account/email",
      { newEmail: other.email, password: user.password },
      { cookie },
    );
    expect(taken.status).toBe(400);
    expect(visibleText(taken.body)).toContain("This address is already in use by another account.");
    expect(visibleText(taken.body)).not.toContain(other.id);

    const newEmail = uniqueEmail("moved");
    const asked = await postForm(server, "/account/email", { newEmail, password: user.password }, { cookie });
    expect(asked.status).toBe(200);
    expect(visibleText(asked.body)).toContain(`A confirmation link was sent to ${newEmail}.`);
    const mail = await smtp.waitForMail((received) => received.to.includes(newEmail));
    expect(mail.subject).toBe("Confirm your new e-mail address");
    expect(mail.html).not.toBeNull();
    const link = linkIn(mail, "/account/confirm-email");
    const unchanged = await database.db.selectFrom("user").select("email").where("id", "=", user.id).executeTakeFirst();
    expect(unchanged?.email).toBe(user.email);

    // Opening the link (a mail scanner, say) changes nothing; it asks for the password, with no session needed.
    const page = await request(server.url(link.path));
    expect(page.status).toBe(200);
    expect(visibleText(page.body)).toContain(`Change the address of your account from ${user.email} to ${newEmail}?`);
    const wrong = await postForm(server, link.path, { token: link.token, password: "not-the-password" });
    expect(wrong.status).toBe(400);
    expect(visibleText(wrong.body)).toContain("The password is not correct.");
    const confirmed = await postForm(server, link.path, { token: link.token, password: user.password });
    expect(confirmed.status).toBe(200);
    expect(visibleText(confirmed.body)).toContain(`Your account's address is now ${newEmail}.`);
    const changed = await database.db.selectFrom("user").select("email").where("id", "=", user.id).executeTakeFirst();
    expect(changed?.email).toBe(newEmail);

    const notice = await smtp.waitForMail((received) => received.to.includes(user.email));
    expect(notice.subject).toBe("The e-mail address of your account was changed");
    expect(notice.text).toContain(newEmail);
    // Sessions stay (the password is unchanged), and the new address signs in.
    expect((await request(server.url("/account"), { headers: { Cookie: cookie } })).status).toBe(200);
    const signedIn = await postForm(server, "/auth", { intent: "sign-in", email: newEmail, password: user.password });
    expect(signedIn.status).toBe(302);
    expect(sessionCookie(signedIn)).toBeDefined();

    const { records } = await listAudit(database.db, { action: "users.email-change" });
    expect(records.map((record) => record.action)).toEqual(["users.email-change", "users.email-change-request"]);
    expect(JSON.stringify(records)).not.toContain(link.token);
  });
});

describe.each(databaseKinds)("the outbox without SMTP_URL (%s)", (kind) => {
  it("sends the recovery pages' strings with those pages only, not with every visitor's page", async () => {
    const { server } = await start(kind);
    for (const [lang, intro] of [
      ["en", recoveryEn["recovery.forgot.intro"]],
      ["de", recoveryDe["recovery.forgot.intro"]],
    ] as const) {
      const home = await request(server.url(`/?lang=${lang}`));
      expect(home.status).toBe(200);
      expect(home.body).not.toContain(intro);
      expect(home.body).not.toContain(recoveryEn["recovery.reset.invalidText"]);
      const forgot = await request(server.url(`/auth/forgot?lang=${lang}`));
      expect(forgot.status).toBe(200);
      expect(visibleText(forgot.body)).toContain(intro);
    }
  });

  it("files the reset mail with a working link in the outbox", async () => {
    const { database, server } = await start(kind);
    const user = await createUser(database.db);
    expect(await outboxIds(database.db)).toEqual([]);
    await postForm(server, "/auth/forgot", { email: user.email }, { localAddress: nextClient() });
    const mail = await readNewestOutboxMail(database.db, (filed) => filed.to.includes(user.email));
    expect(mail.subject).toBe("Reset your password");
    expect(mail.html).not.toBeNull();
    const link = linkIn(mail, "/auth/reset");
    const done = await postForm(server, link.path, { token: link.token, password: strongPassword() });
    expect(done.status).toBe(200);
    expect(visibleText(done.body)).toContain("Password changed");
  });
});
