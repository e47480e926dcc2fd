import type { Generated } from "kysely";
import type { DbBoolean, DbDate } from "./column-types.ts";
import type { AlbumPicturesTable, AlbumsTable } from "./schema-albums.ts";
import type {
  AnnouncementRecipientsTable,
  AnnouncementsTable,
  ContentGroupsTable,
  ContentVisibility,
  InviteGroupsTable,
  MemberGroupsTable,
  MemberSubscriptionsTable,
  MemberVisitsTable,
  ShareLinksTable,
  UserGroupsTable,
} from "./schema-members.ts";
import type {
  AttemptCountsTable,
  ChangeEventsTable,
  EditorPresenceTable,
  JobsTable,
  PublicChangesTable,
  SecretFingerprintsTable,
  StatsDailyTable,
  StatsSaltsTable,
  StatsSeenTable,
} from "./schema-operations.ts";
import type { SearchDocumentsTable, SearchFtsTable } from "./search-documents-table.ts";

export type { DbBoolean, DbDate };

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: DbBoolean;
  image: string | null;
  createdAt: DbDate;
  updatedAt: DbDate;
  /** The language of the account's mails: `en` or `de`. */
  language: Generated<string>;
  lastSignInAt: DbDate | null;
  /** better-auth's two-factor plugin: true once a first code confirmed the authenticator. */
  twoFactorEnabled: Generated<DbBoolean | null>;
}

export interface SessionTable {
  id: string;
  token: string;
  userId: string;
  expiresAt: DbDate;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: DbDate;
  updatedAt: DbDate;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: DbDate | null;
  refreshTokenExpiresAt: DbDate | null;
  scope: string | null;
  password: string | null;
  createdAt: DbDate;
  updatedAt: DbDate;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: DbDate;
  createdAt: DbDate;
  updatedAt: DbDate;
}

export interface SiteSettingsTable {
  key: string;
  value: string;
}

export interface UserRolesTable {
  user_id: string;
  role: string;
  created_at: DbDate;
}

export interface InviteCodesTable {
  code: string;
  is_used: Generated<DbBoolean>;
  used_by: string | null;
  used_at: DbDate | null;
  /** A role the code grants on sign-up: the first-admin setup code grants 'admin'. */
  grants_role: string | null;
  note: string | null;
  created_at: DbDate;
  /** The address the code was mailed to, when it was (the last one, if mailed more than once). */
  sent_to: string | null;
}

/** A stored image: the private original and the public variants made from it (see domains/media). */
export interface ImagesTable {
  id: string;
  /** Storage key of the original, kept privately for reprocessing. */
  original_key: string;
  /** The original's format as recognised from its content: jpeg, png, webp, avif, gif. */
  original_format: string;
  /** Size after applying the EXIF orientation. */
  width: number;
  height: number;
  /** A tiny blurred preview as a data URI, shown while the image loads. */
  placeholder: string;
  /** JSON: the served variants, [{ width, height, format, key }]. */
  variants: string;
  /** The watermark text drawn into the large variants, '' when none. */
  watermark: string;
  /**
   * Where the files of a restricted picture are: `private/members/<folder>/`, a random name not derivable from
   * the public one (migration 0024); null while the files have public names (`public/images/<id>/`).
   */
  private_folder: string | null;
  /**
   * Whether every variant's file exists. An upload is answered once the original is safe and a first size
   * exists; the other sizes follow (and are redone after a restart), and only then do visitors see it.
   */
  ready: Generated<DbBoolean>;
  created_at: DbDate;
}

export interface GalleryImagesTable {
  id: string;
  image_id: string;
  title: string;
  title_de: string;
  description: string;
  description_de: string;
  category: string;
  category_de: string;
  /** The image's text alternative; empty: the title stands in. */
  alt: Generated<string>;
  alt_de: Generated<string>;
  sort_order: number;
  published: DbBoolean;
  /** Who may see it once published (migration 0024; app/domains/access/). */
  visibility: Generated<ContentVisibility>;
  created_at: DbDate;
  updated_at: DbDate;
}

export interface LinksTable {
  id: string;
  url: string;
  icon: string;
  title: string;
  title_de: string;
  sort_order: number;
  active: DbBoolean;
  created_at: DbDate;
  updated_at: DbDate;
}

