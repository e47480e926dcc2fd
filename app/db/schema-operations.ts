import type { Generated } from "kysely";
import type { DbDate } from "./column-types.ts";

/* Background and bookkeeping tables, part of `Database` in schema.ts. */

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

/** Per area, when visitors last could notice a change (migration 0029: the newest event for everyone). */
export interface PublicChangesTable {
  area: string;
  changed_at: DbDate;
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
  /** What its last successful run answered, as JSON, and when (migration 0031): the storage sweep's counts. */
  result: string | null;
  result_at: DbDate | null;
}

/** The fingerprint of a secret the site signs with (migration 0019; app/auth/auth-secret.server.ts). */
export interface SecretFingerprintsTable {
  /** Which secret: "auth" (AUTH_SECRET, or DATA_DIR/auth-secret). */
  name: string;
  /** An HMAC of a fixed label under the secret, base64url: tells secrets apart without holding one. */
  fingerprint: string;
  recorded_at: DbDate;
}

/** Statistics (migration 0032): per day (UTC, `YYYY-MM-DD`), kind and key, sums only. */
export interface StatsDailyTable {
  day: string;
  /** site, page, picture, entry, exit, referrer, utm, language, device, audience, notfound, notfound-referrer, search, search-empty */
  kind: string;
  key: string;
  views: number | string;
  visitors: number | string;
  member_views: number | string;
}

/** Today's visitors by their salted hash, per kind and key: what makes a visitor count once across instances. */
export interface StatsSeenTable {
  day: string;
  visitor: string;
  kind: string;
  key: string;
}

/** The random salt of a day, deleted when the day is over. */
export interface StatsSaltsTable {
  day: string;
  salt: string;
}
