import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { replaceEventTriggers } from "./migration-support.server.ts";

/**
 * Settings only the admin side reads, at this migration (the registry's `visitors: false`): their changes are told
 * to admins alone. 0015 knew the first three; the statistics' two are new here.
 */
const ADMIN_ONLY_SETTINGS_0032 = [
  "meta_og_url",
  "contact_email",
  "admin_require_two_factor",
  "statistics_enabled",
  "statistics_retention_days",
];
const shown = (row: string) => `${row}.key NOT IN (${ADMIN_ONLY_SETTINGS_0032.map((key) => `'${key}'`).join(", ")})`;

/**
 * Statistics without cookies (issue 46): what the site keeps of its visits, per day (UTC), as sums. No row holds an
 * address, a user agent or an account. `stats_daily` counts views, unique visitors and members' views of each key
 * of each kind (a page, a picture opened, a referring host, a language, a device class, a broken link, a search);
 * `stats_seen` knows today's visitors by a hash made with `stats_salts`' salt of the day, so that several instances
 * and restarts count a visitor once; yesterday's salt and hashes are deleted when the day is over, and with the salt
 * gone no hash can be tied to an address again. Never edit a migration that has shipped: add a new one.
 */
export function migration0032(kind: DatabaseKind): Record<string, Migration> {
  return {
    "0032_statistics": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("stats_daily")
          .addColumn("day", "text", (c) => c.notNull())
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("key", "text", (c) => c.notNull())
          .addColumn("views", "bigint", (c) => c.notNull().defaultTo(0))
          .addColumn("visitors", "bigint", (c) => c.notNull().defaultTo(0))
          .addColumn("member_views", "bigint", (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint("stats_daily_pk", ["day", "kind", "key"])
          .execute();
        // The statistics screen reads a range of days of one kind: the key's order (day first) would scan every kind.
        await db.schema.createIndex("stats_daily_kind_day_idx").on("stats_daily").columns(["kind", "day"]).execute();
        await db.schema
          .createTable("stats_seen")
          .addColumn("day", "text", (c) => c.notNull())
          .addColumn("visitor", "text", (c) => c.notNull())
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("key", "text", (c) => c.notNull())
          .addPrimaryKeyConstraint("stats_seen_pk", ["day", "visitor", "kind", "key"])
          .execute();
        await db.schema
          .createTable("stats_salts")
          .addColumn("day", "text", (c) => c.primaryKey())
          .addColumn("salt", "text", (c) => c.notNull())
          .execute();
        await replaceEventTriggers(db, kind, {
          table: "site_settings",
          area: "settings",
          id: "key",
          operations: [
            ["insert", "NEW", `CASE WHEN ${shown("NEW")} THEN 'everyone' ELSE 'admins' END`],
            ["update", "NEW", `CASE WHEN ${shown("NEW")} OR ${shown("OLD")} THEN 'everyone' ELSE 'admins' END`],
            ["delete", "OLD", `CASE WHEN ${shown("OLD")} THEN 'everyone' ELSE 'admins' END`],
          ],
        });
      },
    },
  };
}
