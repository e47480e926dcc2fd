import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import type { Database } from "../schema.ts";
import { addChangeNotifications, columnTypes, NOTIFYING_TABLES_0003 } from "./migration-support.server.ts";

/** Change notifications, image readiness, indexes, and the account, mail and gallery additions that followed. Never edit a migration that has shipped: add a new one (see ../migrations.server.ts). */
export function migrations0003To0012(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0003_change_notifications": {
      async up(db: Kysely<unknown>) {
        await addChangeNotifications(db, kind, NOTIFYING_TABLES_0003);
      },
    },
    "0004_image_ready": {
      async up(db: Kysely<unknown>) {
        // Every image stored so far has all its files.
        const yes = kind === "postgres" ? sql`true` : sql`1`;
        await db.schema
          .alterTable("images")
          .addColumn("ready", t.boolean, (c) => c.notNull().defaultTo(yes))
          .execute();
      },
    },
    "0005_public_query_indexes": {
      async up(db: Kysely<unknown>) {
        // Every order a public page reads in, so that no page sorts rows and the last page of a large gallery
        // costs what the first does. The id (or created_at) last makes the order total, as the queries ask.
        const indexes: [name: string, table: string, columns: string[]][] = [
          ["gallery_images_display_idx", "gallery_images", ["published", "sort_order", "id"]],
          ["gallery_images_latest_idx", "gallery_images", ["published", "created_at", "id"]],
          ["gallery_images_category_idx", "gallery_images", ["published", "category", "sort_order", "id"]],
          ["links_display_idx", "links", ["active", "sort_order", "created_at"]],
          ["faq_entries_display_idx", "faq_entries", ["active", "sort_order", "created_at"]],
          ["videos_display_idx", "videos", ["active", "sort_order", "created_at"]],
          ["videos_latest_idx", "videos", ["active", "created_at"]],
        ];
        for (const [name, table, columns] of indexes) {
          await db.schema.createIndex(name).on(table).columns(columns).execute();
        }
        // Its columns lead the display index: nothing needs it any more.
        await db.schema.dropIndex("gallery_images_order_idx").execute();
      },
    },
    "0006_sign_in_failures": {
      async up(db: Kysely<unknown>) {
        // No page shows it: no change notifications, and its writes do not move the change version (UNSHOWN_TABLES).
        await db.schema
          .createTable("sign_in_failures")
          .addColumn("account", "text", (c) => c.primaryKey())
          .addColumn("failures", "integer", (c) => c.notNull())
          .addColumn("last_failure_at", t.timestamp, (c) => c.notNull())
          .addColumn("locked_until", t.timestamp)
          .execute();
      },
    },
    "0007_account_language": {
      async up(db: Kysely<unknown>) {
        // The language of the account's mails (the one it last used on the site), and when it last signed in.
        await db.schema
          .alterTable("user")
          .addColumn("language", "text", (c) => c.notNull().defaultTo("en"))
          .execute();
        await db.schema.alterTable("user").addColumn("lastSignInAt", t.timestamp).execute();
      },
    },
    "0008_mail": {
      async up(db: Kysely<unknown>) {
        // Deliveries that failed, for the admin's dashboard (the reason as the mail server gave it).
        await db.schema
          .createTable("mail_failures")
          .addColumn("id", kind === "postgres" ? "serial" : "integer", (c) => c.primaryKey())
          .addColumn("recipient", "text", (c) => c.notNull())
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("subject", "text", (c) => c.notNull())
          .addColumn("reason", "text", (c) => c.notNull())
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .addColumn("dismissed_at", t.timestamp)
          .execute();
        await db.schema.createIndex("mail_failures_created_idx").on("mail_failures").column("created_at").execute();
        // The address an invite code was mailed to ("sent to …" in the list).
        await db.schema.alterTable("invite_codes").addColumn("sent_to", "text").execute();
      },
    },
    "0009_two_factor": {
      async up(db: Kysely<unknown>) {
        // better-auth's two-factor plugin: its column on the user and its own table, in its schema's names
        // (better-auth/dist/plugins/two-factor/schema.mjs). `secret` is encrypted with the auth secret by the
        // plugin; `backupCodes` holds a JSON list of SHA-256 hashes (app/auth/recovery-codes.server.ts).
        await db.schema
          .alterTable("user")
          .addColumn("twoFactorEnabled", t.boolean, (c) => c.defaultTo(kind === "postgres" ? sql`false` : 0))
          .execute();
        await db.schema
          .createTable("twoFactor")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("secret", "text", (c) => c.notNull())
          .addColumn("backupCodes", "text", (c) => c.notNull())
          .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
          .addColumn("verified", t.boolean, (c) => c.defaultTo(kind === "postgres" ? sql`true` : 1))
          .addColumn("failedVerificationCount", "integer", (c) => c.defaultTo(0))
          .addColumn("lockedUntil", t.timestamp)
          .execute();
        await db.schema.createIndex("twoFactor_userId_idx").on("twoFactor").column("userId").execute();
        await db.schema.createIndex("twoFactor_secret_idx").on("twoFactor").column("secret").execute();
      },
    },
    "0010_account_tokens": {
      async up(db: Kysely<unknown>) {
        // One-time links of an account (password reset, e-mail change confirmation): only the token's SHA-256 is
        // kept. No page shows the table: no change notifications (UNSHOWN_TABLES).
        await db.schema
          .createTable("account_tokens")
          .addColumn("token_hash", "text", (c) => c.primaryKey())
          .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
          .addColumn("purpose", "text", (c) => c.notNull())
          .addColumn("new_email", "text")
          .addColumn("expires_at", t.timestamp, (c) => c.notNull())
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .addColumn("used_at", t.timestamp)
          .execute();
        await db.schema
          .createIndex("account_tokens_user_idx")
          .on("account_tokens")
          .columns(["user_id", "purpose"])
          .execute();
      },
    },
    "0011_brand_follows_site_name": {
      async up(db: Kysely<unknown>) {
        // These texts shipped as copies of the name "Vitrine" and now ship empty, which follows the site name
        // (app/domains/settings/brand.ts). A row still holding the shipped copy was never written by the owner:
        // emptied, it follows their name too. Anything else is the owner's and stays.
        const shipped: [key: string, value: string][] = [
          ["site_logo_text", "Vitrine"],
          ["footer_site_name", "Vitrine"],
          ["footer_site_name_de", "Vitrine"],
          ["footer_copyright", "© 2025 Vitrine"],
          ["footer_copyright_de", "© 2025 Vitrine"],
          ["watermark_text", "© Vitrine"],
        ];
        const settings = db as unknown as Kysely<Database>;
        // An owner who had emptied the watermark text saw no watermark (the text is all it draws). Empty now means
        // "© site name", so their watermark is switched off instead: what their pictures show does not change.
        const emptiedWatermark = await settings
          .selectFrom("site_settings")
          .select("key")
          .where("key", "=", "watermark_text")
          .where("value", "=", "")
          .executeTakeFirst();
        if (emptiedWatermark) {
          await settings.deleteFrom("site_settings").where("key", "=", "watermark_enabled").execute();
          await settings.insertInto("site_settings").values({ key: "watermark_enabled", value: "false" }).execute();
        }
        for (const [key, value] of shipped) {
          await settings
            .updateTable("site_settings")
            .set({ value: "" })
            .where("key", "=", key)
            .where("value", "=", value)
            .execute();
        }
      },
    },
    "0012_gallery_alt_text": {
      async up(db: Kysely<unknown>) {
        // What a screen reader says for a picture, in both languages; empty falls back to the picture's title.
        for (const column of ["alt", "alt_de"]) {
          await db.schema
            .alterTable("gallery_images")
            .addColumn(column, "text", (c) => c.notNull().defaultTo(""))
            .execute();
        }
      },
    },
  };
}
