import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { columnTypes } from "./migration-support.server.ts";

/**
 * The counted limits that protect accounts and the contact form (issue 20, "Outgrow one machine"): failed
 * sign-ins per client address, reset requests per e-mail address, contact messages per client, sender and site,
 * and the contact form's spent tokens, one row per (scope, key) and window. In the database, not a process's
 * memory, so that every server process on the database counts the same attempts and a restart forgives nothing.
 *
 * No trigger and no change notification: no page shows it (change-areas.ts maps it to no area), so a password
 * guesser's writes neither record change events nor drop the page cache. The index on `reset_at` serves the sweep
 * of ended windows (app/auth/rate-limit.server.ts). Never edit a migration that has shipped: add a new one.
 */
export function migration0017(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0017_attempt_counts": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("attempt_counts")
          .addColumn("scope", "text", (c) => c.notNull())
          .addColumn("key", "text", (c) => c.notNull())
          .addColumn("failures", "integer", (c) => c.notNull())
          .addColumn("reset_at", t.timestamp, (c) => c.notNull())
          .addPrimaryKeyConstraint("attempt_counts_pk", ["scope", "key"])
          .execute();
        await db.schema.createIndex("attempt_counts_reset_idx").on("attempt_counts").column("reset_at").execute();
      },
    },
  };
}
