import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { columnTypes } from "./migration-support.server.ts";

/**
 * Who has a post open in the editor (issue 19, "editing together"): one row per open editor (a tab), refreshed by
 * its heartbeat, gone when it leaves or falls silent. A table, not the process's memory, so that admins on two
 * server processes see each other. No trigger: arrivals and departures record their change events themselves
 * (a heartbeat is no news). Not backed up, not shown to visitors. Never edit a migration that has shipped.
 */
export function migration0016(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0016_editor_presence": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("editor_presence")
          .addColumn("post_id", "text", (c) => c.notNull())
          .addColumn("tab", "text", (c) => c.notNull())
          .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
          .addColumn("seen_at", t.timestamp, (c) => c.notNull())
          .addPrimaryKeyConstraint("editor_presence_pk", ["post_id", "tab"])
          .execute();
        await db.schema.createIndex("editor_presence_seen_idx").on("editor_presence").column("seen_at").execute();
      },
    },
  };
}
