import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { FailedAttemptLimiter } from "./rate-limit.server.ts";

/**
 * Password reset requests per e-mail address, whether or not it has an account (so that the limit tells nothing
 * about which do): a few mails an hour are enough for a person, and nobody can fill someone's mailbox with
 * them. The per-client limit (runtime.authLimiter) counts the same requests by sender. In the database, like that
 * one, so that every server process counts the same requests.
 */
export const RESET_REQUESTS_PER_EMAIL = 3;
export const RESET_REQUEST_WINDOW_MS = 60 * 60_000;

/** Made once by the runtime, which holds it beside the per-client limiter. */
export function createResetRequestLimiter(db: Kysely<Database>): FailedAttemptLimiter {
  return new FailedAttemptLimiter(db, "reset-email", RESET_REQUESTS_PER_EMAIL, RESET_REQUEST_WINDOW_MS);
}
