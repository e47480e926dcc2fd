import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { columnTypes } from "./migration-support.server.ts";

/**
 * When visitors last could notice a change in each area (issue 42): the sitemap's `<lastmod>` of a page is the last
 * change of what that page shows a visitor. Until here it was the newest `updated_at` and audit entry of an area
 * whatever the row's audience, so editing a Family-only picture's description moved the gallery's `<lastmod>`: a
 * visitor learnt that something hidden had changed. The change events (migrations 0015, 0024, 0025) already say per
 * write who may notice it, and are kept a day only; this keeps, per area, the time of the newest event for
 * everyone, written by a trigger in the write's own transaction, so no write can forget it (a deletion or a
 * restriction of something visitors saw included). Never edit a migration that has shipped: add a new one.
 */
export function migration0029(kind: DatabaseKind): Record<string, Migration> {
  const types = columnTypes(kind);
  return {
    "0029_public_changes": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("public_changes")
          .addColumn("area", "text", (c) => c.primaryKey())
          .addColumn("changed_at", types.timestamp, (c) => c.notNull())
          .execute();
        if (kind === "postgres") {
          await sql`CREATE FUNCTION vitrine_public_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              INSERT INTO public_changes (area, changed_at) VALUES (NEW.area, NEW.created_at)
                ON CONFLICT (area) DO UPDATE SET changed_at = GREATEST(public_changes.changed_at, EXCLUDED.changed_at);
              RETURN NULL;
            END $$`.execute(db);
          await sql`CREATE TRIGGER public_changes_stamp AFTER INSERT ON change_events FOR EACH ROW
            WHEN (NEW.audience = 'everyone') EXECUTE FUNCTION vitrine_public_change()`.execute(db);
        } else {
          // ISO texts of one form compare as the times they are; max() keeps the newer one.
          await sql`CREATE TRIGGER public_changes_stamp AFTER INSERT ON change_events
            WHEN NEW.audience = 'everyone' BEGIN
              INSERT INTO public_changes (area, changed_at) VALUES (NEW.area, NEW.created_at)
                ON CONFLICT (area) DO UPDATE SET changed_at = max(public_changes.changed_at, excluded.changed_at);
            END`.execute(db);
        }
      },
    },
  };
}
