import type { Generated } from "kysely";
import type { SearchDocumentsTable, SearchFtsTable } from "./search-documents-table.ts";

/** Dates are ISO text on SQLite, Date objects on PostgreSQL; booleans 0/1 on SQLite: services use `values.ts`. */
export type DbDate = string | Date;
export type DbBoolean = boolean | number;

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

/** An open post editor (a browser tab), kept while its heartbeat comes (migration 0016). */
export interface EditorPresenceTable {
  post_id: string;
  tab: string;
  user_id: string;
  seen_at: DbDate;
}

/** A change someone may notice (migration 0015, written by triggers): never the changed data itself. */
export interface ChangeEventsTable {
  /** In commit order; what a stream's `Last-Event-ID` counts. */
  seq: Generated<number | string>;
  area: string;
  action: string;
  entity_id: string | null;
  /** everyone | members | admins | nobody (server-internal) */
  audience: string;
  created_at: DbDate;
}

/**
 * One counted limit's count for one key in its current window (migration 0017, app/auth/rate-limit.server.ts):
 * failed sign-ins per client address, reset requests per e-mail address, the contact form's limits and spent tokens.
 */
export interface AttemptCountsTable {
  /** Which limit: "auth", "reset-email", "contact-client", … */
  scope: string;
  /** What it counts: a client address, an e-mail address, a token's challenge. */
  key: string;
  /** Attempts counted in the window; 0 (all forgiven) counts as no row. */
  failures: number;
  /** When the window ends: from then on the key starts afresh. */
  reset_at: DbDate;
}

/** One piece of background work (migration 0018, app/domains/jobs/). */
export interface JobsTable {
  id: string;
  kind: string; // its handler's name: "image.finish", "watermark.redraw", "posts.publish", …
  lane: string; // media | maintenance | default (job-queue.server.ts)
  payload: string; // the handler's input, as JSON
  /** At most one queued job per key, and none claimed while one of the key runs. */
  dedupe_key: string | null;
  state: string; // queued | running | done | failed (for good: shown to the admin)
  /** Not claimed before this time (a retry's backoff, a recurring job's next turn). */
  run_at: DbDate;
  attempts: Generated<number>;
  max_attempts: number;
  /** Its holder while running, until `locked_until` (the lease, renewed while it works). */
  locked_by: string | null;
  locked_until: DbDate | null;
  last_error: string | null;
  created_at: DbDate;
  updated_at: DbDate;
  finished_at: DbDate | null;
}

/** The fingerprint of a secret the site signs with (migration 0019; app/auth/auth-secret.server.ts). */
export interface SecretFingerprintsTable {
  /** Which secret: "auth" (AUTH_SECRET, or DATA_DIR/auth-secret). */
  name: string;
  /** An HMAC of a fixed label under the secret, base64url: tells secrets apart without holding one. */
  fingerprint: string;
  recorded_at: DbDate;
}

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
  editor_presence: EditorPresenceTable;
  attempt_counts: AttemptCountsTable;
  jobs: JobsTable;
  secret_fingerprints: SecretFingerprintsTable;
  outbox_mails: OutboxMailsTable;
  search_documents: SearchDocumentsTable;
  /** SQLite only (search-documents-table.ts). */
  search_fts: SearchFtsTable;
}
