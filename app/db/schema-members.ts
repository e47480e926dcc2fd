import type { DbDate } from "./column-types.ts";

/* The tables of who may see what (issue 21, migration 0024): groups, their members, the content and invite codes
 * that name them, share links and members' visits. Part of `Database` in schema.ts. */

/** Who may see a piece of content (issue 21): everyone, any signed-in account, or the groups in content_groups. */
export type ContentVisibility = "everyone" | "members" | "groups";

/** A group of accounts the admin names, e.g. "Family" (migration 0024). */
export interface MemberGroupsTable {
  id: string;
  /** Unique, as the admin typed it. */
  name: string;
  created_at: DbDate;
}

export interface UserGroupsTable {
  user_id: string;
  group_id: string;
}

/** A link that shows one post or album to whoever holds it, without an account (issue 21). */
export interface ShareLinksTable {
  id: string;
  kind: "post" | "album";
  item_id: string;
  /** SHA-256 of the link's token: a copy of the database opens nothing. */
  token_hash: string;
  /** better-auth's scrypt hash of the link's password; null: none asked. */
  password_hash: string | null;
  expires_at: DbDate | null;
  /** The admin who made it; no foreign key: it outlives the account. */
  created_by: string;
  created_at: DbDate;
  revoked_at: DbDate | null;
  last_used_at: DbDate | null;
}

/** When a member's previous visit ended (migration 0024): the home page's "new for you" starts there. */
export interface MemberVisitsTable {
  user_id: string;
  last_visit_ended_at: DbDate;
}

/** The groups an invite code gives its account at sign-up. */
export interface InviteGroupsTable {
  code: string;
  group_id: string;
}

/** The groups that may see a piece of content whose visibility is `groups`: `kind` is "post" (later also others). */
export interface ContentGroupsTable {
  kind: string;
  item_id: string;
  group_id: string;
}

/** The kinds of content a member may be mailed about when new (migration 0026): posts now, albums later. */
export type AnnouncedKind = "post" | "album";

/** A member's wish to be mailed new content of a kind (issue 21, migration 0026); absent: not subscribed. */
export interface MemberSubscriptionsTable {
  user_id: string;
  kind: AnnouncedKind;
  created_at: DbDate;
}

/** An item announced to the subscribers once, the first time it was visible (migration 0026). */
export interface AnnouncementsTable {
  kind: AnnouncedKind;
  item_id: string;
  announced_at: DbDate;
}

/** One account an announcement is for, unique per item and account, and what became of its mail. */
export interface AnnouncementRecipientsTable {
  kind: AnnouncedKind;
  item_id: string;
  user_id: string;
  /** pending: not decided yet; mailed: its mail's job is queued; skipped: unsubscribed or may not see it (then). */
  state: "pending" | "mailed" | "skipped";
  decided_at: DbDate | null;
}
