import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import type { MailMessage, MailService } from "#app/domains/mail/mail-message.ts";
import { createUser, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { issueAccountToken, TOKEN_LIFETIME_MS } from "./account-tokens.server.ts";
import { checkEmailChangeToken, confirmEmailChange, requestEmailChange } from "./email-change.server.ts";
import {
  checkResetToken,
  createResetLink,
  requestPasswordReset,
  resetPasswordWithToken,
} from "./password-recovery.server.ts";
import { formatAccountTable, listAccounts } from "./user-list.server.ts";
import { setPassword } from "./users.server.ts";

const BASE_URL = "https://site.example.test";

/** Keeps every mail a feature hands over, as the mail service receives it. */
function recordingMail(): MailService & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    async send(message) {
      sent.push(message);
    },
  };
}

function tokenOf(message: MailMessage | undefined): string {
  const url = new URL(message?.action?.url ?? "");
  const token = url.searchParams.get("token") ?? "";
  noteSecret(token);
  return token;
}

describe.each(databaseKinds)("password recovery (%s)", (kind) => {
  const database = useTestDatabase(kind, "all");
  const deps = () => ({ db: database.db, mail: recordingMail(), baseUrl: BASE_URL });

  it("mails a link in the language asked in, stores only the token's hash, and remembers the language", async () => {
    const user = await createUser(database.db);
    const d = deps();
    await requestPasswordReset(d, { email: user.email.toUpperCase(), language: "de" });
    expect(d.mail.sent).toHaveLength(1);
    const mail = d.mail.sent[0];
    expect(mail).toMatchObject({ to: user.email, language: "de", kind: "password-reset" });
    expect(mail?.subject).toBe("Passwort zurücksetzen");
    expect(mail?.action?.url).toMatch(/^https:\/\/site\.example\.test\/auth\/reset\?token=[\w-]{43}$/);
    const token = tokenOf(mail);
    const rows = await database.db.selectFrom("account_tokens").selectAll().where("user_id", "=", user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
    const language = await database.db
      .selectFrom("user")
      .select("language")
      .where("id", "=", user.id)
      .executeTakeFirst();
    expect(language?.language).toBe("de");
    expect(await checkResetToken(database.db, token)).toEqual({ email: user.email, language: "de" });
  });

  it("sends nothing and writes nothing for an address without an account", async () => {
    const d = deps();
    const before = await database.db.selectFrom("account_tokens").select("token_hash").execute();
    await requestPasswordReset(d, { email: uniqueEmail("nobody"), language: "en" });
    expect(d.mail.sent).toEqual([]);
    expect(await database.db.selectFrom("account_tokens").select("token_hash").execute()).toEqual(before);
  });

  it("resets once, ends every session, and refuses the same link again", async () => {
    const user = await createUser(database.db);
    await createSessionCookie(database.db, user.id, "a-secret-long-enough-for-the-signature-0123456789");
    const d = deps();
    await requestPasswordReset(d, { email: user.email, language: "en" });
    const token = tokenOf(d.mail.sent[0]);

    // A password the policy refuses changes nothing and leaves the link working.
    expect(await resetPasswordWithToken(database.db, { token, password: "short" })).toEqual({
      ok: false,
      reason: "password.tooShort",
    });
    expect(await checkResetToken(database.db, token)).not.toBeNull();

    const password = strongPassword();
    const done = await resetPasswordWithToken(database.db, { token, password });
    expect(done).toEqual({ ok: true, email: user.email, sessionsEnded: 1 });
    expect(await database.db.selectFrom("session").select("id").where("userId", "=", user.id).execute()).toEqual([]);
    expect(await resetPasswordWithToken(database.db, { token, password: strongPassword() })).toEqual({
      ok: false,
      reason: "invalidToken",
    });
    const { records } = await listAudit(database.db, { action: "users.password-reset" });
    const mine = records.filter((record) => record.target === user.email).map((record) => record.action);
    expect(mine).toEqual(["users.password-reset", "users.password-reset-request"]);
    expect(JSON.stringify(records)).not.toContain(token);
  });

  it("refuses an expired link (one hour), and one replaced by a newer request", async () => {
    const user = await createUser(database.db);
    const asked = new Date("2030-01-01T10:00:00Z");
    const d = deps();
    await requestPasswordReset(d, { email: user.email, language: "en" }, asked);
    const first = tokenOf(d.mail.sent[0]);
    const justBefore = new Date(asked.getTime() + TOKEN_LIFETIME_MS["password-reset"] - 1000);
    const atExpiry = new Date(asked.getTime() + TOKEN_LIFETIME_MS["password-reset"]);
    expect(await checkResetToken(database.db, first, justBefore)).not.toBeNull();
    expect(await resetPasswordWithToken(database.db, { token: first, password: strongPassword() }, atExpiry)).toEqual({
      ok: false,
      reason: "invalidToken",
    });

    await requestPasswordReset(d, { email: user.email, language: "en" }, asked);
    await requestPasswordReset(d, { email: user.email, language: "en" }, asked);
    const [, older, newer] = d.mail.sent.map(tokenOf);
    expect(await checkResetToken(database.db, older ?? "", asked)).toBeNull();
    expect(await checkResetToken(database.db, newer ?? "", asked)).not.toBeNull();
  });

  it("forgets a link when the password is changed another way", async () => {
    const user = await createUser(database.db);
    const d = deps();
    await requestPasswordReset(d, { email: user.email, language: "en" });
    const token = tokenOf(d.mail.sent[0]);
    expect((await setPassword(database.db, { email: user.email, password: strongPassword() })).ok).toBe(true);
    expect(await checkResetToken(database.db, token)).toBeNull();
  });

  it("refuses tokens that are empty, too long or made up", async () => {
    for (const token of ["", "x".repeat(5000), "a".repeat(43)]) {
      expect(await resetPasswordWithToken(database.db, { token, password: strongPassword() })).toEqual({
        ok: false,
        reason: "invalidToken",
      });
    }
  });

  it("makes a command-line link that works like a mailed one, audited as the command line", async () => {
    const user = await createUser(database.db);
    const link = await createResetLink(database.db, {
      email: user.email,
      baseUrl: BASE_URL,
      actor: { id: "cli", email: "command line" },
    });
    const token = new URL(link.url).searchParams.get("token") ?? "";
    noteSecret(token);
    expect(link.url.startsWith(`${BASE_URL}/auth/reset?token=`)).toBe(true);
    expect((await resetPasswordWithToken(database.db, { token, password: strongPassword() })).ok).toBe(true);
    expect((await resetPasswordWithToken(database.db, { token, password: strongPassword() })).ok).toBe(false);
    const { records } = await listAudit(database.db, { action: "users.password-reset-link" });
    expect(records.find((record) => record.target === user.email)?.actorEmail).toBe("command line");
    await expect(
      createResetLink(database.db, { email: uniqueEmail(), baseUrl: BASE_URL, actor: { id: "cli", email: "cli" } }),
    ).rejects.toThrow(/No account/);
  });

  it("lists accounts with the admin role, creation and last sign-in (never when none)", async () => {
    const admin = await createUser(database.db, { admin: true });
    await database.db
      .updateTable("user")
      .set({ lastSignInAt: new Date("2030-02-03T04:05:06Z") })
      .where("id", "=", admin.id)
      .execute();
    const accounts = await listAccounts(database.db);
    expect(accounts.find((account) => account.email === admin.email)).toMatchObject({
      isAdmin: true,
      lastSignInAt: "2030-02-03T04:05:06.000Z",
    });
    const table = formatAccountTable(accounts);
    expect(table.split("\n")[0]).toMatch(/^E-MAIL\s+ADMIN\s+CREATED\s+LAST SIGN-IN$/);
    expect(table).toMatch(
      new RegExp(
        `${admin.email.replaceAll(".", "\\.")}\\s+yes\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\s+2030-02-03 04:05 UTC`,
      ),
    );
    expect(table).toMatch(/\s+no\s+.*UTC\s+never$/m);
  });
});

describe.each(databaseKinds)("changing the e-mail address (%s)", (kind) => {
  const database = useTestDatabase(kind, "all");
  const deps = () => ({ db: database.db, mail: recordingMail(), baseUrl: BASE_URL });

  it("changes nothing until the link is followed with the password, then tells the old address", async () => {
    const user = await createUser(database.db);
    const newEmail = uniqueEmail("new");
    const d = deps();
    const asked = await requestEmailChange(d, {
      userId: user.id,
      email: user.email,
      newEmail: newEmail.toUpperCase(),
      password: user.password,
      language: "en",
    });
    expect(asked).toEqual({ ok: true, newEmail });
    expect(d.mail.sent).toHaveLength(1);
    expect(d.mail.sent[0]).toMatchObject({ to: newEmail, kind: "email-change" });
    expect(d.mail.sent[0]?.action?.url).toMatch(/^https:\/\/site\.example\.test\/account\/confirm-email\?token=/);
    const token = tokenOf(d.mail.sent[0]);
    const stored = await database.db.selectFrom("user").select("email").where("id", "=", user.id).executeTakeFirst();
    expect(stored?.email).toBe(user.email);
    expect(await checkEmailChangeToken(database.db, token)).toEqual({ email: user.email, newEmail });

    expect(await confirmEmailChange(d, { token, password: "wrong-password-123" })).toEqual({
      ok: false,
      reason: "wrongPassword",
    });
    expect(await confirmEmailChange(d, { token, password: user.password })).toEqual({
      ok: true,
      oldEmail: user.email,
      newEmail,
    });
    const changed = await database.db.selectFrom("user").select("email").where("id", "=", user.id).executeTakeFirst();
    expect(changed?.email).toBe(newEmail);
    expect(d.mail.sent[1]).toMatchObject({ to: user.email, kind: "email-changed" });
    expect(d.mail.sent[1]?.action).toBeUndefined();
    expect(await confirmEmailChange(d, { token, password: user.password })).toEqual({
      ok: false,
      reason: "invalidToken",
    });
    const { records } = await listAudit(database.db, { action: "users.email-change" });
    const mine = records.filter((record) => record.newValue === newEmail);
    expect(mine.map((record) => record.action).sort()).toEqual(["users.email-change", "users.email-change-request"]);
  });

  it("refuses an address in use, a wrong password and the same address, without sending anything", async () => {
    const user = await createUser(database.db);
    const other = await createUser(database.db);
    const d = deps();
    const ask = (newEmail: string, password = user.password) =>
      requestEmailChange(d, { userId: user.id, email: user.email, newEmail, password, language: "en" });
    expect(await ask(other.email)).toEqual({ ok: false, reason: "emailTaken" });
    expect(await ask(uniqueEmail(), "not-the-password")).toEqual({ ok: false, reason: "wrongPassword" });
    expect(await ask(user.email)).toEqual({ ok: false, reason: "sameEmail" });
    expect(await ask("not an address")).toEqual({ ok: false, reason: "emailInvalid" });
    expect(d.mail.sent).toEqual([]);
  });

  it("refuses the change when the address was taken after the request", async () => {
    const user = await createUser(database.db);
    const newEmail = uniqueEmail("contested");
    const d = deps();
    await requestEmailChange(d, {
      userId: user.id,
      email: user.email,
      newEmail,
      password: user.password,
      language: "en",
    });
    const token = tokenOf(d.mail.sent[0]);
    await createUser(database.db, { email: newEmail });
    expect(await confirmEmailChange(d, { token, password: user.password })).toEqual({
      ok: false,
      reason: "emailTaken",
    });
    const row = await database.db.selectFrom("user").select("email").where("id", "=", user.id).executeTakeFirst();
    expect(row?.email).toBe(user.email);
  });
});

describe.each(databaseKinds)("old links (%s)", (kind) => {
  const database = useTestDatabase(kind, "all");

  it("are swept a day after they expired, when any new link is made", async () => {
    const old = await createUser(database.db);
    const fresh = await createUser(database.db);
    const long = new Date("2030-01-01T00:00:00Z");
    await issueAccountToken(database.db, { userId: old.id, purpose: "password-reset" }, long);
    const dayAfterExpiry = new Date(long.getTime() + TOKEN_LIFETIME_MS["password-reset"] + 24 * 60 * 60_000 + 1000);
    await issueAccountToken(database.db, { userId: fresh.id, purpose: "password-reset" }, dayAfterExpiry);
    const owners = await database.db.selectFrom("account_tokens").select("user_id").execute();
    expect(owners.map((row) => row.user_id)).toEqual([fresh.id]);
  });
});
