import type { BetterAuthPlugin } from "better-auth";
import { createAuthEndpoint } from "better-auth/api";

/** The cookie better-auth's two-factor plugin sets between the password and the second step (its constant.mjs). */
const TWO_FACTOR_COOKIE = "two_factor";

/**
 * A server-only endpoint that tells whose sign-in is waiting for its second step, read the way the two-factor plugin
 * reads it (its signed cookie, then its verification row). Our second step needs the account before the code is
 * checked, to count the attempt towards the account's own limit (account-throttle.server.ts), which the plugin
 * knows nothing of. Returns null when there is no such sign-in (no cookie, a forged one, or one gone stale).
 */
export const pendingSignIn = () =>
  ({
    id: "vitrine-pending-sign-in",
    endpoints: {
      pendingSignIn: createAuthEndpoint.serverOnly({ method: "GET" }, async (ctx) => {
        const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE);
        const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
        if (!identifier) return null;
        const verification = await ctx.context.internalAdapter.findVerificationValue(identifier);
        if (!verification || new Date(verification.expiresAt).getTime() <= Date.now()) return null;
        const user = await ctx.context.internalAdapter.findUserById(verification.value);
        return user ? { userId: user.id, email: user.email } : null;
      }),
    },
  }) satisfies BetterAuthPlugin;