export interface FaqEntriesTable {
  id: string;
  question: string;
  question_de: string;
  /** Markdown. */
  answer: string;
  answer_de: string;
  sort_order: number;
  active: DbBoolean;
  created_at: DbDate;
  updated_at: DbDate;
}

export interface VideosTable {
  id: string;
  title: string;
  title_de: string;
  description: string;
  description_de: string;
  /** A YouTube or Vimeo URL, or null for an uploaded file. */
  embed_url: string | null;
  /** Storage key of an uploaded MP4/WebM file, or null for an embed. */
  file_key: string | null;
  file_type: string | null;
  poster_image_id: string | null;
  sort_order: number;
  active: DbBoolean;
  /** Who may see it once active (migration 0025; app/domains/access/). */
  visibility: Generated<ContentVisibility>;
  /** A restricted uploaded video's member folder (`private/members/<folder>/`, its poster's too); else null. */
  private_folder: Generated<string | null>;
  created_at: DbDate;
  updated_at: DbDate;
}

export interface AuditLogTable {
  id: Generated<number>;
  /** No foreign key: the record outlives the account; the e-mail is kept as it was. */
  actor_id: string;
  actor_email: string;
  /** `<area>.<verb>`, e.g. `settings.update`, `invites.create`, `gallery.delete`. */
  action: string;
  /** What was changed: a setting key, an invite code, a user's e-mail, a content item's title. */
  target: string;
  old_value: string | null;
  new_value: string | null;
  created_at: DbDate;
}

/** Failed sign-ins per account (app/auth/account-throttle.server.ts); a row goes when the account signs in. */
export interface SignInFailuresTable {
  /** The normalised e-mail tried, whether or not such an account exists. */
  account: string;
  failures: number;
  last_failure_at: DbDate;
  /** No password for this account is checked before this time. */
  locked_until: DbDate | null;
}

/** A mail that could not be delivered, shown on the admin dashboard until dismissed (kept 30 days). */
export interface MailFailuresTable {
  id: Generated<number>;
  recipient: string;
  /** The MailMessage's kind, e.g. "password-reset". */
  kind: string;
  subject: string;
  /** The mail server's or file system's reason; never holds SMTP credentials. */
  reason: string;
  created_at: DbDate;
  dismissed_at: DbDate | null;
}

/**
 * A mail filed instead of sent (no SMTP_URL), shown in Admin → Outbox and by `npm run cli -- outbox`; deleted 30
 * days after it was filed. Holds the links it carries (reset, invite): the outbox is where the owner reads them.
 */
export interface OutboxMailsTable {
  /** Its time, kind and randomness ("20260101-120000-000-invite-0badc0de.eml"): the screen's and the CLI's ID. */
  id: string;
  /** The MailMessage's kind, e.g. "password-reset". */
  kind: string;
  /** The To and From headers as one line each ("Name <a@b>"). */
  recipient: string;
  sender: string;
  subject: string;
  /** Content-Language, e.g. "de". */
  language: string;
  filed_at: DbDate;
  /** The complete RFC 822 text, as it would have been sent. */
  raw: string;
}

/** better-auth's two-factor plugin (schema.mjs there): one row per user who started or finished enrolment. */
export interface TwoFactorTable {
  id: string;
  /** The TOTP secret, encrypted by better-auth with the auth secret. */
  secret: string;
  /** A JSON list of the SHA-256 hashes of the unused recovery codes (app/auth/recovery-codes.server.ts). */
  backupCodes: string;
  userId: string;
  /** False between "turn on" and the first code that confirms the authenticator. */
  verified: Generated<DbBoolean | null>;
  failedVerificationCount: Generated<number | null>;
  lockedUntil: DbDate | null;
}

/** One-time links of an account (app/domains/users/account-tokens.server.ts); only the token's SHA-256 is kept. */
export interface AccountTokensTable {
  token_hash: string;
  user_id: string;
  purpose: "password-reset" | "email-change";
  /** The address an e-mail change goes to; null for a password reset. */
  new_email: string | null;
  expires_at: DbDate;
  created_at: DbDate;
  used_at: DbDate | null;
}

