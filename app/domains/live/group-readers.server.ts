import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { GroupedKind } from "#app/domains/access/reader.ts";
import type { StoredChangeEvent } from "./change-events.server.ts";

/** The content an area's events name, where it may be for groups (migration 0030); `media` names a picture's image. */
const AREA_KINDS: Readonly<Record<string, GroupedKind>> = { posts: "post", gallery: "picture", videos: "video" };

/**
 * Who among the members may hear each `groups` event of `events`, by its seq: the accounts in the groups of the item
 * it names, as `content_groups` and `user_groups` say now (issue 42). Asked once per batch for every stream of the
 * process, at the moment of sending, so that a member taken out of a group hears nothing more of its items, and the
 * rule is the one of the pages (`readableBy`: a member of one of the item's groups). An event of an item that is
 * gone has no groups any more: admins alone hear of it, as before.
 */
export async function groupEventReaders(
  db: Kysely<Database>,
  events: readonly StoredChangeEvent[],
): Promise<Map<number, Set<string>>> {
  const wanted = events.filter((event) => event.audience === "groups" && event.id !== null);
  const readers = new Map<number, Set<string>>();
  if (wanted.length === 0) return readers;
  const itemReaders = new Map<string, Set<string>>();
  const add = (key: string, userId: string) => {
    const set = itemReaders.get(key) ?? new Set<string>();
    set.add(userId);
    itemReaders.set(key, set);
  };
  for (const [area, kind] of Object.entries(AREA_KINDS)) {
    const ids = [...new Set(wanted.filter((event) => event.area === area).map((event) => event.id as string))];
    if (ids.length === 0) continue;
    const rows = await db
      .selectFrom("content_groups as cg")
      .innerJoin("user_groups as ug", "ug.group_id", "cg.group_id")
      .select(["cg.item_id", "ug.user_id"])
      .where("cg.kind", "=", kind)
      .where("cg.item_id", "in", ids)
      .execute();
    for (const row of rows) add(`${area}:${row.item_id}`, row.user_id);
  }
  const images = [...new Set(wanted.filter((event) => event.area === "media").map((event) => event.id as string))];
  if (images.length > 0) {
    const rows = await db
      .selectFrom("gallery_images as g")
      .innerJoin("content_groups as cg", (join) => join.onRef("cg.item_id", "=", "g.id").on("cg.kind", "=", "picture"))
      .innerJoin("user_groups as ug", "ug.group_id", "cg.group_id")
      .select(["g.image_id", "ug.user_id"])
      .where("g.image_id", "in", images)
      .where("g.visibility", "=", "groups")
      .execute();
    for (const row of rows) add(`media:${row.image_id}`, row.user_id);
  }
  for (const event of wanted) {
    const users = itemReaders.get(`${event.area}:${event.id}`);
    if (users) readers.set(event.seq, users);
  }
  return readers;
}
