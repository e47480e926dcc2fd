import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";

export type AccountListing = { email: string; isAdmin: boolean; createdAt: string; lastSignInAt: string | null };

/** Every account for the operator's `users list`, oldest first (the owner's usually at the top). */
export async function listAccounts(db: Kysely<Database>): Promise<AccountListing[]> {
  const [users, admins] = await Promise.all([
    db
      .selectFrom("user")
      .select(["id", "email", "createdAt", "lastSignInAt"])
      .orderBy("createdAt")
      .orderBy("email")
      .execute(),
    db.selectFrom("user_roles").select("user_id").where("role", "=", "admin").execute(),
  ]);
  const adminIds = new Set(admins.map((row) => row.user_id));
  return users.map((user) => ({
    email: user.email,
    isAdmin: adminIds.has(user.id),
    createdAt: toIsoString(user.createdAt),
    lastSignInAt: user.lastSignInAt === null ? null : toIsoString(user.lastSignInAt),
  }));
}

/** A plain table: one account a line, columns padded, times in UTC to the minute, "never" for no sign-in yet. */
export function formatAccountTable(accounts: AccountListing[]): string {
  const minute = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;
  const rows = [
    ["E-MAIL", "ADMIN", "CREATED", "LAST SIGN-IN"],
    ...accounts.map((account) => [
      account.email,
      account.isAdmin ? "yes" : "no",
      minute(account.createdAt),
      account.lastSignInAt ? minute(account.lastSignInAt) : "never",
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
