import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { Language } from "#app/i18n/i18n.ts";

/**
 * After every successful sign-in (the password step, or the last step when there are more): when it happened, and the
 * language the person used, which their mails are written in from now on.
 */
export async function recordSignIn(db: Kysely<Database>, userId: string, language: Language, now = new Date()) {
  await db.updateTable("user").set({ lastSignInAt: now, language }).where("id", "=", userId).execute();
}
