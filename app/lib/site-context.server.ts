import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { loadSessionUser } from "#app/auth/session.server.ts";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import { LANGUAGE_COOKIE, languageOf, preferenceCookie } from "./preferences.ts";
import { sessionUserContext } from "./request-context.ts";
import { getDb, getRuntime } from "./runtime.server.ts";

/** Site settings, read at most once per page load and shared by every loader of that request. */
const settingsContext = createContext<Promise<SiteSettings> | null>(null);

/**
 * The settings as the request's loaders should see them. A form post runs its action before the loaders,
 * in the same request: there every read is fresh, so a page shown after a save shows what was saved.
 */
export function requestSettings(context: Readonly<RouterContextProvider>): Promise<SiteSettings> {
  return context.get(settingsContext) ?? readSettings(getDb());
}

export const siteMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (request.method === "GET" || request.method === "HEAD") context.set(settingsContext, readSettings(getDb()));
  const { user, headers } = await loadSessionUser(request);
  context.set(sessionUserContext, user);

  const response = await next();

  for (const cookie of headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  const { lang, fromQuery } = languageOf(request);
  // A shared `?lang=de` link keeps the visitor in German as they click on.
  if (fromQuery) {
    response.headers.append(
      "Set-Cookie",
      preferenceCookie(LANGUAGE_COOKIE, lang, getRuntime().env.baseUrl.startsWith("https://")),
    );
  }
  return response;
};
