import { data, type MiddlewareFunction, type RouterContextProvider, redirect } from "react-router";
import { isAdmin } from "#app/domains/users/users.server.ts";
import { type SessionUser, sessionUserContext } from "#app/lib/request-context.ts";
import { getRuntime } from "#app/lib/runtime.server.ts";

/**
 * How long a session lasts after its sign-in, however much it is used: better-auth extends a session in use
 * (auth.server.ts), which alone would keep a stolen cookie working for ever. After this, sign in again.
 */
export const SESSION_ABSOLUTE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export function isPastAbsoluteLifetime(createdAt: Date | string, now: Date): boolean {
  return now.getTime() - new Date(createdAt).getTime() >= SESSION_ABSOLUTE_LIFETIME_MS;
}

/**
 * Reads the session cookie; `headers` carries a refreshed cookie when better-auth extended the session, or the
 * cookie's removal when the session has outlived SESSION_ABSOLUTE_LIFETIME_MS (it is deleted then).
 */
export async function loadSessionUser(
  request: Request,
  now = new Date(),
): Promise<{ user: SessionUser | null; headers: Headers }> {
  const { auth, database } = getRuntime();
  if (!request.headers.get("Cookie")?.includes("session_token")) return { user: null, headers: new Headers() };
  const { headers, response } = await auth.api.getSession({ headers: request.headers, returnHeaders: true });
  if (!response) return { user: null, headers };
  if (isPastAbsoluteLifetime(response.session.createdAt, now)) {
    // better-auth's own sign-out deletes the row by the cookie's token and answers with the cookies cleared.
    const ended = await auth.api.signOut({ headers: request.headers, returnHeaders: true });
    return { user: null, headers: ended.headers };
  }
  const user = {
    id: response.user.id,
    email: response.user.email,
    isAdmin: await isAdmin(database.db, response.user.id),
  };
  return { user, headers };
}

export function getSessionUser(context: Readonly<RouterContextProvider>): SessionUser | null {
  return context.get(sessionUserContext);
}

/**
 * Visitors go to sign-in and come back; signed-in non-admins get 403. Use in every admin loader and action.
 * Pass the loader's normalized `url`, not `request.url`: on a client-side navigation the raw request is the
 * single-fetch data request (`/admin.data`), which is no place to send a visitor back to.
 */
export function requireAdmin(url: URL, context: Readonly<RouterContextProvider>): SessionUser {
  const user = getSessionUser(context);
  if (!user) {
    const back = `${url.pathname}${url.search}`;
    throw redirect(`/auth?redirectTo=${encodeURIComponent(back)}`);
  }
  if (!user.isAdmin) throw data({ reason: "forbidden" }, { status: 403 });
  return user;
}

/**
 * On the admin layout route, before every nested loader and action: visitors are sent to sign in, and a
 * signed-in non-admin's write is refused before any action runs. A non-admin's reads (page loads and
 * client-side navigations) reach the loaders, so that the 403 page is rendered inside the site's header and
 * footer (a throw here would skip the root loader): the admin layout's loader refuses them, and every admin
 * loader calls `requireAdmin` too. Actions still call `requireAdmin` to learn who acts (for the audit log).
 */
export const requireAdminMiddleware: MiddlewareFunction<Response> = ({ request, url, context }, next) => {
  const user = getSessionUser(context);
  const isRead = request.method === "GET" || request.method === "HEAD";
  if (!user || (!user.isAdmin && !isRead)) requireAdmin(url, context);
  return next();
};
