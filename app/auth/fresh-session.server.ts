import type { BetterAuthPlugin } from "better-auth";
import { createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { z } from "zod";

/**
 * `auth.api.startFreshSession({ body: { userId }, headers, returnHeaders: true })`: a new session for an account
 * whose identity the caller has just proven (its own password check), with better-auth's own session row (address
 * and browser from the request's headers) and signed cookie. Used after a password change: `setPassword` ends every
 * session of the account, and the person who changed it stays signed in on a new one (the old cookie is worthless).
 * better-auth's `changePassword` would do the same, but skips what `setPassword` does besides (failed sign-ins, reset
 * links); `signInEmail` with the new password would ask for a second factor again. Server-only: the HTTP handler is
 * not mounted, and the endpoint has no path.
 */
export function freshSession() {
  return {
    id: "vitrine-fresh-session",
    endpoints: {
      startFreshSession: createAuthEndpoint.serverOnly(
        { method: "POST", body: z.object({ userId: z.string().min(1) }) },
        async (ctx) => {
          const user = await ctx.context.internalAdapter.findUserById(ctx.body.userId);
          if (!user) throw ctx.error("NOT_FOUND", { message: "No such user" });
          const session = await ctx.context.internalAdapter.createSession(user.id);
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ sessionId: session.id });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
