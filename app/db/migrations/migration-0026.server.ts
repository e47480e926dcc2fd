import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { columnTypes } from "./migration-support.server.ts";

/**
 * Members' e-mail subscriptions to new content (issue 21; app/domains/subscriptions/):
 * - `member_subscriptions`: who asked to be mailed new posts (later albums), since when. The language of the mail is
 *   the account's own (`user.language`, set on /account), so it is not copied here.
 * - `announcements`: each item (by kind and id) that was announced, once: a post taken back and published again is
 *   not announced a second time. Written with the list of its recipients, in one transaction.
 * - `announcement_recipients`: who an announcement is for, one row per item and account (the primary key), and
 *   whether their mail was queued: the mail's job is written in the same transaction that marks the row, so a retry
 *   or a restart neither mails twice nor forgets anyone.
 * Posts already visible now count as announced: turning the feature on must not mail the whole archive.
 * Never edit a migration that has shipped: add a new one.
 */
export function migration0026(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0026_member_subscriptions": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("member_subscriptions")
          .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .addPrimaryKeyConstraint("member_subscriptions_pk", ["user_id", "kind"])
          .execute();
        await db.schema
          .createTable("announcements")
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("item_id", "text", (c) => c.notNull())
          .addColumn("announced_at", t.timestamp, (c) => c.notNull())
          .addPrimaryKeyConstraint("announcements_pk", ["kind", "item_id"])
          .execute();
        await db.schema
          .createTable("announcement_recipients")
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("item_id", "text", (c) => c.notNull())
          .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
          // pending: not decided yet; mailed: its mail's job is queued; skipped: unsubscribed or may not see it.
          .addColumn("state", "text", (c) => c.notNull())
          .addColumn("decided_at", t.timestamp)
          .addPrimaryKeyConstraint("announcement_recipients_pk", ["kind", "item_id", "user_id"])
          .execute();
        const now = kind === "postgres" ? sql`now()` : sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
        await sql`INSERT INTO announcements (kind, item_id, announced_at)
          SELECT 'post', id, ${now} FROM posts
          WHERE status IN ('published', 'scheduled') AND publish_at IS NOT NULL AND publish_at <= ${now}`.execute(db);
      },
    },
  };
}
