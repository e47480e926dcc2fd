import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { recordChangeEvent } from "#app/domains/live/change-events.server.ts";
import { type EditorPresence, PRESENCE_TIMEOUT_MS } from "./post-editor-form.ts";
import { displayNameOf } from "./post-rows.server.ts";

export { type EditorPresence, PRESENCE_TIMEOUT_MS };

/**
 * Notes that the editor in browser tab `tab` has post `postId` open for `userId`. An arrival records an admins-only
 * change event (the other editors then ask who is there); a heartbeat of a tab already present does not. Editors
 * silent for longer than the timeout are removed on the way, each removal an event too.
 */
export async function notePresence(
  db: Kysely<Database>,
  input: { postId: string; tab: string; userId: string },
  now = new Date(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await dropSilent(trx, now);
    const updated = await trx
      .updateTable("editor_presence")
      .set({ seen_at: now, user_id: input.userId })
      .where("post_id", "=", input.postId)
      .where("tab", "=", input.tab)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return;
    await trx
      .insertInto("editor_presence")
      .values({ post_id: input.postId, tab: input.tab, user_id: input.userId, seen_at: now })
      .execute();
    await recordChangeEvent(trx, { area: "presence", action: "insert", id: input.postId, audience: "admins" }, now);
  });
}

/** The editor in `tab` closed (or went elsewhere): it is gone at once, with an event when it was there. */
export async function leavePresence(
  db: Kysely<Database>,
  input: { postId: string; tab: string },
  now = new Date(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom("editor_presence")
      .where("post_id", "=", input.postId)
      .where("tab", "=", input.tab)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) > 0) {
      await recordChangeEvent(trx, { area: "presence", action: "delete", id: input.postId, audience: "admins" }, now);
    }
  });
}

/** The other editors that have post `postId` open now (not the asking tab), earliest first. */
export async function listPresence(
  db: Kysely<Database>,
  input: { postId: string; tab: string; userId: string },
  now = new Date(),
): Promise<EditorPresence[]> {
  const rows = await db
    .selectFrom("editor_presence as p")
    .innerJoin("user as u", "u.id", "p.user_id")
    .select(["p.user_id", "u.name", "u.email"])
    .where("p.post_id", "=", input.postId)
    .where("p.tab", "!=", input.tab)
    .where("p.seen_at", ">=", new Date(now.getTime() - PRESENCE_TIMEOUT_MS))
    .orderBy("p.seen_at")
    .execute();
  // One entry per person, however many tabs they have it open in.
  const people = new Map<string, EditorPresence>();
  for (const row of rows) {
    if (!people.has(row.user_id)) {
      people.set(row.user_id, { name: displayNameOf(row.name, row.email), you: row.user_id === input.userId });
    }
  }
  return [...people.values()];
}

async function dropSilent(trx: Kysely<Database>, now: Date): Promise<void> {
  const gone = await trx
    .deleteFrom("editor_presence")
    .where("seen_at", "<", new Date(now.getTime() - PRESENCE_TIMEOUT_MS))
    .returning("post_id")
    .execute();
  for (const postId of new Set(gone.map((row) => row.post_id))) {
    await recordChangeEvent(trx, { area: "presence", action: "delete", id: postId, audience: "admins" }, now);
  }
}
