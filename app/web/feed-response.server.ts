import type { RouterContextProvider } from "react-router";
import { FEED_TYPES, type FeedFormat } from "#app/domains/seo/feed-links.ts";
import { renderFeed } from "#app/domains/seo/feeds.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import { textResponse } from "./text-response.server.ts";

/**
 * The answer of `/blog/feed.xml` and `/blog/atom.xml`: the feed in the language `?lang=` names (English
 * without it: a feed reader sends no cookie worth following, and the address must always give the same feed).
 */
export async function feedResponse(
  request: Request,
  context: Readonly<RouterContextProvider>,
  format: FeedFormat,
): Promise<Response> {
  const query = new URL(request.url).searchParams.get("lang");
  const lang: Language = query === "de" ? "de" : "en";
  const { database, env, storage } = runtimeOf(context);
  const xml = await renderFeed(database.db, await requestSettings(context), {
    baseUrl: env.baseUrl,
    storage,
    format,
    lang,
  });
  return textResponse(request, xml, `${FEED_TYPES[format]}; charset=utf-8`);
}
