import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import { CHANGE_CHANNEL, type DatabaseKind } from "../database.server.ts";

/* What the migrations share: column types per database kind and the change notifications of PostgreSQL. */

export type ColumnTypes = { timestamp: "text" | "timestamptz"; boolean: "integer" | "boolean" };

export function columnTypes(kind: DatabaseKind): ColumnTypes {
  return kind === "postgres"
    ? { timestamp: "timestamptz", boolean: "boolean" }
    : { timestamp: "text", boolean: "integer" };
}

/** The tables whose commits PostgreSQL announces (see `addChangeNotifications`); new shown tables join here. */
export const NOTIFYING_TABLES_0003 = [
  "user",
  "account",
  "site_settings",
  "user_roles",
  "invite_codes",
  "images",
  "gallery_images",
  "links",
  "faq_entries",
  "videos",
] as const;

/**
 * PostgreSQL announces every commit that changes one of `tables` on CHANGE_CHANNEL, so that each server's caches
 * learn of writes by other processes (SQLite needs nothing: its `data_version` tells). A new table that pages
 * show gets the same in its own migration.
 */
export async function addChangeNotifications(db: Kysely<unknown>, kind: DatabaseKind, tables: readonly string[]) {
  if (kind !== "postgres") return;
  await sql`CREATE OR REPLACE FUNCTION vitrine_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify(${sql.lit(CHANGE_CHANNEL)}, TG_TABLE_NAME); RETURN NULL; END $$`.execute(db);
  for (const table of tables) {
    await sql`CREATE TRIGGER ${sql.id(`${table}_notify_change`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON ${sql.id(table)} FOR EACH STATEMENT EXECUTE FUNCTION vitrine_notify_change()`.execute(db);
  }
}

/** The migrations for one kind of database, by name (applied in name order). */
export type MigrationSet = (kind: DatabaseKind) => Record<string, Migration>;

/**
 * SQLite: the triggers that keep the search index's FTS5 table (`search_fts`, external content) in step with
 * `search_documents`, FTS5's documented pattern (migrations 0022, 0023 and 0028, which rebuild the table or its rows
 * and make them again). Never change what this makes: a change of the triggers is a new migration of its own.
 */
export async function createSearchFtsTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TRIGGER search_documents_fts_insert AFTER INSERT ON search_documents BEGIN
    INSERT INTO search_fts (rowid, title_terms, terms) VALUES (new.id, new.title_terms, new.terms);
  END`.execute(db);
  await sql`CREATE TRIGGER search_documents_fts_delete AFTER DELETE ON search_documents BEGIN
    INSERT INTO search_fts (search_fts, rowid, title_terms, terms)
      VALUES ('delete', old.id, old.title_terms, old.terms);
  END`.execute(db);
  await sql`CREATE TRIGGER search_documents_fts_update AFTER UPDATE ON search_documents BEGIN
    INSERT INTO search_fts (search_fts, rowid, title_terms, terms)
      VALUES ('delete', old.id, old.title_terms, old.terms);
    INSERT INTO search_fts (rowid, title_terms, terms) VALUES (new.id, new.title_terms, new.terms);
  END`.execute(db);
}

/** SQLite: drops the triggers `createSearchFtsTriggers` makes (they name `search_fts`). */
export async function dropSearchFtsTriggers(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ["insert", "delete", "update"])
    await sql`DROP TRIGGER ${sql.id(`search_documents_fts_${trigger}`)}`.execute(db);
}

/** Each operation's row (`NEW` or `OLD`) and the SQL of its event's audience. */
export type EventOperations = readonly (readonly ["insert" | "update" | "delete", "NEW" | "OLD", string])[];

/**
 * The change events of a table (migration 0015) with new audiences, for a migration that changes who hears of its
 * rows (0030 and later; 0024 and 0025 wrote the same by hand before this existed, and stay as they shipped): on
 * SQLite the table's three triggers are made again, on PostgreSQL the function 0015's deferred trigger calls is
 * replaced (the trigger itself stays). What this makes must not change: a new rule is a new migration's.
 */
export async function replaceEventTriggers(
  db: Kysely<unknown>,
  kind: DatabaseKind,
  source: { table: string; area: string; operations: EventOperations; id?: string },
): Promise<void> {
  const id = source.id ?? "id";
  if (kind === "postgres") {
    const branches = source.operations
      .map(
        ([op, row, audience]) => `IF TG_OP = '${op.toUpperCase()}' THEN
        target := CAST(${row}."${id}" AS TEXT); audience := ${audience};
      END IF;`,
      )
      .join("\n");
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION vitrine_event_${source.table}() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE target text; audience text;
      BEGIN
        ${branches}
        PERFORM pg_advisory_xact_lock(190019);
        INSERT INTO change_events (area, action, entity_id, audience, created_at)
          VALUES ('${source.area}', lower(TG_OP), target, audience, now());
        PERFORM pg_notify('vitrine_events', '');
        RETURN NULL;
      END $$`,
      )
      .execute(db);
    return;
  }
  for (const [op, row, audience] of source.operations) {
    await sql.raw(`DROP TRIGGER IF EXISTS "${source.table}_event_${op}"`).execute(db);
    await sql
      .raw(
        `CREATE TRIGGER "${source.table}_event_${op}" AFTER ${op.toUpperCase()} ON "${source.table}" BEGIN
          INSERT INTO change_events (area, action, entity_id, audience, created_at)
          VALUES ('${source.area}', '${op}', CAST(${row}."${id}" AS TEXT), ${audience},
            strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
        END`,
      )
      .execute(db);
  }
}
