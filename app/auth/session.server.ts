import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";

/**
 * How long a session lasts after its sign-in, however much it is used: better-auth extends a session in use
 * (auth.server.ts), which alone would keep a stolen cookie working for ever. After this, sign in again.
 */
export const SESSION_ABSOLUTE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export function isPastAbsoluteLifetime(createdAt: Date | string, now: Date): boolean {
  return now.getTime() - new Date(createdAt).getTime() >= SESSION_ABSOLUTE_LIFETIME_MS;
}

/**
 * How stale a session's "last active" may get. better-auth writes `updatedAt` only when it extends a session (once a
 * day, auth.server.ts), which would make the sessions list say "yesterday" for a device in use now; writing on every
 * request would cost a write per page. Every five minutes is exact enough to tell devices apart.
 */
export const SESSION_ACTIVITY_STEP_MS = 5 * 60 * 1000;

/** Notes that a session was used now, unless it was noted less than SESSION_ACTIVITY_STEP_MS ago. */
export async function recordSessionActivity(
  db: Kysely<Database>,
  session: { id: string; updatedAt: Date | string },
  now: Date,
): Promise<void> {
  if (now.getTime() - new Date(session.updatedAt).getTime() < SESSION_ACTIVITY_STEP_MS) return;
  await db.updateTable("session").set({ updatedAt: now }).where("id", "=", session.id).execute();
}
