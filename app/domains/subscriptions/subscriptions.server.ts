import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { AnnouncedKind } from "#app/db/schema-members.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { verifyUnsubscribeToken } from "./unsubscribe-token.server.ts";

/*
 * Members' subscriptions to new content by e-mail (issue 21): off until the member turns them on at /account; off
 * again by the same switch or by the link in every such mail. Only the wish is kept; who is mailed what is decided
 * when an item is announced (announcements.server.ts), by the visibility rule.
 */

export type { AnnouncedKind };

/** Whether the account is mailed new items of `kind`. */
export async function isSubscribed(db: Kysely<Database>, userId: string, kind: AnnouncedKind): Promise<boolean> {
  const row = await db
    .selectFrom("member_subscriptions")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Turns the account's subscriptions to `kinds` (the account page's one switch: posts and albums) on or off, with one
 * audit entry; the same wish twice changes nothing (nor the date it began). Answers whether it changed.
 */
export async function setSubscription(
  db: Kysely<Database>,
  actor: AuditActor,
  kinds: AnnouncedKind | readonly AnnouncedKind[],
  on: boolean,
  now: Date = new Date(),
): Promise<boolean> {
  const list = typeof kinds === "string" ? [kinds] : kinds;
  return db.transaction().execute(async (trx) => {
    let changed = false;
    for (const kind of list) {
      const one = on
        ? await trx
            .insertInto("member_subscriptions")
            .values({ user_id: actor.id, kind, created_at: now })
            .onConflict((oc) => oc.columns(["user_id", "kind"]).doNothing())
            .executeTakeFirst()
            .then((result) => Number(result.numInsertedOrUpdatedRows ?? 0) > 0)
        : await trx
            .deleteFrom("member_subscriptions")
            .where("user_id", "=", actor.id)
            .where("kind", "=", kind)
            .executeTakeFirst()
            .then((result) => Number(result.numDeletedRows) > 0);
      changed ||= one;
    }
    if (changed) {
      await recordAudit(trx, actor, {
        action: on ? "account.subscribe" : "account.unsubscribe",
        target: actor.email,
        newValue: on ? list.join(",") : "page",
      });
    }
    return changed;
  });
}

/**
 * The one-click unsubscribe of a mail's link: every subscription of the account the token names ends (audited, by
 * the account itself). False for a token that names no account of this site (forged, or of another AUTH_SECRET):
 * then nothing changes. An account already unsubscribed, or gone, answers true: the link did what it says.
 */
export async function unsubscribeByToken(db: Kysely<Database>, secret: string, token: string): Promise<boolean> {
  const userId = verifyUnsubscribeToken(secret, token);
  if (userId === null) return false;
  await db.transaction().execute(async (trx) => {
    const account = await trx.selectFrom("user").select(["id", "email"]).where("id", "=", userId).executeTakeFirst();
    const removed = await trx.deleteFrom("member_subscriptions").where("user_id", "=", userId).executeTakeFirst();
    if (account && Number(removed.numDeletedRows) > 0) {
      await recordAudit(trx, account, { action: "account.unsubscribe", target: account.email, newValue: "link" });
    }
  });
  return true;
}
