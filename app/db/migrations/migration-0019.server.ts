import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { columnTypes } from "./migration-support.server.ts";

/**
 * The fingerprint of the secret the site signs with (issue 20, "Outgrow one machine"): an HMAC of a fixed label
 * under AUTH_SECRET, never the secret itself (app/auth/auth-secret.server.ts). Several instances on one PostgreSQL
 * database must share one secret, or a session signed by one is refused by the next; a start whose secret gives
 * another fingerprint refuses to run. One row per named secret (only `auth` today); the first start records it.
 *
 * No trigger and no change notification: no page shows it (change-areas.ts maps it to no area). Not in backups
 * (tables.server.ts): the secret is not either, and a restored site records its own at its first start. Never
 * edit a migration that has shipped: add a new one.
 */
export function migration0019(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0019_secret_fingerprints": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("secret_fingerprints")
          .addColumn("name", "text", (c) => c.primaryKey())
          .addColumn("fingerprint", "text", (c) => c.notNull())
          .addColumn("recorded_at", t.timestamp, (c) => c.notNull())
          .execute();
      },
    },
  };
}
