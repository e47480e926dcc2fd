/**
 * Every table a backup holds, in the order a restore loads them (a row's foreign keys point to tables earlier
 * in the list). `booleans` and `dates` are the columns whose values differ between the databases (0/1 and ISO
 * text on SQLite, boolean and timestamptz on PostgreSQL): the backup writes them as JSON booleans and ISO
 * strings. A new table or column of either kind must be added here; `tables.server.test.ts` fails until it is.
 */
export type BackupTable = {
  name: string;
  /** The primary key: rows are written in its order. */
  key: readonly string[];
  booleans?: readonly string[];
  dates?: readonly string[];
};

const authDates = ["createdAt", "updatedAt"] as const;
const contentDates = ["created_at", "updated_at"] as const;

export const BACKUP_TABLES: readonly BackupTable[] = [
  {
    name: "user",
    key: ["id"],
    booleans: ["emailVerified", "twoFactorEnabled"],
    dates: ["lastSignInAt", ...authDates],
  },
  { name: "session", key: ["id"], dates: ["expiresAt", ...authDates] },
  {
    name: "account",
    key: ["id"],
    dates: ["accessTokenExpiresAt", "refreshTokenExpiresAt", ...authDates],
  },
  { name: "verification", key: ["id"], dates: ["expiresAt", ...authDates] },
  // Text rows, one per key of the settings registry (setting-registry.ts): nothing to convert, none left out.
  { name: "site_settings", key: ["key"] },
  { name: "user_roles", key: ["user_id", "role"], dates: ["created_at"] },
  { name: "invite_codes", key: ["code"], booleans: ["is_used"], dates: ["used_at", "created_at"] },
  { name: "images", key: ["id"], booleans: ["ready"], dates: ["created_at"] },
  { name: "gallery_images", key: ["id"], booleans: ["published"], dates: contentDates },
  { name: "links", key: ["id"], booleans: ["active"], dates: contentDates },
  { name: "faq_entries", key: ["id"], booleans: ["active"], dates: contentDates },
  { name: "videos", key: ["id"], booleans: ["active"], dates: contentDates },
  { name: "audit_log", key: ["id"], dates: ["created_at"] },
  // Kept so that a restore does not hand an attacker a fresh count of sign-in attempts.
  { name: "sign_in_failures", key: ["account"], dates: ["last_failure_at", "locked_until"] },
  { name: "mail_failures", key: ["id"], dates: ["created_at", "dismissed_at"] },
  // Two-factor enrolments: without them a restore would turn every account's 2FA off.
  { name: "twoFactor", key: ["id"], booleans: ["verified"], dates: ["lockedUntil"] },
  // Hashes only; a restored link works until it expires, as it would have without the restore.
  { name: "account_tokens", key: ["token_hash"], dates: ["expires_at", "created_at", "used_at"] },
  { name: "member_groups", key: ["id"], dates: ["created_at"] },
  { name: "user_groups", key: ["user_id", "group_id"] },
  { name: "invite_groups", key: ["code", "group_id"] },
  { name: "posts", key: ["id"], dates: ["publish_at", ...contentDates] },
  { name: "post_slugs", key: ["lang", "slug"] },
  { name: "post_tags", key: ["post_id", "tag"] },
  { name: "content_groups", key: ["kind", "item_id", "group_id"] },
  { name: "share_links", key: ["id"], dates: ["expires_at", "created_at", "revoked_at", "last_used_at"] },
  // Albums (migration 0027) after the gallery pictures their covers and pictures name.
  { name: "albums", key: ["id"], dates: contentDates },
  { name: "album_pictures", key: ["album_id", "picture_id"], dates: ["added_at"] },
  // Who is mailed new posts, and what was announced to whom: a restore must not announce the archive again.
  { name: "member_subscriptions", key: ["user_id", "kind"], dates: ["created_at"] },
  { name: "announcements", key: ["kind", "item_id"], dates: ["announced_at"] },
  { name: "announcement_recipients", key: ["kind", "item_id", "user_id"], dates: ["decided_at"] },
  // Visitors' messages: a restore must not lose what the mail may never have delivered.
  { name: "contact_messages", key: ["id"], dates: ["created_at", "read_at"] },
  // The statistics' daily sums (issue 46): the owner's history, with nothing personal in it.
  { name: "stats_daily", key: ["day", "kind", "key"] },
];

/** The search index's tables (migration 0021): the rows, and on SQLite the FTS5 table and its shadow tables. */
export const SEARCH_INDEX_TABLES: readonly string[] = [
  "search_documents",
  "search_fts",
  "search_fts_data",
  "search_fts_idx",
  "search_fts_docsize",
  "search_fts_config",
];

/**
 * Tables a backup leaves out: change events are a day's notice of writes to open pages (issue 19), not data; a
 * restore's own writes record the events that tell open pages about it, and so the times visitors last could notice
 * a change (public_changes, the sitemap's last changes). Who has a post open in the editor is a
 * minute's state of open browser tabs. The counted limits (attempt_counts) are windows of an hour at most, keyed by
 * visitors' addresses, which a backup should not carry; a restored site starts them afresh, as a restart once did.
 * The auth secret's fingerprint belongs to the secret, which is not in the archive either: the restored site records
 * its own secret's at its first start (docs/decisions/003-backup-format.md). Jobs are work under way, not data: a
 * restored site queues what its data still needs (pictures whose sizes are not all made, a watermark check) and its
 * recurring jobs at its first start.
 * The outbox's mails (outbox_mails) hold live links (password resets, invites) and last 30 days: a backup should not
 * carry them, as it never carried the outbox's files before they moved into the database.
 * The search index (search_documents, and on SQLite its FTS5 table and that table's own tables) is made from the
 * content: a restore rebuilds it (docs/decisions/015-search.md). When members' visits ended (member_visits) is a
 * mark of their browsing, not content: after a restore, "new for you" starts from their next visit. The statistics'
 * salt of the day and the day's visitor hashes (stats_salts, stats_seen) live one day and must never leave the site.
 */
export const UNBACKED_TABLES: readonly string[] = [
  "change_events",
  "public_changes",
  "editor_presence",
  "attempt_counts",
  "secret_fingerprints",
  "jobs",
  "outbox_mails",
  "member_visits",
  "stats_seen",
  "stats_salts",
  ...SEARCH_INDEX_TABLES,
];

export type NeutralValue = string | number | boolean | null;
export type NeutralRow = Record<string, NeutralValue>;

/** A row as either database returns it, in the backup's form: booleans as booleans, dates as ISO strings. */
export function toNeutralRow(table: BackupTable, row: Record<string, unknown>): NeutralRow {
  const neutral: NeutralRow = {};
  for (const [column, value] of Object.entries(row)) {
    if (value === null || value === undefined) neutral[column] = null;
    else if (table.booleans?.includes(column)) neutral[column] = value === true || value === 1 || value === "1";
    else if (table.dates?.includes(column)) {
      const date = value instanceof Date ? value : new Date(String(value));
      if (Number.isNaN(date.getTime())) throw new Error(`${table.name}.${column} holds "${value}", which is no date`);
      neutral[column] = date.toISOString();
    } else if (typeof value === "bigint") neutral[column] = Number(value);
    else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      neutral[column] = value;
    } else throw new Error(`${table.name}.${column} holds a value the backup cannot write`);
  }
  return neutral;
}
