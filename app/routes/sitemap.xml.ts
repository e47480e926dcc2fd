import { listBlogPages } from "#app/domains/seo/blog-sitemap.server.ts";
import { buildSitemap } from "#app/domains/seo/sitemap.server.ts";
import { getDb, getRuntime } from "#app/lib/runtime.server.ts";
import { requestSettings } from "#app/lib/site-context.server.ts";
import type { Route } from "./+types/sitemap.xml";

/** GET /sitemap.xml: the public pages in both languages, the gallery's pictures and the blog's posts (app/domains/seo/). */
export async function loader({ context }: Route.LoaderArgs) {
  const xml = await buildSitemap(getDb(), await requestSettings(context), getRuntime().env.baseUrl, [listBlogPages]);
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      // Crawlers come rarely; an hour's copy is current enough and saves nothing worth more.
      "Cache-Control": "public, max-age=3600",
    },
  });
}
