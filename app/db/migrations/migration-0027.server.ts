import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { addChangeNotifications, columnTypes } from "./migration-support.server.ts";

/**
 * Albums (issue 21): a titled, ordered set of gallery pictures with a slug per language, a cover and a visibility
 * of its own (`everyone`, `members` or `groups`, the groups in `content_groups` with kind `album`). A picture may be
 * in several albums; deleting an album leaves its pictures in the gallery, deleting a picture takes it out of its
 * albums, and a cover that is deleted leaves the album without one (its first picture stands in).
 */
export function migration0027(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0027_albums": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("albums")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("slug", "text", (c) => c.notNull().unique())
          .addColumn("slug_de", "text", (c) => c.notNull().unique())
          .addColumn("title", "text", (c) => c.notNull())
          .addColumn("title_de", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("description_de", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("cover_picture_id", "text", (c) => c.references("gallery_images.id").onDelete("set null"))
          .addColumn("visibility", "text", (c) => c.notNull().defaultTo("everyone"))
          .addColumn("sort_order", "integer", (c) => c.notNull())
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .addColumn("updated_at", t.timestamp, (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("album_pictures")
          .addColumn("album_id", "text", (c) => c.notNull().references("albums.id").onDelete("cascade"))
          .addColumn("picture_id", "text", (c) => c.notNull().references("gallery_images.id").onDelete("cascade"))
          .addColumn("sort_order", "integer", (c) => c.notNull())
          .addColumn("added_at", t.timestamp, (c) => c.notNull())
          .addPrimaryKeyConstraint("album_pictures_pk", ["album_id", "picture_id"])
          .execute();
        // An album's pictures in order; and, from a picture, its albums (the member files' check asks it).
        await db.schema
          .createIndex("album_pictures_order_idx")
          .on("album_pictures")
          .columns(["album_id", "sort_order", "picture_id"])
          .execute();
        await db.schema.createIndex("album_pictures_picture_idx").on("album_pictures").column("picture_id").execute();
        await addChangeNotifications(db, kind, ["albums", "album_pictures"]);
      },
    },
  };
}
