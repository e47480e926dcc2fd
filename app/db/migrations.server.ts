import { type CreateTableBuilder, type Kysely, sql } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import { CHANGE_CHANNEL, type DatabaseKind } from "./database.server.ts";
import type { Database } from "./schema.ts";

type ColumnTypes = { timestamp: "text" | "timestamptz"; boolean: "integer" | "boolean" };

function columnTypes(kind: DatabaseKind): ColumnTypes {
  return kind === "postgres"
    ? { timestamp: "timestamptz", boolean: "boolean" }
    : { timestamp: "text", boolean: "integer" };
}

/** The tables whose commits PostgreSQL announces (see `addChangeNotifications`); new shown tables join here. */
const NOTIFYING_TABLES_0003 = [
  "user",
  "account",
  "site_settings",
  "user_roles",
  "invite_codes",
  "images",
  "gallery_images",
  "links",
  "faq_entries",
  "videos",
] as const;

/**
 * PostgreSQL announces every commit that changes one of `tables` on CHANGE_CHANNEL, so that each server's caches
 * learn of writes by other processes (SQLite needs nothing: its `data_version` tells). A new table that pages
 * show gets the same in its own migration.
 */
export async function addChangeNotifications(db: Kysely<unknown>, kind: DatabaseKind, tables: readonly string[]) {
  if (kind !== "postgres") return;
  await sql`CREATE OR REPLACE FUNCTION vitrine_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify(${sql.lit(CHANGE_CHANNEL)}, TG_TABLE_NAME); RETURN NULL; END $$`.execute(db);
  for (const table of tables) {
    await sql`CREATE TRIGGER ${sql.id(`${table}_notify_change`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON ${sql.id(table)} FOR EACH STATEMENT EXECUTE FUNCTION vitrine_notify_change()`.execute(db);
  }
}

/** The migrations for one kind of database, by name (applied in name order). */
export type MigrationSet = (kind: DatabaseKind) => Record<string, Migration>;

/**
 * Migrations live in code and run at every start; each runs once, in order.
 * Never edit a migration that has shipped: add a new one.
 */
export const siteMigrations: MigrationSet = (kind) => {
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
};

class InlineMigrationProvider implements MigrationProvider {
  constructor(
    private readonly kind: DatabaseKind,
    private readonly migrations: MigrationSet,
  ) {}
  async getMigrations() {
    return this.migrations(this.kind);
  }
}

function migratorFor(db: Kysely<Database>, kind: DatabaseKind, migrations: MigrationSet): Migrator {
  return new Migrator({ db, provider: new InlineMigrationProvider(kind, migrations) });
}

/**
 * Applies every migration not applied yet. `migrations` is the site's own list; tests pass a longer one to
 * act out an upgrade.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  kind: DatabaseKind,
  migrations: MigrationSet = siteMigrations,
): Promise<string[]> {
  const { error, results } = await migratorFor(db, kind, migrations).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Applies the migrations up to and including `name` (a restore builds the schema its backup was made with). */
export async function migrateUpTo(
  db: Kysely<Database>,
  kind: DatabaseKind,
  name: string,
  migrations: MigrationSet = siteMigrations,
): Promise<void> {
  const { error } = await migratorFor(db, kind, migrations).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** Which of the known migrations are applied to this database and which are still to run. */
export async function migrationState(
  db: Kysely<Database>,
  kind: DatabaseKind,
  migrations: MigrationSet = siteMigrations,
): Promise<{ applied: string[]; pending: string[] }> {
  const all = await migratorFor(db, kind, migrations).getMigrations();
  return {
    applied: all.filter((m) => m.executedAt !== undefined).map((m) => m.name),
    pending: all.filter((m) => m.executedAt === undefined).map((m) => m.name),
  };
}
