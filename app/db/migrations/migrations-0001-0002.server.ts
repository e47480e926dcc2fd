import { type CreateTableBuilder, type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { columnTypes } from "./migration-support.server.ts";

/** The first schema: accounts and settings, then content, media and the audit log. Never edit a migration that has shipped: add a new one (see ../migrations.server.ts). */
export function migrations0001To0002(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0001_auth_and_site": {
      async up(db: Kysely<unknown>) {
        // better-auth's own tables, in the shape its Kysely adapter expects.
        await db.schema
          .createTable("user")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("email", "text", (c) => c.notNull().unique())
          .addColumn("emailVerified", t.boolean, (c) => c.notNull())
          .addColumn("image", "text")
          .addColumn("createdAt", t.timestamp, (c) => c.notNull())
          .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("session")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("token", "text", (c) => c.notNull().unique())
          .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
          .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
          .addColumn("ipAddress", "text")
          .addColumn("userAgent", "text")
          .addColumn("createdAt", t.timestamp, (c) => c.notNull())
          .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
          .execute();
        await db.schema.createIndex("session_user_id_idx").on("session").column("userId").execute();
        await db.schema
          .createTable("account")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("accountId", "text", (c) => c.notNull())
          .addColumn("providerId", "text", (c) => c.notNull())
          .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
          .addColumn("accessToken", "text")
          .addColumn("refreshToken", "text")
          .addColumn("idToken", "text")
          .addColumn("accessTokenExpiresAt", t.timestamp)
          .addColumn("refreshTokenExpiresAt", t.timestamp)
          .addColumn("scope", "text")
          .addColumn("password", "text")
          .addColumn("createdAt", t.timestamp, (c) => c.notNull())
          .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
          .execute();
        await db.schema.createIndex("account_user_id_idx").on("account").column("userId").execute();
        await db.schema
          .createTable("verification")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("identifier", "text", (c) => c.notNull())
          .addColumn("value", "text", (c) => c.notNull())
          .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
          .addColumn("createdAt", t.timestamp, (c) => c.notNull())
          .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
          .execute();

        await db.schema
          .createTable("site_settings")
          .addColumn("key", "text", (c) => c.primaryKey())
          .addColumn("value", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("user_roles")
          .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
          .addColumn("role", "text", (c) => c.notNull())
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .addPrimaryKeyConstraint("user_roles_pk", ["user_id", "role"])
          .execute();
        await db.schema
          .createTable("invite_codes")
          .addColumn("code", "text", (c) => c.primaryKey())
          .addColumn("is_used", t.boolean, (c) => c.notNull().defaultTo(kind === "postgres" ? sql`false` : 0))
          // No foreign key: the history of who used a code outlives the account.
          .addColumn("used_by", "text")
          .addColumn("used_at", t.timestamp)
          .addColumn("grants_role", "text")
          .addColumn("note", "text")
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .execute();
      },
    },
    "0002_content_media_audit": {
      async up(db: Kysely<unknown>) {
        const boolDefault = (value: boolean) =>
          kind === "postgres" ? sql.raw(String(value)) : sql.raw(value ? "1" : "0");
        // A text in English and German, both empty until written.
        const bilingual =
          (name: string) =>
          <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
            table
              .addColumn(name, "text", (c) => c.notNull().defaultTo(""))
              .addColumn(`${name}_de`, "text", (c) => c.notNull().defaultTo(""));
        // What every ordered content table ends with: its place, whether it is shown (on by default) and when.
        const orderedAndShown =
          (flag: "published" | "active") =>
          <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
            table
              .addColumn("sort_order", "integer", (c) => c.notNull())
              .addColumn(flag, t.boolean, (c) => c.notNull().defaultTo(boolDefault(true)))
              .addColumn("created_at", t.timestamp, (c) => c.notNull())
              .addColumn("updated_at", t.timestamp, (c) => c.notNull());
        await db.schema
          .createTable("images")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("original_key", "text", (c) => c.notNull())
          .addColumn("original_format", "text", (c) => c.notNull())
          .addColumn("width", "integer", (c) => c.notNull())
          .addColumn("height", "integer", (c) => c.notNull())
          .addColumn("placeholder", "text", (c) => c.notNull())
          .addColumn("variants", "text", (c) => c.notNull())
          .addColumn("watermark", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("gallery_images")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("image_id", "text", (c) => c.notNull().references("images.id"))
          .$call(bilingual("title"))
          .$call(bilingual("description"))
          .$call(bilingual("category"))
          .$call(orderedAndShown("published"))
          .execute();
        await db.schema
          .createIndex("gallery_images_order_idx")
          .on("gallery_images")
          .columns(["published", "sort_order"])
          .execute();
        await db.schema
          .createTable("links")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("url", "text", (c) => c.notNull())
          .addColumn("icon", "text", (c) => c.notNull().defaultTo(""))
          .$call(bilingual("title"))
          .$call(orderedAndShown("active"))
          .execute();
        await db.schema
          .createTable("faq_entries")
          .addColumn("id", "text", (c) => c.primaryKey())
          .$call(bilingual("question"))
          .$call(bilingual("answer"))
          .$call(orderedAndShown("active"))
          .execute();
        await db.schema
          .createTable("videos")
          .addColumn("id", "text", (c) => c.primaryKey())
          .$call(bilingual("title"))
          .$call(bilingual("description"))
          .addColumn("embed_url", "text")
          .addColumn("file_key", "text")
          .addColumn("file_type", "text")
          .addColumn("poster_image_id", "text", (c) => c.references("images.id").onDelete("set null"))
          .$call(orderedAndShown("active"))
          .execute();
        await db.schema
          .createTable("audit_log")
          .addColumn("id", kind === "postgres" ? "serial" : "integer", (c) => c.primaryKey())
          .addColumn("actor_id", "text", (c) => c.notNull())
          .addColumn("actor_email", "text", (c) => c.notNull())
          .addColumn("action", "text", (c) => c.notNull())
          .addColumn("target", "text", (c) => c.notNull())
          .addColumn("old_value", "text")
          .addColumn("new_value", "text")
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .execute();
        await db.schema.createIndex("audit_log_created_idx").on("audit_log").column("created_at").execute();
      },
    },
  };
}
