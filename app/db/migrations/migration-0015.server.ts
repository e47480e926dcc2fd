import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { columnTypes } from "./migration-support.server.ts";

/**
 * Change events (issue 19): every committed write a person could notice records `{seq, area, action, id,
 * audience}` in `change_events`, in the write's own transaction, by a trigger on the written table. Triggers, not
 * calls in each service: no write can forget its event (the CLI's and a restore's included), and the event commits
 * or rolls back with the write. Never edit a migration that has shipped: add a new one (see ../migrations.server.ts).
 */

/** The channel PostgreSQL notifies after a commit that recorded events (a hint: the table is the record). */
export const EVENT_CHANNEL_0015 = "vitrine_events";

/** Settings only the admin side reads, at this migration (the registry's `visitors: false`); the rest are shown. */
const ADMIN_ONLY_SETTINGS_0015 = ["meta_og_url", "contact_email", "admin_require_two_factor"];

type EventSource = {
  table: string;
  area: string;
  /** The row's id column; null when the key itself is a secret (an invite's code). */
  id: string | null;
  /** A SQL condition on the row (`R` stands for NEW or OLD) under which visitors see it; null: never. */
  shown: string | null;
  /** Who may receive the event when the row is not shown: admins, or nobody (server-internal). */
  otherwise?: "admins" | "nobody";
  /** Only these operations (default: all three). */
  ops?: readonly ("insert" | "update" | "delete")[];
};

const admins = ADMIN_ONLY_SETTINGS_0015.map((key) => `'${key}'`).join(", ");

const SOURCES_0015: readonly EventSource[] = [
  { table: "gallery_images", area: "gallery", id: "id", shown: "R.published" },
  // A picture's sizes made in the background: visitors see a published gallery picture only once it is ready.
  {
    table: "images",
    area: "media",
    id: "id",
    shown: "EXISTS (SELECT 1 FROM gallery_images g WHERE g.image_id = R.id AND g.published)",
  },
  { table: "links", area: "links", id: "id", shown: "R.active" },
  { table: "faq_entries", area: "faq", id: "id", shown: "R.active" },
  { table: "videos", area: "videos", id: "id", shown: "R.active" },
  // Scheduled posts become published by the scheduler's write, which is their event.
  { table: "posts", area: "posts", id: "id", shown: "R.status = 'published'" },
  { table: "site_settings", area: "settings", id: "key", shown: `R.key NOT IN (${admins})` },
  { table: "invite_codes", area: "invites", id: null, shown: null },
  { table: "user", area: "users", id: "id", shown: null },
  { table: "user_roles", area: "users", id: "user_id", shown: null },
  // A session ending tells the server to look at the streams of that user again; it is never sent.
  { table: "session", area: "sessions", id: "userId", shown: null, otherwise: "nobody", ops: ["delete"] },
  { table: "audit_log", area: "audit", id: "id", shown: null },
  { table: "mail_failures", area: "mail", id: "id", shown: null },
  { table: "contact_messages", area: "messages", id: "id", shown: null },
];

const ALL_OPS = ["insert", "update", "delete"] as const;

/** The audience of one operation: visitors' when the row is shown before or after it. */
function audienceSql(source: EventSource, op: string, isPostgres: boolean): string {
  const otherwise = `'${source.otherwise ?? "admins"}'`;
  if (!source.shown) return otherwise;
  const truthy = (row: string) => {
    const condition = (source.shown as string).replaceAll("R.", `${row}.`);
    return isPostgres ? `coalesce((${condition})::boolean, false)` : `coalesce((${condition}), 0)`;
  };
  const rows = op === "insert" ? ["NEW"] : op === "delete" ? ["OLD"] : ["NEW", "OLD"];
  return `CASE WHEN ${rows.map(truthy).join(" OR ")} THEN 'everyone' ELSE ${otherwise} END`;
}

function idSql(source: EventSource, row: string): string {
  return source.id ? `CAST(${row}."${source.id}" AS TEXT)` : "NULL";
}

async function addSqliteTriggers(db: Kysely<unknown>, source: EventSource) {
  for (const op of source.ops ?? ALL_OPS) {
    const row = op === "delete" ? "OLD" : "NEW";
    await sql
      .raw(
        `CREATE TRIGGER "${source.table}_event_${op}" AFTER ${op.toUpperCase()} ON "${source.table}" BEGIN
          INSERT INTO change_events (area, action, entity_id, audience, created_at)
          VALUES ('${source.area}', '${op}', ${idSql(source, row)}, ${audienceSql(source, op, false)},
            strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
        END`,
      )
      .execute(db);
  }
}

/**
 * On PostgreSQL the trigger is deferred to the commit and takes one transaction lock first, so events get their
 * seq in commit order: a reader that has seen seq N never later meets a smaller one committed after (a sequence
 * alone hands out numbers in the order of the inserts, not of the commits). Taken at the commit, the lock is
 * held for a moment and by a transaction that waits for nothing else, so it cannot deadlock.
 */
async function addPostgresTriggers(db: Kysely<unknown>, source: EventSource) {
  const ops = source.ops ?? ALL_OPS;
  const branch = (op: string) => {
    const row = op === "delete" ? "OLD" : "NEW";
    return `IF TG_OP = '${op.toUpperCase()}' THEN
        target := ${idSql(source, row)}; audience := ${audienceSql(source, op, true)};
      END IF;`;
  };
  const fn = `vitrine_event_${source.table}`;
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE target text; audience text;
      BEGIN
        ${ops.map(branch).join("\n")}
        PERFORM pg_advisory_xact_lock(190019);
        INSERT INTO change_events (area, action, entity_id, audience, created_at)
          VALUES ('${source.area}', lower(TG_OP), target, audience, now());
        PERFORM pg_notify('${EVENT_CHANNEL_0015}', '');
        RETURN NULL;
      END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE CONSTRAINT TRIGGER "${source.table}_event" AFTER ${ops.map((op) => op.toUpperCase()).join(" OR ")}
        ON "${source.table}" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
    )
    .execute(db);
}

export function migration0015(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0015_change_events": {
      async up(db: Kysely<unknown>) {
        let table = db.schema.createTable("change_events");
        table =
          kind === "postgres"
            ? table.addColumn("seq", "bigserial", (c) => c.primaryKey())
            : table.addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement());
        await table
          .addColumn("area", "text", (c) => c.notNull())
          .addColumn("action", "text", (c) => c.notNull())
          .addColumn("entity_id", "text")
          .addColumn("audience", "text", (c) => c.notNull())
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .execute();
        await db.schema.createIndex("change_events_created_idx").on("change_events").column("created_at").execute();
        for (const source of SOURCES_0015) {
          if (kind === "postgres") await addPostgresTriggers(db, source);
          else await addSqliteTriggers(db, source);
        }
      },
    },
  };
}
