import { renderRobots } from "#app/domains/seo/sitemap.server.ts";
import { textResponse } from "#app/domains/seo/text-response.server.ts";
import { getRuntime } from "#app/lib/runtime.server.ts";
import type { Route } from "./+types/robots.txt";

/** GET /robots.txt: keeps crawlers out of the admin, sign-in and account pages; names the sitemap. */
export function loader({ request }: Route.LoaderArgs) {
  return textResponse(request, renderRobots(getRuntime().env.baseUrl), "text/plain; charset=utf-8");
}
