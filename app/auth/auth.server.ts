import { betterAuth } from "better-auth";
import type { Kysely } from "kysely";
import type { DatabaseKind } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "#app/domains/users/password-policy.ts";

export const SESSION_COOKIE_PREFIX = "vitrine";
const THIRTY_DAYS_SECONDS = 60 * 60 * 24 * 30;
const ONE_DAY_SECONDS = 60 * 60 * 24;

export function createAuth(options: { db: Kysely<Database>; kind: DatabaseKind; secret: string; baseUrl: string }) {
  const secure = options.baseUrl.startsWith("https://");
  return betterAuth({
    appName: "Vitrine",
    baseURL: options.baseUrl,
    secret: options.secret,
    database: { db: options.db, type: options.kind },
    emailAndPassword: {
      enabled: true,
      // Accounts are created only through the invite flow (users.server.ts), which
      // consumes the code in the same transaction; better-auth's own sign-up stays shut.
      disableSignUp: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
    },
    session: {
      expiresIn: THIRTY_DAYS_SECONDS,
      // Any use a day after the last refresh extends the session: active visitors stay signed in.
      updateAge: ONE_DAY_SECONDS,
    },
    // Failed attempts are limited per address in rate-limit.server.ts, around our own forms.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    trustedOrigins: [options.baseUrl],
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
