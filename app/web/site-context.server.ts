import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import { COLOR_SCHEME_HINT, LANGUAGE_COOKIE, languageOf, preferenceCookie } from "#app/lib/preferences.ts";
import { sessionUserContext } from "#app/lib/request-context.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { PUBLIC_PAGE_CACHE_CONTROL } from "#app/web/cache-policy.ts";
import { loadSessionUser } from "#app/web/session.server.ts";

/** Site settings, read at most once per page load and shared by every loader of that request. */
const settingsContext = createContext<Promise<SiteSettings> | null>(null);

/**
 * The settings as the request's loaders should see them. A form post runs its action before the loaders,
 * in the same request: there every read is fresh, so a page shown after a save shows what was saved.
 */
export function requestSettings(context: Readonly<RouterContextProvider>): Promise<SiteSettings> {
  return context.get(settingsContext) ?? readSettings(runtimeOf(context).database.db);
}

/** Signed-in pages, admin screens, forms and anything setting a cookie: never stored anywhere. */
export const PRIVATE_CACHE_CONTROL = "private, no-store";
/**
 * Paths whose pages are never public even for a visitor: sign-in, the admin area, the API, post previews, share
 * links and unsubscribe links (their addresses hold tokens).
 */
const NEVER_PUBLIC = /^\/(admin|auth|account|api|blog\/preview|s|unsubscribe)(\/|\.data|$)/;

function cachePolicy(request: Request, signedIn: boolean, response: Response): string {
  const safe = request.method === "GET" || request.method === "HEAD";
  const { pathname } = new URL(request.url);
  const shared =
    safe && !signedIn && response.status === 200 && !response.headers.has("Set-Cookie") && !NEVER_PUBLIC.test(pathname);
  return shared ? PUBLIC_PAGE_CACHE_CONTROL : PRIVATE_CACHE_CONTROL;
}

export const siteMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (request.method === "GET" || request.method === "HEAD")
    context.set(settingsContext, readSettings(runtimeOf(context).database.db));
  const { user, headers } = await loadSessionUser(request, runtimeOf(context));
  context.set(sessionUserContext, user);

  const response = await next();

  for (const cookie of headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  const { lang, fromQuery } = languageOf(request);
  // A shared `?lang=de` link keeps the visitor in German as they click on.
  if (fromQuery) {
    response.headers.append(
      "Set-Cookie",
      preferenceCookie(LANGUAGE_COOKIE, lang, runtimeOf(context).env.baseUrl.startsWith("https://")),
    );
  }
  if (!response.headers.has("Cache-Control")) {
    const policy = cachePolicy(request, user !== null, response);
    response.headers.set("Cache-Control", policy);
    // The language and theme cookies change a public page: a shared cache must keep them apart.
    if (policy === PUBLIC_PAGE_CACHE_CONTROL) response.headers.append("Vary", "Cookie");
  }
  await varyByBrowserPreferences(context, response);
  return response;
};

/**
 * Without a language cookie the page is in the language the browser prefers: a shared cache must keep the
 * answers to different `Accept-Language` headers apart. A site whose theme follows the visitor's system asks
 * the browser for its colour scheme (Accept-CH); Critical-CH makes a browser that supports the hint but did not
 * send it (the very first visit) repeat the request with it, so that the first page already has the right theme.
 */
async function varyByBrowserPreferences(context: Readonly<RouterContextProvider>, response: Response): Promise<void> {
  response.headers.append("Vary", "Accept-Language");
  // A database that is away is answered elsewhere (503); the hint is then simply not asked for.
  const settings = await requestSettings(context).catch(() => null);
  if (settings?.default_theme !== "system") return;
  response.headers.set("Accept-CH", COLOR_SCHEME_HINT);
  response.headers.set("Critical-CH", COLOR_SCHEME_HINT);
  response.headers.append("Vary", COLOR_SCHEME_HINT);
}
