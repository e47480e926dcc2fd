import { describe, expect, it } from "vitest";
import { createUser } from "#tests/support/factories.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { issueAccountToken, sweepExpiredTokens } from "./account-tokens.server.ts";

const HOUR = 60 * 60_000;

describe.each(databaseKinds)("the token sweep (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("removes account tokens and pending verifications expired a day ago or more, and keeps the rest", async () => {
    const user = await createUser(database.db);
    const issuedAt = new Date("2026-11-01T12:00:00Z");
    // A reset link of an hour, and an e-mail change link of a day, both from the same moment.
    await issueAccountToken(database.db, { userId: user.id, purpose: "password-reset" }, issuedAt);
    await issueAccountToken(
      database.db,
      { userId: user.id, purpose: "email-change", newEmail: "new@example.com" },
      issuedAt,
    );
    const verification = (id: string, expiresAt: Date) => ({
      id,
      identifier: `two-factor-${id}`,
      value: "{}",
      expiresAt,
      createdAt: issuedAt,
      updatedAt: issuedAt,
    });
    await database.db
      .insertInto("verification")
      .values([
        verification("old", new Date(issuedAt.getTime() + HOUR)),
        verification("new", new Date(issuedAt.getTime() + 30 * HOUR)),
      ])
      .execute();

    // 26 hours on: the reset link and the first verification expired more than a day ago; the others did not.
    expect(await sweepExpiredTokens(database.db, new Date(issuedAt.getTime() + 26 * HOUR))).toBe(2);
    const tokens = await database.db.selectFrom("account_tokens").select("purpose").execute();
    expect(tokens.map((token) => token.purpose)).toEqual(["email-change"]);
    const verifications = await database.db.selectFrom("verification").select("id").execute();
    expect(verifications.map((row) => row.id)).toEqual(["new"]);
    expect(await sweepExpiredTokens(database.db, new Date(issuedAt.getTime() + 26 * HOUR))).toBe(0);
  });
});
