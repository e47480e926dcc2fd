import { describe, expect, it } from "vitest";
import { findInviteCode } from "#app/domains/invites/invites.server.ts";
import { createInvite, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { SignUpError, signUpWithInvite } from "./users.server.ts";

describe.each(databaseKinds)("twenty simultaneous sign-ups with one invite code (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("creates exactly one account; the other nineteen get 'invalid invite code'", async () => {
    const code = await createInvite(database.db);
    const emails = Array.from({ length: 20 }, (_, i) => uniqueEmail(`racer${i}`));

    const results = await Promise.allSettled(
      emails.map((email) => signUpWithInvite(database.db, { email, password: strongPassword(), inviteCode: code })),
    );

    const winners = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    const losers = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(19);
    for (const reason of losers) {
      expect(reason).toBeInstanceOf(SignUpError);
      expect((reason as SignUpError).problem).toBe("inviteInvalid");
    }

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
