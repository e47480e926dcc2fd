import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { type EventOperations, replaceEventTriggers } from "./migration-support.server.ts";

/**
 * Members hear live of their groups' items (issue 42). Since 0024 and 0025 a change to an item for a group (a Family
 * picture, post or video) was sent to admins only, so a Family member's open gallery never offered the new Family
 * picture. From here its audience is `groups`: the server sends it to admins and, at the moment of sending, to the
 * members of the item's groups as `content_groups` and `user_groups` then say (server/event-streams.ts asks
 * app/domains/live/group-readers.server.ts), so someone taken out of the group hears nothing more of it. An update
 * tells the wider of before and after: everyone, then members, then the groups, then admins.
 *
 * The rules of 0024 and 0025 are restated here, not imported: a shipped migration is frozen, and so is this one.
 */

const shown = (row: string, condition: string, visibility: string) =>
  `${condition} AND ${row}.visibility = '${visibility}'`;

/** Who hears of a change of a row (`R` for NEW or OLD) of each restrictable table, by the table's own "shown". */
const SOURCES: { table: string; area: string; audience: (row: string) => string }[] = [
  ...(
    [
      ["posts", "posts", (row: string) => `${row}.status = 'published'`],
      ["gallery_images", "gallery", (row: string) => `${row}.published`],
      ["videos", "videos", (row: string) => `${row}.active`],
    ] as const
  ).map(([table, area, condition]) => ({
    table,
    area,
    audience: (row: string) => `CASE WHEN ${shown(row, condition(row), "everyone")} THEN 'everyone'
      WHEN ${shown(row, condition(row), "members")} THEN 'members'
      WHEN ${shown(row, condition(row), "groups")} THEN 'groups' ELSE 'admins' END`,
  })),
  {
    // A picture's sizes made in the background: heard by whoever sees a published gallery picture of it.
    table: "images",
    area: "media",
    audience: (row) => {
      const picture = (visibility: string) => `EXISTS (SELECT 1 FROM gallery_images g WHERE g.image_id = ${row}.id
        AND g.published AND g.visibility = '${visibility}')`;
      return `CASE WHEN ${picture("everyone")} THEN 'everyone' WHEN ${picture("members")} THEN 'members'
        WHEN ${picture("groups")} THEN 'groups' ELSE 'admins' END`;
    },
  },
];

const RANK = `CASE $ WHEN 'everyone' THEN 3 WHEN 'members' THEN 2 WHEN 'groups' THEN 1 ELSE 0 END`;

/** The wider of two audiences (an update tells whoever saw the row before or sees it after). */
const WIDER = (a: string, b: string) =>
  `CASE WHEN (${RANK.replace("$", `(${a})`)}) >= (${RANK.replace("$", `(${b})`)}) THEN (${a}) ELSE (${b}) END`;

function operations(audience: (row: string) => string): EventOperations {
  return [
    ["insert", "NEW", audience("NEW")],
    ["update", "NEW", WIDER(audience("NEW"), audience("OLD"))],
    ["delete", "OLD", audience("OLD")],
  ];
}

export function migration0030(kind: DatabaseKind): Record<string, Migration> {
  return {
    "0030_group_event_audience": {
      async up(db: Kysely<unknown>) {
        for (const source of SOURCES) {
          await replaceEventTriggers(db, kind, { ...source, operations: operations(source.audience) });
        }
      },
    },
  };
}