/** A blog post (issue 12): English fields and their German twins (`_de`; empty German falls back to English). */
export interface PostsTable {
  id: string;
  /** The admin who wrote it; no foreign key (the post outlives the account). */
  author_id: string;
  status: "draft" | "scheduled" | "published";
  /** When it was or will be published; null for a draft never published. */
  publish_at: DbDate | null;
  title: string;
  title_de: string;
  /** The current slugs, unique per language ([a-z0-9-]); every slug ever used is in post_slugs. */
  slug: string;
  slug_de: string;
  excerpt: string;
  excerpt_de: string;
  /** Markdown. */
  body: string;
  body_de: string;
  cover_image_id: string | null;
  cover_alt: string;
  cover_alt_de: string;
  /** Who may see it once it is visible (migration 0024; app/domains/access/). */
  visibility: Generated<ContentVisibility>;
  created_at: DbDate;
  updated_at: DbDate;
}

/** Every slug a post ever had (its current ones too): an old slug answers 301 to the current one. */
export interface PostSlugsTable {
  slug: string;
  lang: "en" | "de";
  post_id: string;
}

export interface PostTagsTable {
  post_id: string;
  /** Lower-case, trimmed. */
  tag: string;
}

/** A message sent through the contact form (app/domains/contact/); no client address is kept. */
export interface ContactMessagesTable {
  id: string;
  /** As the sender typed them (single line, checked by contact-form.ts). */
  name: string;
  email: string;
  message: string;
  /** The language the sender wrote in (the page's): `en` or `de`. */
  language: string;
  created_at: DbDate;
  /** When an admin marked it read; null while unread. */
  read_at: DbDate | null;
}

// Background and bookkeeping tables (presence, change events, counted limits, jobs, secrets' fingerprints) are in
// schema-operations.ts, who may see what (issue 21) in schema-members.ts: named here too, as every table is.
export type {
  AlbumPicturesTable,
  AlbumsTable,
  AnnouncementRecipientsTable,
  AnnouncementsTable,
  AttemptCountsTable,
  ChangeEventsTable,
  ContentGroupsTable,
  ContentVisibility,
  EditorPresenceTable,
  InviteGroupsTable,
  JobsTable,
  MemberGroupsTable,
  MemberSubscriptionsTable,
  MemberVisitsTable,
  PublicChangesTable,
  SecretFingerprintsTable,
  ShareLinksTable,
  StatsDailyTable,
  StatsSaltsTable,
  StatsSeenTable,
  UserGroupsTable,
};

export interface Database {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  site_settings: SiteSettingsTable;
  user_roles: UserRolesTable;
  invite_codes: InviteCodesTable;
  images: ImagesTable;
  gallery_images: GalleryImagesTable;
  links: LinksTable;
  faq_entries: FaqEntriesTable;
  videos: VideosTable;
  audit_log: AuditLogTable;
  sign_in_failures: SignInFailuresTable;
  mail_failures: MailFailuresTable;
  twoFactor: TwoFactorTable;
  account_tokens: AccountTokensTable;
  posts: PostsTable;
  post_slugs: PostSlugsTable;
  post_tags: PostTagsTable;
  contact_messages: ContactMessagesTable;
  change_events: ChangeEventsTable;
  public_changes: PublicChangesTable;
  stats_daily: StatsDailyTable;
  stats_seen: StatsSeenTable;
  stats_salts: StatsSaltsTable;
  editor_presence: EditorPresenceTable;
  attempt_counts: AttemptCountsTable;
  jobs: JobsTable;
  secret_fingerprints: SecretFingerprintsTable;
  outbox_mails: OutboxMailsTable;
  search_documents: SearchDocumentsTable;
  member_groups: MemberGroupsTable;
  user_groups: UserGroupsTable;
  content_groups: ContentGroupsTable;
  invite_groups: InviteGroupsTable;
  share_links: ShareLinksTable;
  member_visits: MemberVisitsTable;
  albums: AlbumsTable;
  album_pictures: AlbumPicturesTable;
  member_subscriptions: MemberSubscriptionsTable;
  announcements: AnnouncementsTable;
  announcement_recipients: AnnouncementRecipientsTable;
  /** SQLite only (search-documents-table.ts). */
  search_fts: SearchFtsTable;
}
