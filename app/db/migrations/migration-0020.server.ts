import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { columnTypes } from "./migration-support.server.ts";

/**
 * The outbox in the database (issue 20): without SMTP_URL a mail is filed as a row, not as a file in one process's
 * DATA_DIR/outbox, so that every server process's Outbox screen and the CLI show every mail. A row keeps the
 * complete RFC 822 text (`raw`, what would have been sent) and the few headers the list shows, read from it once.
 *
 * Filing and pruning record change events of the area "outbox" for the open Outbox screens, by triggers as in
 * migration 0015 (insert and delete only: a filed mail never changes), admins only, named by the mail's id, never
 * by its address. The functions of 0015 are not imported: a shipped migration is frozen, and so is this one.
 * Never edit a migration that has shipped: add a new one.
 */
const AREA = "outbox";

async function addSqliteTriggers(db: Kysely<unknown>) {
  for (const [op, row] of [
    ["insert", "NEW"],
    ["delete", "OLD"],
  ] as const) {
    await sql
      .raw(
        `CREATE TRIGGER "outbox_mails_event_${op}" AFTER ${op.toUpperCase()} ON "outbox_mails" BEGIN
          INSERT INTO change_events (area, action, entity_id, audience, created_at)
          VALUES ('${AREA}', '${op}', ${row}."id", 'admins', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
        END`,
      )
      .execute(db);
  }
}

/** Deferred to the commit under 0015's transaction lock, so that events keep their commit order (see 0015). */
async function addPostgresTriggers(db: Kysely<unknown>) {
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION vitrine_event_outbox_mails() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE target text;
      BEGIN
        IF TG_OP = 'DELETE' THEN target := OLD."id"; ELSE target := NEW."id"; END IF;
        PERFORM pg_advisory_xact_lock(190019);
        INSERT INTO change_events (area, action, entity_id, audience, created_at)
          VALUES ('${AREA}', lower(TG_OP), target, 'admins', now());
        PERFORM pg_notify('vitrine_events', '');
        RETURN NULL;
      END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE CONSTRAINT TRIGGER "outbox_mails_event" AFTER INSERT OR DELETE ON "outbox_mails"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION vitrine_event_outbox_mails()`,
    )
    .execute(db);
}

export function migration0020(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0020_outbox_mails": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("outbox_mails")
          // Its time, kind and some randomness, as the outbox's file names were (an imported file keeps its name).
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("recipient", "text", (c) => c.notNull())
          .addColumn("sender", "text", (c) => c.notNull())
          .addColumn("subject", "text", (c) => c.notNull())
          .addColumn("language", "text", (c) => c.notNull())
          .addColumn("filed_at", t.timestamp, (c) => c.notNull())
          .addColumn("raw", "text", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("outbox_mails_filed_idx").on("outbox_mails").column("filed_at").execute();
        if (kind === "postgres") await addPostgresTriggers(db);
        else await addSqliteTriggers(db);
      },
    },
  };
}
