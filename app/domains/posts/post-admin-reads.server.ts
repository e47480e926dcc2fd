import { sql } from "kysely";
import { groupsOfItems } from "#app/domains/access/access.server.ts";
import { type AdminPost, type AdminPostSummary, type Db, postsQuery, tagsOf, toAdminPost } from "./post-rows.server.ts";
import type { PostStatus } from "./post-schema.ts";

/* The admin's reads of the blog (issue 12): one post for the editor, and the list. Its writes: post-admin.server.ts. */

// ---------------------------------------------------------------------------------------------------------------
// Admin: reads

export async function getPostForAdmin(db: Db, id: string, options: { now?: Date } = {}): Promise<AdminPost | null> {
  const row = await postsQuery(db).where("p.id", "=", id).executeTakeFirst();
  if (!row) return null;
  const grouped = row.visibility === "groups" ? [row.id] : [];
  const [tags, groups] = await Promise.all([tagsOf(db, [row.id]), groupsOfItems(db, "post", grouped)]);
  const groupIds = (groups.get(row.id) ?? []).map((group) => group.id).sort();
  return toAdminPost(row, tags.get(row.id) ?? [], options.now ?? new Date(), groupIds);
}

/** Every post for the admin list, newest change first; `search` looks in both titles, slugs and tags. */
export async function listPostsForAdmin(
  db: Db,
  options: { status?: PostStatus | null; search?: string | null; now?: Date } = {},
): Promise<AdminPostSummary[]> {
  let query = postsQuery(db);
  if (options.status) query = query.where("p.status", "=", options.status);
  const search = options.search?.trim().toLowerCase();
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(p.title)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(p.title_de)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`p.slug`, "like", sql`${pattern} escape '\\'`),
        eb(sql`p.slug_de`, "like", sql`${pattern} escape '\\'`),
        eb.exists(
          eb
            .selectFrom("post_tags as t")
            .select("t.tag")
            .whereRef("t.post_id", "=", "p.id")
            .where(sql`t.tag`, "like", sql`${pattern} escape '\\'`),
        ),
      ]),
    );
  }
  const rows = await query.orderBy("p.updated_at", "desc").orderBy("p.id", "desc").execute();
  const tags = await tagsOf(
    db,
    rows.map((row) => row.id),
  );
  const now = options.now ?? new Date();
  return rows.map((row) => {
    const post = toAdminPost(row, tags.get(row.id) ?? [], now);
    return {
      id: post.id,
      status: post.status,
      publishAt: post.publishAt,
      visible: post.visible,
      title: post.title,
      titleDe: post.titleDe,
      slug: post.slug,
      slugDe: post.slugDe,
      tags: post.tags,
      visibility: post.visibility,
      createdAt: post.createdAt,
      updatedAt: post.updatedAt,
    };
  });
}
