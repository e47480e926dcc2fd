import { type Expression, type Kysely, type SqlBool, sql, type Transaction } from "kysely";
import type { ContentVisibility, Database } from "#app/db/schema.ts";
import type { GroupedKind, Reader } from "./reader.ts";

/*
 * The one visibility rule (issue 21, docs/decisions/016-who-may-see-what.md), in SQL: every read of restricted
 * content for a page, a list, a feed, the sitemap or a search goes through `readableBy`. It decides by who reads,
 * never by where: a surface cannot ask for less.
 */

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Whether `reader` may see the row `alias` (a table with `id` and `visibility`) of content `kind`: a visitor only
 * what is for everyone; a member also what is for members, and what is for a group they belong to; an admin all.
 * Only the visibility: a draft or a hidden row is its own table's rule, kept beside this one.
 */
export function readableBy(reader: Reader, kind: GroupedKind, alias: string): Expression<SqlBool> {
  const visibility = sql.ref(`${alias}.visibility`);
  if (reader.kind === "admin") return sql<SqlBool>`1 = 1`;
  if (reader.kind === "visitor") return sql<SqlBool>`${visibility} = 'everyone'`;
  const open = sql<SqlBool>`${visibility} in ('everyone', 'members')`;
  if (reader.groupIds.length === 0) return open;
  const groups = sql.join(reader.groupIds.map((id) => sql`${id}`));
  return sql<SqlBool>`(${open} or (${visibility} = 'groups' and exists (
    select 1 from content_groups cg
    where cg.kind = ${kind} and cg.item_id = ${sql.ref(`${alias}.id`)} and cg.group_id in (${groups}))))`;
}

/** The ids of the groups an account belongs to (read once per request with the session). */
export async function groupIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom("user_groups").select("group_id").where("user_id", "=", userId).execute();
  return rows.map((row) => row.group_id).sort();
}

/** The groups of these items, by item id, with their names (for the badges and the editor). */
export async function groupsOfItems(
  db: Db,
  kind: GroupedKind,
  ids: readonly string[],
): Promise<Map<string, { id: string; name: string }[]>> {
  const groups = new Map<string, { id: string; name: string }[]>();
  if (ids.length === 0) return groups;
  const rows = await db
    .selectFrom("content_groups as cg")
    .innerJoin("member_groups as g", "g.id", "cg.group_id")
    .select(["cg.item_id", "g.id", "g.name"])
    .where("cg.kind", "=", kind)
    .where("cg.item_id", "in", ids)
    .orderBy("g.name")
    .execute();
  for (const row of rows) {
    const list = groups.get(row.item_id) ?? [];
    list.push({ id: row.id, name: row.name });
    groups.set(row.item_id, list);
  }
  return groups;
}

/** Replaces the groups of an item (in the caller's transaction, beside the write of the item itself). */
export async function writeItemGroups(
  trx: Transaction<Database>,
  kind: GroupedKind,
  itemId: string,
  groupIds: readonly string[],
): Promise<void> {
  await trx.deleteFrom("content_groups").where("kind", "=", kind).where("item_id", "=", itemId).execute();
  if (groupIds.length === 0) return;
  await trx
    .insertInto("content_groups")
    .values([...new Set(groupIds)].map((groupId) => ({ kind, item_id: itemId, group_id: groupId })))
    .execute();
}

/** Every group, by name: what an editor offers to choose from. */
export async function listGroupChoices(db: Db): Promise<{ id: string; name: string }[]> {
  return db.selectFrom("member_groups").select(["id", "name"]).orderBy("name").orderBy("id").execute();
}

/** Who may see an item, as an editor sets it: its visibility and, for groups, which. */
export type ItemAccess = { visibility: ContentVisibility; groupIds: string[] };

/**
 * What a save asks for: the form's visibility, or the stored one when the form sent none (an editor of before the
 * field), a new item's being everyone. Groups must be named, and exist; `errors` are the editor's message keys.
 */
export async function resolveAccess(
  trx: Transaction<Database>,
  input: { visibility?: ContentVisibility; group_ids: string[] },
  stored: ItemAccess | null,
  errors: { needed: string; unknown: string },
): Promise<{ ok: true; access: ItemAccess; changed: boolean } | { ok: false; fieldErrors: Record<string, string> }> {
  if (input.visibility === undefined) {
    return { ok: true, access: stored ?? { visibility: "everyone", groupIds: [] }, changed: false };
  }
  if (input.visibility !== "groups") {
    return { ok: true, access: { visibility: input.visibility, groupIds: [] }, changed: true };
  }
  if (input.group_ids.length === 0) return { ok: false, fieldErrors: { group_ids: errors.needed } };
  const known = await trx.selectFrom("member_groups").select("id").where("id", "in", input.group_ids).execute();
  if (known.length !== input.group_ids.length) return { ok: false, fieldErrors: { group_ids: errors.unknown } };
  return { ok: true, access: { visibility: "groups", groupIds: input.group_ids.toSorted() }, changed: true };
}

/** The access as an audit entry says it: "everyone", "members", or "groups: <names>". */
export async function describeAccess(db: Db, access: ItemAccess): Promise<string> {
  if (access.visibility !== "groups") return access.visibility;
  if (access.groupIds.length === 0) return "groups: –";
  const names = await db
    .selectFrom("member_groups")
    .select("name")
    .where("id", "in", access.groupIds)
    .orderBy("name")
    .execute();
  return `groups: ${names.map((row) => row.name).join(", ")}`;
}

/** The stored access of an item whose row says `visibility`. */
export async function storedAccess(
  db: Db,
  kind: GroupedKind,
  itemId: string,
  visibility: ContentVisibility,
): Promise<ItemAccess> {
  if (visibility !== "groups") return { visibility, groupIds: [] };
  const rows = await db
    .selectFrom("content_groups")
    .select("group_id")
    .where("kind", "=", kind)
    .where("item_id", "=", itemId)
    .orderBy("group_id")
    .execute();
  return { visibility, groupIds: rows.map((row) => row.group_id) };
}
