import type { Kysely } from "kysely";
import { data, type MiddlewareFunction, type RouterContextProvider, redirect } from "react-router";
import { isPastAbsoluteLifetime, recordSessionActivity } from "#app/auth/session.server.ts";
import type { Database } from "#app/db/schema.ts";
import { groupIdsOf } from "#app/domains/access/access.server.ts";
import type { Reader } from "#app/domains/access/reader.ts";
import { noteVisit } from "#app/domains/home/new-for-you.server.ts";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import { hasTwoFactor, isTwoFactorRequiredForAdmins } from "#app/domains/users/two-factor.server.ts";
import { isAdmin } from "#app/domains/users/users.server.ts";
import { type SessionUser, sessionUserContext } from "#app/lib/request-context.ts";
import type { Runtime } from "#app/runtime/runtime-context.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";

// The session as the web edge sees it: read from the request's cookie once (site-context's middleware), then asked
// for by loaders and actions. The rules of a session itself (its lifetimes) are in app/auth/session.server.ts.

/**
 * Reads the session cookie; `headers` carries a refreshed cookie when better-auth extended the session, or the
 * cookie's removal when the session has outlived SESSION_ABSOLUTE_LIFETIME_MS (it is deleted then).
 */
export async function loadSessionUser(
  request: Request,
  { auth, database }: Pick<Runtime, "auth" | "database">,
  now = new Date(),
): Promise<{ user: SessionUser | null; headers: Headers }> {
  if (!request.headers.get("Cookie")?.includes("session_token")) return { user: null, headers: new Headers() };
  const { headers, response } = await auth.api.getSession({ headers: request.headers, returnHeaders: true });
  if (!response) return { user: null, headers };
  if (isPastAbsoluteLifetime(response.session.createdAt, now)) {
    // better-auth's own sign-out deletes the row by the cookie's token and answers with the cookies cleared.
    const ended = await auth.api.signOut({ headers: request.headers, returnHeaders: true });
    return { user: null, headers: ended.headers };
  }
  await recordSessionActivity(database.db, response.session, now);
  // A request after a long pause starts a new visit: the home page's "new for you" counts from the last one's end.
  await noteVisit(database.db, response.user.id, new Date(response.session.updatedAt), now);
  const [admin, groupIds] = await Promise.all([
    isAdmin(database.db, response.user.id),
    groupIdsOf(database.db, response.user.id),
  ]);
  const user = {
    id: response.user.id,
    email: response.user.email,
    isAdmin: admin,
    sessionId: response.session.id,
    groupIds,
  };
  return { user, headers };
}

export function getSessionUser(context: Readonly<RouterContextProvider>): SessionUser | null {
  return context.get(sessionUserContext);
}

/**
 * Who reads this request's pages, for the one visibility rule (app/domains/access/): read with the session on every
 * request, so that a member's changed groups count from their next request.
 */
export function readerOf(context: Readonly<RouterContextProvider>): Reader {
  return readerOfUser(getSessionUser(context));
}

/** The reader a signed-in user (or nobody) is. */
export function readerOfUser(user: SessionUser | null): Reader {
  if (!user) return { kind: "visitor" };
  if (user.isAdmin) return { kind: "admin", userId: user.id };
  return { kind: "member", userId: user.id, groupIds: user.groupIds };
}

/**
 * Any signed-in user; visitors go to sign-in and come back. Use in every loader and action of the account pages.
 * Pass the loader's normalized `url` (see `requireAdmin`).
 */
export function requireUser(url: URL, context: Readonly<RouterContextProvider>): SessionUser {
  const user = getSessionUser(context);
  if (!user) {
    const back = `${url.pathname}${url.search}`;
    throw redirect(`/auth?redirectTo=${encodeURIComponent(back)}`);
  }
  return user;
}

/**
 * Visitors go to sign-in and come back; signed-in non-admins get 403. Use in every admin loader and action.
 * Pass the loader's normalized `url`, not `request.url`: on a client-side navigation the raw request is the
 * single-fetch data request (`/admin.data`), which is no place to send a visitor back to.
 */
export function requireAdmin(url: URL, context: Readonly<RouterContextProvider>): SessionUser {
  const user = requireUser(url, context);
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
export const requireAdminMiddleware: MiddlewareFunction<Response> = async ({ request, url, context }, next) => {
  const user = getSessionUser(context);
  const isRead = request.method === "GET" || request.method === "HEAD";
  if (!user || (!user.isAdmin && !isRead)) requireAdmin(url, context);
  if (user?.isAdmin) await requireAdminTwoFactor(runtimeOf(context).database.db, user);
  return next();
};

/** Where an admin without two-factor sign-in is sent while the site requires it (the page explains why). */
export const ADMIN_TWO_FACTOR_SETUP_PATH = "/account/two-factor?required=admin";

/**
 * The site setting "Admins must use two-factor sign-in": while it is on, an admin who has not turned it on is sent
 * to set it up before any admin loader or action runs (reads and writes alike, so nothing is changed either).
 */
async function requireAdminTwoFactor(db: Kysely<Database>, user: SessionUser): Promise<void> {
  if (!isTwoFactorRequiredForAdmins(await readSettings(db))) return;
  if (await hasTwoFactor(db, user.id)) return;
  throw redirect(ADMIN_TWO_FACTOR_SETUP_PATH);
}

/**
 * The reader a request's cookie stands for, read without extending or recording the session (a file of a page is
 * no visit): `/media/members/…` asks it for every file (app/web/member-media.server.ts).
 */
export async function readerOfCookie(
  cookie: string | undefined,
  { auth, database }: Pick<Runtime, "auth" | "database">,
  now = new Date(),
): Promise<Reader> {
  if (!cookie?.includes("session_token")) return { kind: "visitor" };
  const session = await auth.api.getSession({ headers: new Headers({ cookie }), query: { disableRefresh: true } });
  if (!session || isPastAbsoluteLifetime(session.session.createdAt, now)) return { kind: "visitor" };
  const userId = session.user.id;
  if (await isAdmin(database.db, userId)) return { kind: "admin", userId };
  return { kind: "member", userId, groupIds: await groupIdsOf(database.db, userId) };
}

/**
 * Who holds a live stream (server/event-streams.ts), from its request's cookie: read without extending the session
 * (a stream is no visit) and asked again whenever that user's roles or sessions change.
 */
export async function identifyStreamHolder(
  cookie: string | undefined,
  runtime: Pick<Runtime, "auth" | "database">,
  now = new Date(),
): Promise<{ viewer: "visitor" | "member" | "admin"; userId: string | null }> {
  const reader = await readerOfCookie(cookie, runtime, now);
  return reader.kind === "visitor"
    ? { viewer: "visitor", userId: null }
    : { viewer: reader.kind, userId: reader.userId };
}
