import { data, type RouterContextProvider, redirect } from "react-router";
import { isAdmin } from "#app/domains/users/users.server.ts";
import { type SessionUser, sessionUserContext } from "#app/lib/request-context.ts";
import { getRuntime } from "#app/lib/runtime.server.ts";

/** Reads the session cookie; `headers` carries a refreshed cookie when better-auth extended the session. */
export async function loadSessionUser(request: Request): Promise<{ user: SessionUser | null; headers: Headers }> {
  const { auth, database } = getRuntime();
  if (!request.headers.get("Cookie")?.includes("session_token")) return { user: null, headers: new Headers() };
  const { headers, response } = await auth.api.getSession({ headers: request.headers, returnHeaders: true });
  if (!response) return { user: null, headers };
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
