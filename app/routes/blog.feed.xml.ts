import { feedResponse } from "#app/web/feed-response.server.ts";
import type { Route } from "./+types/blog.feed.xml";

/** GET /blog/feed.xml (`?lang=de`): the blog as RSS 2.0 (app/domains/seo/feeds.server.ts). */
export function loader({ request, context }: Route.LoaderArgs) {
  return feedResponse(request, context, "rss");
}
