import { betterAuth } from "better-auth";
import { twoFactor } from "better-auth/plugins/two-factor";
import type { Kysely } from "kysely";
import type { DatabaseKind } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { CLIENT_ADDRESS_HEADER } from "#app/lib/client-address.ts";
import { freshSession } from "./fresh-session.server.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-policy.ts";
import { pendingSignIn } from "./pending-sign-in.server.ts";
import { generateRecoveryCodes, hashRecoveryCodeList, readRecoveryCodeList } from "./recovery-codes.server.ts";

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
    plugins: [
      // TOTP (RFC 6238) with better-auth's own secret storage (encrypted with the auth secret), its pending-sign-in
      // cookie and its session creation after the second step. Its codes are checked with a window of one time
      // step either side (the verifier's default), so ±30 s of clock drift pass and ±60 s do not.
      twoFactor({
        // The issuer shown in authenticator apps is the site's name, passed per call (routes/account.two-factor.tsx).
        issuer: "Vitrine",
        // No "trust this device" (our second step never passes `trustDevice`): every sign-in asks for the code.
        // The pending sign-in lasts ten minutes: long enough to find the phone, short enough to go stale.
        twoFactorCookieMaxAge: 600,
        backupCodeOptions: {
          amount: 10,
          customBackupCodesGenerate: generateRecoveryCodes,
          // Stored as SHA-256 hashes, not encrypted: see recovery-codes.server.ts.
          storeBackupCodes: {
            encrypt: async (json) => hashRecoveryCodeList(json),
            decrypt: async (s) => readRecoveryCodeList(s),
          },
        },
      }),
      pendingSignIn(),
      // A new session for the person who just changed their password (their others end): fresh-session.server.ts.
      freshSession(),
    ],
    advanced: {
      // The address a session records ("Sessions" on /account): the one the HTTP server resolved (behind TRUST_PROXY
      // hops), which server/app.ts puts in this header of every request, replacing whatever a client sent in it.
      // better-auth's default, X-Forwarded-For, is the client's to write when there is no proxy, and a chain of
      // several entries behind one. Whole IPv6 addresses, not better-auth's /64 (kept for rate limits).
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER], ipv6Subnet: 128 },
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
