import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { addChangeNotifications, columnTypes } from "./migration-support.server.ts";

/**
 * Members' content (issue 21), its first part: who may see a post or a gallery picture. Each has a `visibility`: `everyone`,
 * `members` (any signed-in account) or `groups` (the groups named in `content_groups`). Groups are named by the
 * admin (`member_groups`); an account's groups are in `user_groups`, an invite code's (joined at sign-up) in
 * `invite_groups`. `content_groups` names its content by kind
 * and id, so that pictures, albums and videos join it later without a table each.
 *
 * The change events of posts, gallery pictures and their images (migration 0015) are sent to everyone only for what
 * visitors see: a members' item's to members, a groups' item's to admins only (a member outside its groups must not
 * learn of it). A restricted picture's files move to names of their own (`images.private_folder`). The rule of
 * 0015 is restated here, not imported: a shipped migration is frozen, and so is this one.
 */

/** Who hears of a change of a row (`R` for NEW or OLD) of each restrictable table: its audience in SQL. */
const AUDIENCES: { table: string; area: string; audience: (row: string) => string }[] = [
  {
    table: "posts",
    area: "posts",
    audience: (row) => `CASE WHEN ${row}.status = 'published' AND ${row}.visibility = 'everyone' THEN 'everyone'
      WHEN ${row}.status = 'published' AND ${row}.visibility = 'members' THEN 'members' ELSE 'admins' END`,
  },
  {
    table: "gallery_images",
    area: "gallery",
    audience: (row) => `CASE WHEN ${row}.published AND ${row}.visibility = 'everyone' THEN 'everyone'
      WHEN ${row}.published AND ${row}.visibility = 'members' THEN 'members' ELSE 'admins' END`,
  },
  {
    // A picture's sizes made in the background: heard by whoever sees a published gallery picture of it.
    table: "images",
    area: "media",
    audience: (row) => `CASE
      WHEN EXISTS (SELECT 1 FROM gallery_images g WHERE g.image_id = ${row}.id AND g.published
        AND g.visibility = 'everyone') THEN 'everyone'
      WHEN EXISTS (SELECT 1 FROM gallery_images g WHERE g.image_id = ${row}.id AND g.published
        AND g.visibility = 'members') THEN 'members' ELSE 'admins' END`,
  },
];

/** The wider of two audiences (an update tells whoever saw the row before or sees it after). */
const WIDER = (a: string, b: string) =>
  `CASE WHEN (${a}) = 'everyone' OR (${b}) = 'everyone' THEN 'everyone'
        WHEN (${a}) = 'members' OR (${b}) = 'members' THEN 'members' ELSE 'admins' END`;

function operations(audience: (row: string) => string) {
  return [
    ["insert", "NEW", audience("NEW")],
    ["update", "NEW", WIDER(audience("NEW"), audience("OLD"))],
    ["delete", "OLD", audience("OLD")],
  ] as const;
}

async function replaceSqliteTriggers(db: Kysely<unknown>, source: (typeof AUDIENCES)[number]) {
  for (const [op, row, audience] of operations(source.audience)) {
    await sql.raw(`DROP TRIGGER IF EXISTS "${source.table}_event_${op}"`).execute(db);
    await sql
      .raw(
        `CREATE TRIGGER "${source.table}_event_${op}" AFTER ${op.toUpperCase()} ON "${source.table}" BEGIN
          INSERT INTO change_events (area, action, entity_id, audience, created_at)
          VALUES ('${source.area}', '${op}', CAST(${row}."id" AS TEXT), ${audience},
            strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
        END`,
      )
      .execute(db);
  }
}

/** The function 0015's deferred trigger calls, replaced: the trigger itself stays. */
async function replacePostgresFunction(db: Kysely<unknown>, source: (typeof AUDIENCES)[number]) {
  const branches = operations(source.audience)
    .map(
      ([op, row, audience]) => `IF TG_OP = '${op.toUpperCase()}' THEN
        target := CAST(${row}."id" AS TEXT); audience := ${audience};
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
}

export function migration0024(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0024_member_groups": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("member_groups")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("name", "text", (c) => c.notNull().unique())
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("user_groups")
          .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
          .addColumn("group_id", "text", (c) => c.notNull().references("member_groups.id").onDelete("cascade"))
          .addPrimaryKeyConstraint("user_groups_pk", ["user_id", "group_id"])
          .execute();
        // The groups an invite code gives: its account joins them at sign-up, in the transaction that uses the code.
        await db.schema
          .createTable("invite_groups")
          .addColumn("code", "text", (c) => c.notNull().references("invite_codes.code").onDelete("cascade"))
          .addColumn("group_id", "text", (c) => c.notNull().references("member_groups.id").onDelete("cascade"))
          .addPrimaryKeyConstraint("invite_groups_pk", ["code", "group_id"])
          .execute();
        await db.schema
          .createTable("content_groups")
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("item_id", "text", (c) => c.notNull())
          .addColumn("group_id", "text", (c) => c.notNull().references("member_groups.id").onDelete("cascade"))
          .addPrimaryKeyConstraint("content_groups_pk", ["kind", "item_id", "group_id"])
          .execute();
        // Share links (a post, later an album, for someone without an account): the token's SHA-256 only.
        await db.schema
          .createTable("share_links")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("item_id", "text", (c) => c.notNull())
          .addColumn("token_hash", "text", (c) => c.notNull().unique())
          .addColumn("password_hash", "text")
          .addColumn("expires_at", t.timestamp)
          // No foreign key: a link belongs to its content, not to the admin who made it (it outlives the account).
          .addColumn("created_by", "text", (c) => c.notNull())
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .addColumn("revoked_at", t.timestamp)
          .addColumn("last_used_at", t.timestamp)
          .execute();
        await db.schema.createIndex("share_links_item_idx").on("share_links").columns(["kind", "item_id"]).execute();
        // When a member's last visit ended (a request after 30 minutes without one starts a new visit): what the
        // home page calls "new for you" is what appeared since.
        await db.schema
          .createTable("member_visits")
          .addColumn("user_id", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
          .addColumn("last_visit_ended_at", t.timestamp, (c) => c.notNull())
          .execute();
        for (const table of ["posts", "gallery_images"]) {
          await db.schema
            .alterTable(table)
            .addColumn("visibility", "text", (c) => c.notNull().defaultTo("everyone"))
            .execute();
        }
        // Where a restricted picture's files are (private/members/<folder>/): null while they have public names.
        await db.schema.alterTable("images").addColumn("private_folder", "text").execute();
        // Every file of /media/members/ asks which picture a folder is: one indexed look-up, one image per folder.
        await db.schema
          .createIndex("images_private_folder_idx")
          .on("images")
          .column("private_folder")
          .unique()
          .execute();
        for (const source of AUDIENCES) {
          if (kind === "postgres") await replacePostgresFunction(db, source);
          else await replaceSqliteTriggers(db, source);
        }
        await addChangeNotifications(db, kind, [
          "member_groups",
          "user_groups",
          "content_groups",
          "invite_groups",
          "share_links",
        ]);
      },
    },
  };
}
