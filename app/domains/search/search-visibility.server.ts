import type { Kysely, SelectQueryBuilder } from "kysely";
import type { Database, DbDate } from "#app/db/schema.ts";
import { readableBy } from "#app/domains/access/access.server.ts";
import type { Reader } from "#app/domains/access/reader.ts";
import { publishedQuery } from "#app/domains/gallery/gallery-public.server.ts";
import { visibleTo } from "#app/domains/posts/post-rows.server.ts";
import type { SearchKind } from "./search-schema.ts";

/*
 * What a search may find of each kind: the public pages' own rules, written once for both databases' ways of
 * searching (search.server.ts). A visitor's search goes through them; the admin's (`audience: "admin"`) does not.
 */

/** The admin area's search (drafts too), or a reader's on the public pages (what that reader may see). */
export type SearchAudience = "admin" | Reader;

/** An item the audience may see: its id, and the date it is ordered by (a post's publication, else its creation). */
export type VisibleItem = { item_id: string; time: DbDate | null };
/** The visible items of one kind, as a query to join or to narrow (one type for the five kinds' tables). */
export type VisibleItems = SelectQueryBuilder<Database, never, VisibleItem>;

const ACTIVE_TABLES = { faq: "faq_entries", video: "videos", link: "links" } as const;

export function visibleItems(db: Kysely<Database>, kind: SearchKind, audience: SearchAudience, now: Date) {
  const admin = audience === "admin";
  let query: unknown;
  if (kind === "post") {
    // The blog's rule (post-rows.server.ts): published, or scheduled and due, and for this reader; drafts only
    // for the admin's search.
    const base = db.selectFrom("posts as p");
    query = (audience === "admin" ? base : base.where(visibleTo(audience, now))).select([
      "p.id as item_id",
      (eb) => eb.fn.coalesce("p.publish_at", "p.created_at").as("time"),
    ]);
  } else if (kind === "picture") {
    // The gallery's rule (gallery-public.server.ts): published, and every size made.
    const base = admin
      ? db.selectFrom("gallery_images as g").innerJoin("images as i", "i.id", "g.image_id")
      : publishedQuery(db, audience);
    query = base.select(["g.id as item_id", "g.created_at as time"]);
  } else {
    // The links, FAQ and videos pages show the active rows (`listActive` in content.server.ts). The three tables
    // share these columns; Kysely cannot type a query over a union of tables (as content.server.ts).
    const base = db.selectFrom(`${ACTIVE_TABLES[kind] as "links"} as c`);
    const active = admin ? base : base.where("c.active", "=", true);
    // Videos also keep to the one visibility rule (issue 21); links and FAQ entries are for everyone.
    const readable =
      kind === "video" && audience !== "admin" ? active.where(readableBy(audience, "video", "c")) : active;
    query = readable.select(["c.id as item_id", "c.created_at as time"]);
  }
  // Each branch selects the same two columns from its own tables; one type lets the callers treat them alike.
  return query as VisibleItems;
}
