/**
 * The areas of the site a write can change, and which tables belong to which (issue 19). Kept pages and kept
 * values (server/page-cache.ts, ./version-cache.server.ts) name the areas they show, so that a write in one area
 * leaves the rest kept: a new FAQ entry no longer empties the kept gallery pages. The names are those of the
 * change events (migration 0015) where a table records events; see docs/decisions/011-live-updates.md.
 */

export const CHANGE_AREAS = [
  "gallery",
  "media",
  "links",
  "faq",
  "videos",
  "posts",
  "albums",
  "settings",
  "invites",
  "users",
  "audit",
  "mail",
  "outbox",
  "messages",
  "sessions",
] as const;

export type ChangeArea = (typeof CHANGE_AREAS)[number];

/**
 * Areas that nothing kept may show without naming them: visitors' contact messages and the outbox's mails are read
 * only in the admin area, and sessions come and go with every sign-in. "Everything" (a key that declares nothing) leaves them out,
 * as the page cache always has (a stream of sign-ins or messages must not empty it).
 */
export const UNSHOWN_AREAS: ReadonlySet<ChangeArea> = new Set(["messages", "outbox", "sessions"]);

/** What "depends on everything" means: every area but the unshown ones. */
export const SHOWN_AREAS: readonly ChangeArea[] = CHANGE_AREAS.filter((area) => !UNSHOWN_AREAS.has(area));

/**
 * Which areas a write to each table moves. A table not listed here moves every area (so a new table is safe
 * before it is listed; `change-areas.test.ts` fails until it is). A write's cascades are its table's:
 * deleting a picture sets videos' posters and posts' covers to null (foreign keys `on delete set null`), so
 * `images` moves those areas too; a post's slugs and tags are the post. `[]`: never shown anywhere (the same
 * tables the page cache always ignored).
 */
export const TABLE_AREAS: Readonly<Record<string, readonly ChangeArea[]>> = {
  gallery_images: ["gallery", "albums"],
  images: ["media", "videos", "posts"],
  links: ["links"],
  faq_entries: ["faq"],
  videos: ["videos"],
  posts: ["posts"],
  // Who may see what (migration 0024): a group's name shows nowhere public, but a post's groups decide who sees it.
  member_groups: ["users", "posts", "gallery", "albums"],
  user_groups: ["users", "posts"],
  content_groups: ["posts", "gallery", "albums"],
  // Albums (migration 0027): an album's page also shows its pictures (gallery, media).
  albums: ["albums"],
  album_pictures: ["albums"],
  invite_groups: ["invites"],
  // Share links: read by their own page (never kept) and the post editor; nothing a kept page shows.
  share_links: [],
  // When members' visits ended: read only for that member's own home page, never kept.
  member_visits: [],
  // Mails about new posts (migration 0026): who asked (read only by /account, never kept) and what was announced.
  member_subscriptions: [],
  announcements: [],
  announcement_recipients: [],
  post_slugs: ["posts"],
  post_tags: ["posts"],
  site_settings: ["settings"],
  invite_codes: ["invites"],
  // Deleting a user cascades to its account, roles, sessions, second factor and tokens: all "users" or unshown.
  user: ["users"],
  user_roles: ["users"],
  account: ["users"],
  twoFactor: ["users"],
  audit_log: ["audit"],
  mail_failures: ["mail"],
  // Mails filed without SMTP_URL (migration 0020): the Outbox screen listens to their events; nothing kept shows them.
  outbox_mails: ["outbox"],
  contact_messages: ["messages"],
  session: ["sessions"],
  verification: [],
  sign_in_failures: [],
  account_tokens: [],
  // Written only by the triggers, beside a write that moves its own area.
  change_events: [],
  // Written with the events for everyone (migration 0029), so with a write of the areas those name.
  public_changes: [],
  // Statistics (migration 0032): read only by the admin's statistics screen and the dashboard, never kept.
  stats_daily: [],
  stats_seen: [],
  stats_salts: [],
  // Who has a post open in the editor: admins only, announced by its own events.
  editor_presence: [],
  // Counted limits (failed sign-ins per address, reset requests, the contact form's): nothing shows them, and a
  // guesser's every try writes here, which must not drop the page cache.
  attempt_counts: [],
  // Background work: every process claims from it every second; the admin's panel of failed jobs reads it on load.
  jobs: [],
  // The auth secret's fingerprint, read at start only.
  secret_fingerprints: [],
  // The search index (migration 0021; on SQLite an FTS5 table and its shadow tables): written with the content it
  // indexes, which moves that content's areas; no kept page shows it (/search is never kept).
  search_documents: [],
  search_fts: [],
  search_fts_data: [],
  search_fts_idx: [],
  search_fts_docsize: [],
  search_fts_config: [],
};

/** The areas a write to `table` moves; undefined (every area) for a table this map does not know. */
export function areasOfTable(table: string): readonly ChangeArea[] | undefined {
  return Object.hasOwn(TABLE_AREAS, table) ? TABLE_AREAS[table] : undefined;
}
