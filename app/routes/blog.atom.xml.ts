import { feedResponse } from "#app/web/feed-response.server.ts";
import type { Route } from "./+types/blog.atom.xml";

/** GET /blog/atom.xml (`?lang=de`): the blog as Atom 1.0 (app/domains/seo/feeds.server.ts). */
export function loader({ request, context }: Route.LoaderArgs) {
  return feedResponse(request, context, "atom");
}
