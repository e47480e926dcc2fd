import type { RouterContextProvider } from "react-router";
import type { Language } from "#app/i18n/i18n.ts";
import { getDb, getRuntime } from "#app/lib/runtime.server.ts";
import { requestSettings } from "#app/lib/site-context.server.ts";
import { FEED_TYPES, type FeedFormat } from "./feed-links.ts";
import { renderFeed } from "./feeds.server.ts";
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
  const xml = await renderFeed(getDb(), await requestSettings(context), {
    baseUrl: getRuntime().env.baseUrl,
    format,
    lang,
  });
  return textResponse(request, xml, `${FEED_TYPES[format]}; charset=utf-8`);
}
