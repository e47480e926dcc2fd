import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";

/**
 * Members' content (issue 21): who may see a video. `videos.visibility` is `everyone`, `members` or `groups` (the
 * groups in `content_groups` of kind "video"), as posts and pictures have since 0024. A restricted uploaded video's
 * file, and its poster's sizes, move to a member folder of random name (`videos.private_folder`; the poster's image
 * row names the same folder).
 *
 * The change events of videos (migration 0015: everyone while active) reach visitors only for a video they see: an
 * active members' video's go to members, a groups' video's to admins only (a member outside its groups must not
 * learn of it). The rule is restated here, not imported from 0015 or 0024: a shipped migration is frozen, and so is
 * this one.
 */

const AUDIENCE = (row: string) => `CASE WHEN ${row}.active AND ${row}.visibility = 'everyone' THEN 'everyone'
      WHEN ${row}.active AND ${row}.visibility = 'members' THEN 'members' ELSE 'admins' END`;

/** The wider of two audiences (an update tells whoever saw the row before or sees it after). */
const WIDER = (a: string, b: string) =>
  `CASE WHEN (${a}) = 'everyone' OR (${b}) = 'everyone' THEN 'everyone'
        WHEN (${a}) = 'members' OR (${b}) = 'members' THEN 'members' ELSE 'admins' END`;

const OPERATIONS = [
  ["insert", "NEW", AUDIENCE("NEW")],
  ["update", "NEW", WIDER(AUDIENCE("NEW"), AUDIENCE("OLD"))],
  ["delete", "OLD", AUDIENCE("OLD")],
] as const;

async function replaceSqliteTriggers(db: Kysely<unknown>) {
  for (const [op, row, audience] of OPERATIONS) {
    await sql.raw(`DROP TRIGGER IF EXISTS "videos_event_${op}"`).execute(db);
    await sql
      .raw(
        `CREATE TRIGGER "videos_event_${op}" AFTER ${op.toUpperCase()} ON "videos" BEGIN
          INSERT INTO change_events (area, action, entity_id, audience, created_at)
          VALUES ('videos', '${op}', CAST(${row}."id" AS TEXT), ${audience},
            strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
        END`,
      )
      .execute(db);
  }
}

/** The function 0015's deferred trigger calls, replaced: the trigger itself stays. */
async function replacePostgresFunction(db: Kysely<unknown>) {
  const branches = OPERATIONS.map(
    ([op, row, audience]) => `IF TG_OP = '${op.toUpperCase()}' THEN
        target := CAST(${row}."id" AS TEXT); audience := ${audience};
      END IF;`,
  ).join("\n");
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION vitrine_event_videos() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE target text; audience text;
      BEGIN
        ${branches}
        PERFORM pg_advisory_xact_lock(190019);
        INSERT INTO change_events (area, action, entity_id, audience, created_at)
          VALUES ('videos', lower(TG_OP), target, audience, now());
        PERFORM pg_notify('vitrine_events', '');
        RETURN NULL;
      END $$`,
    )
    .execute(db);
}

export function migration0025(kind: DatabaseKind): Record<string, Migration> {
  return {
    "0025_video_visibility": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable("videos")
          .addColumn("visibility", "text", (c) => c.notNull().defaultTo("everyone"))
          .execute();
        // Where a restricted uploaded video's file is (private/members/<folder>/): null while it has a public name.
        await db.schema.alterTable("videos").addColumn("private_folder", "text").execute();
        // Every file of /media/members/ asks which video a folder is: one indexed look-up, one video per folder.
        await db.schema
          .createIndex("videos_private_folder_idx")
          .on("videos")
          .column("private_folder")
          .unique()
          .execute();
        if (kind === "postgres") await replacePostgresFunction(db);
        else await replaceSqliteTriggers(db);
      },
    },
  };
}
