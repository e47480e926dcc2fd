import { renderRobots } from "#app/domains/seo/sitemap.server.ts";
import { getRuntime } from "#app/lib/runtime.server.ts";

/** GET /robots.txt: keeps crawlers out of the admin, sign-in and account pages; names the sitemap. */
export function loader() {
  return new Response(renderRobots(getRuntime().env.baseUrl), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
