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
