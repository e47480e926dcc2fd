import { renderRobots } from "#app/domains/seo/sitemap.server.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { textResponse } from "#app/web/text-response.server.ts";
import type { Route } from "./+types/robots.txt";

/** GET /robots.txt: keeps crawlers out of the admin, sign-in and account pages; names the sitemap. */
export function loader({ request, context }: Route.LoaderArgs) {
  return textResponse(request, renderRobots(runtimeOf(context).env.baseUrl), "text/plain; charset=utf-8");
}
