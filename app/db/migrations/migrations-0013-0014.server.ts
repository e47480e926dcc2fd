import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { addChangeNotifications, columnTypes } from "./migration-support.server.ts";

/** The blog (issue 12) and the contact messages. Never edit a migration that has shipped: add a new one (see ../migrations.server.ts). */
export function migrations0013To0014(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0013_posts": {
      async up(db: Kysely<unknown>) {
        // The blog (issue 12). A post is visible to visitors when published, or scheduled and due; the
        // scheduler (post-scheduler.server.ts) also flips due posts to published so that the page cache drops.
        // No foreign key to the author: a post outlives its writer's account, as audit entries do.
        await db.schema
          .createTable("posts")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("author_id", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull().defaultTo("draft"))
          .addColumn("publish_at", t.timestamp)
          .addColumn("title", "text", (c) => c.notNull())
          .addColumn("title_de", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("slug", "text", (c) => c.notNull().unique())
          .addColumn("slug_de", "text", (c) => c.notNull().unique())
          .addColumn("excerpt", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("excerpt_de", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("body", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("body_de", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("cover_image_id", "text", (c) => c.references("images.id").onDelete("set null"))
          .addColumn("cover_alt", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("cover_alt_de", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .addColumn("updated_at", t.timestamp, (c) => c.notNull())
          .execute();
        // The public order (newest first, id to make it total) and the scheduler's search for due posts.
        await db.schema.createIndex("posts_public_idx").on("posts").columns(["status", "publish_at", "id"]).execute();
        // Every slug a post ever had, its current ones included: an old one answers 301, and none is reused.
        await db.schema
          .createTable("post_slugs")
          .addColumn("slug", "text", (c) => c.notNull())
          .addColumn("lang", "text", (c) => c.notNull())
          .addColumn("post_id", "text", (c) => c.notNull().references("posts.id").onDelete("cascade"))
          .addPrimaryKeyConstraint("post_slugs_pk", ["lang", "slug"])
          .execute();
        await db.schema.createIndex("post_slugs_post_idx").on("post_slugs").column("post_id").execute();
        await db.schema
          .createTable("post_tags")
          .addColumn("post_id", "text", (c) => c.notNull().references("posts.id").onDelete("cascade"))
          .addColumn("tag", "text", (c) => c.notNull())
          .addPrimaryKeyConstraint("post_tags_pk", ["post_id", "tag"])
          .execute();
        await db.schema.createIndex("post_tags_tag_idx").on("post_tags").columns(["tag", "post_id"]).execute();
        await addChangeNotifications(db, kind, ["posts", "post_slugs", "post_tags"]);
      },
    },
    "0014_contact_messages": {
      async up(db: Kysely<unknown>) {
        // Messages sent through the contact form (/contact), kept before any mail goes out so that none is lost
        // when mail fails. No page a visitor sees shows them: no change notifications (UNSHOWN_TABLES), and a
        // message does not empty the page cache. No client address is kept: the form tracks nobody.
        await db.schema
          .createTable("contact_messages")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("email", "text", (c) => c.notNull())
          .addColumn("message", "text", (c) => c.notNull())
          .addColumn("language", "text", (c) => c.notNull())
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .addColumn("read_at", t.timestamp)
          .execute();
        // The admin list: newest first.
        await db.schema
          .createIndex("contact_messages_created_idx")
          .on("contact_messages")
          .columns(["created_at", "id"])
          .execute();
      },
    },
  };
}
