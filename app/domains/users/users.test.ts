import { describe, expect, it } from "vitest";
import { createAuth } from "#app/auth/auth.server.ts";
import { findInviteCode } from "#app/domains/invites/invites.server.ts";
import { createInvite, createUser, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { databaseKinds, type TestDatabase, useTestDatabase } from "#tests/support/test-database.ts";
import { isAdmin, SignUpError, type SignUpReason, signUpWithInvite } from "./users.server.ts";

async function expectSignUpReason(attempt: Promise<unknown>, reason: SignUpReason) {
  const error = await attempt.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, `sign-up should fail with ${reason}`).toBeInstanceOf(SignUpError);
  expect((error as SignUpError).reason).toBe(reason);
}

async function expectUnused(database: TestDatabase, code: string) {
  const state = await findInviteCode(database.db, code);
  expect(state).toMatchObject({ code, isUsed: false, usedBy: null, usedAt: null });
}

async function countUsers(database: TestDatabase, email: string): Promise<number> {
  const rows = await database.db.selectFrom("user").select("id").where("email", "=", email).execute();
  return rows.length;
}

// One database per kind for the whole file: every test uses its own codes and addresses.
describe.each(databaseKinds)("sign-up with an invite code (%s)", (kind) => {
  const database = useTestDatabase(kind, "all");

  it.each(["", "   ", "\t\n"])("asks for an invite code when the code is %j", async (inviteCode) => {
    const email = uniqueEmail();
    await expectSignUpReason(
      signUpWithInvite(database.db, { email, password: strongPassword(), inviteCode }),
      "inviteRequired",
    );
    expect(await countUsers(database, email)).toBe(0);
  });

  it.each(["---", " - ", "!?"])(
    "calls the code %j invalid, not missing: it is not empty after trimming",
    async (inviteCode) => {
      const email = uniqueEmail();
      await expectSignUpReason(
        signUpWithInvite(database.db, { email, password: strongPassword(), inviteCode }),
        "inviteInvalid",
      );
      expect(await countUsers(database, email)).toBe(0);
    },
  );

  it("refuses a code that does not exist", async () => {
    const email = uniqueEmail();
    await expectSignUpReason(
      signUpWithInvite(database.db, {
        email,
        password: strongPassword(),
        inviteCode: "ABCD-EFGH-JKMN-PQRS",
      }),
      "inviteInvalid",
    );
    expect(await countUsers(database, email)).toBe(0);
  });

  it("consumes the code: is_used, used_by the new user, used_at now", async () => {
    const code = await createInvite(database.db);
    const email = uniqueEmail();
    const before = Date.now();

    const account = await signUpWithInvite(database.db, { email, password: strongPassword(), inviteCode: code });

    const state = await findInviteCode(database.db, code);
    expect(state?.isUsed).toBe(true);
    expect(state?.usedBy).toBe(account.userId);
    const usedAt = Date.parse(state?.usedAt ?? "");
    expect(usedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(usedAt).toBeLessThanOrEqual(Date.now() + 1000);
    const user = await database.db.selectFrom("user").selectAll().where("id", "=", account.userId).executeTakeFirst();
    expect(user?.email).toBe(email);
    expect(account).toEqual({ userId: account.userId, email, isAdmin: false });
  });

  it("accepts the code typed in lower case with spaces, and the e-mail in capitals", async () => {
    const code = await createInvite(database.db);
    const email = uniqueEmail();
    const typed = `  ${code.toLowerCase().replaceAll("-", " ")} `;

    const account = await signUpWithInvite(database.db, {
      email: `  ${email.toUpperCase()}  `,
      password: strongPassword(),
      inviteCode: typed,
    });

    expect(account.email).toBe(email);
    expect((await findInviteCode(database.db, code))?.usedBy).toBe(account.userId);
  });

  it("refuses a code that has been used, and leaves its first use untouched", async () => {
    const code = await createInvite(database.db);
    const first = await signUpWithInvite(database.db, {
      email: uniqueEmail(),
      password: strongPassword(),
      inviteCode: code,
    });

    const second = uniqueEmail();
    await expectSignUpReason(
      signUpWithInvite(database.db, { email: second, password: strongPassword(), inviteCode: code }),
      "inviteInvalid",
    );
    expect((await findInviteCode(database.db, code))?.usedBy).toBe(first.userId);
    expect(await countUsers(database, second)).toBe(0);
  });

  it.each([
    ["a password under 10 characters", { password: "Short1!" }, "password.tooShort"],
    ["a commonly used password", { password: "password123" }, "password.common"],
    ["a password over 128 characters", { password: "Ab1!".repeat(33) }, "password.tooLong"],
    ["no password", { password: "" }, "password.required"],
    ["an invalid e-mail address", { email: "not-an-email" }, "emailInvalid"],
    ["no e-mail address", { email: "   " }, "emailRequired"],
  ] as const)("refuses %s and leaves the code unused", async (_label, override, problem) => {
    const code = await createInvite(database.db);
    const attempt = { email: uniqueEmail(), password: strongPassword(), inviteCode: code, ...override };

    await expectSignUpReason(signUpWithInvite(database.db, attempt), problem);

    await expectUnused(database, code);
    const accounts = await database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", attempt.email.trim())
      .execute();
    expect(accounts).toEqual([]);
  });

  it("refuses an e-mail address that is taken (in any case) and leaves the code unused", async () => {
    const existing = await createUser(database.db);
    const code = await createInvite(database.db);

    await expectSignUpReason(
      signUpWithInvite(database.db, {
        email: ` ${existing.email.toUpperCase()}`,
        password: strongPassword(),
        inviteCode: code,
      }),
      "emailTaken",
    );

    await expectUnused(database, code);
    expect(await countUsers(database, existing.email)).toBe(1);
  });

  it("gives one account when two sign-ups with two codes race for one address; the loser's code stays unused", async () => {
    const email = uniqueEmail();
    const codes = [await createInvite(database.db), await createInvite(database.db)];

    const results = await Promise.allSettled(
      codes.map((inviteCode) => signUpWithInvite(database.db, { email, password: strongPassword(), inviteCode })),
    );

    const won = results.filter((result) => result.status === "fulfilled");
    const lost = results.filter((result) => result.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(SignUpError);
    expect(((lost[0] as PromiseRejectedResult).reason as SignUpError).reason).toBe("emailTaken");
    expect(await countUsers(database, email)).toBe(1);
    const states = await Promise.all(codes.map((code) => findInviteCode(database.db, code)));
    expect(states.filter((state) => state?.isUsed)).toHaveLength(1);
    expect(states.filter((state) => !state?.isUsed && state?.usedBy === null)).toHaveLength(1);
  });

  it("stores only a salted hash of the password", async () => {
    const password = strongPassword();
    const first = await createUser(database.db, { password });
    const second = await createUser(database.db, { password });

    const rows = await database.db
      .selectFrom("account")
      .select(["userId", "password", "providerId"])
      .where("userId", "in", [first.id, second.id])
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.providerId).toBe("credential");
      expect(row.password).not.toContain(password);
      expect(row.password?.length ?? 0).toBeGreaterThan(40);
    }
    expect(rows[0]?.password).not.toBe(rows[1]?.password);
  });

  /** better-auth as the site configures it, on this test database. */
  const authOnTestDatabase = () =>
    createAuth({
      db: database.db,
      kind: database.kind,
      secret: "unit-test-secret-that-is-long-enough-0123456789",
      baseUrl: "http://localhost:3000",
    });

  it("creates an account that can sign in through better-auth, with the right password only", async () => {
    const auth = authOnTestDatabase();
    const email = uniqueEmail();
    const password = strongPassword();
    const code = await createInvite(database.db);
    const account = await signUpWithInvite(database.db, { email, password, inviteCode: code });

    const signedIn = await auth.api.signInEmail({ body: { email, password } });

    expect(signedIn.user.id).toBe(account.userId);
    expect(signedIn.user.email).toBe(email);
    expect(signedIn.token).toBeTruthy();
    const session = await database.db
      .selectFrom("session")
      .select("userId")
      .where("token", "=", signedIn.token)
      .executeTakeFirst();
    expect(session?.userId).toBe(account.userId);

    const wrong = await auth.api.signInEmail({
      body: { email, password: `${password}x` },
      asResponse: true,
    });
    expect(wrong.status).toBe(401);
  });

  it("keeps better-auth's own sign-up closed: accounts come only through an invite", async () => {
    const auth = authOnTestDatabase();
    const email = uniqueEmail();

    const response = await auth.api.signUpEmail({
      body: { email, password: strongPassword(), name: "" },
      asResponse: true,
    });

    expect(response.ok).toBe(false);
    expect(await countUsers(database, email)).toBe(0);
  });
});

describe.each(databaseKinds)("the role an invite code grants (%s)", (kind) => {
  // A fresh database per case: an admin-granting code only works while there is no admin yet.
  const database = useTestDatabase(kind, "each");

  it.each([
    { code: "an admin-granting code", admin: true, roles: ["admin"] },
    { code: "an ordinary code", admin: false, roles: [] },
  ])("$code gives the roles $roles", async ({ admin, roles }) => {
    const inviteCode = await createInvite(database.db, { admin });

    const account = await signUpWithInvite(database.db, {
      email: uniqueEmail(),
      password: strongPassword(),
      inviteCode,
    });

    expect(account.isAdmin).toBe(admin);
    const rows = await database.db.selectFrom("user_roles").selectAll().where("user_id", "=", account.userId).execute();
    expect(rows.map((row) => row.role)).toEqual(roles);
    expect(await isAdmin(database.db, account.userId)).toBe(admin);
  });
});
