import { listBlogPages } from "#app/domains/seo/blog-sitemap.server.ts";
import { buildSitemap } from "#app/domains/seo/sitemap.server.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import { textResponse } from "#app/web/text-response.server.ts";
import type { Route } from "./+types/sitemap.xml";

/** GET /sitemap.xml: the public pages in both languages, the gallery's pictures and the blog's posts (app/domains/seo/). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const xml = await buildSitemap(
    runtimeOf(context).database.db,
    await requestSettings(context),
    runtimeOf(context).env.baseUrl,
    [listBlogPages],
  );
  return textResponse(request, xml, "application/xml; charset=utf-8");
}
