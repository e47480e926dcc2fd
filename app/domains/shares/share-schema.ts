import { z } from "zod";

/**
 * A new share link's choices (issue 21): when it stops working (a day, or never) and a password (or none). Messages
 * are admin dictionary keys.
 */
export const SHARE_PASSWORD_MIN = 6;
export const SHARE_PASSWORD_MAX = 200;

export const shareLinkSchema = z.object({
  /** The last day it works (`YYYY-MM-DD`, through the end of that day in UTC); empty: until revoked. */
  expires_on: z.preprocess(
    (value) => (value === undefined || value === null ? "" : value),
    z
      .string({ error: "admin.shares.error.expires" })
      .trim()
      .refine((value) => value === "" || (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))), {
        error: "admin.shares.error.expires",
      }),
  ),
  password: z.preprocess(
    (value) => (value === undefined || value === null ? "" : value),
    z
      .string({ error: "admin.shares.error.password" })
      .refine((value) => value === "" || (value.length >= SHARE_PASSWORD_MIN && value.length <= SHARE_PASSWORD_MAX), {
        error: "admin.shares.error.password",
      }),
  ),
});

export type ShareLinkInput = z.output<typeof shareLinkSchema>;

/** What the share page's password form sends. */
export const sharePasswordSchema = z.object({ password: z.string().max(SHARE_PASSWORD_MAX) });

/** A share link as the editor lists it (never its token: only its hash is kept). */
export type ShareLinkSummary = {
  id: string;
  createdAt: string;
  expiresAt: string | null;
  hasPassword: boolean;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** Works now: neither revoked nor expired. */
  active: boolean;
};
