import { data, redirect } from "react-router";
import { PostArticle } from "#app/components/blog/post-article.tsx";
import { publicWatermark } from "#app/domains/gallery/public-watermark.server.ts";
import { loadPostPage } from "#app/domains/posts/blog-pages.server.ts";
import { postMeta } from "#app/domains/seo/post-meta.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { languageUrls, pageMeta, rootSeo } from "#app/web/meta.ts";
import { useRootData } from "#app/web/root-data.ts";
import { readerOf } from "#app/web/session.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/blog.$slug";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { lang } = languageOf(request);
  const [settings, post] = await Promise.all([
    requestSettings(context),
    loadPostPage(runtimeOf(context).database.db, { lang, slug: params.slug, reader: readerOf(context) }),
  ]);
  // Unknown, a draft, or not yet due: the site's not-found page, whatever the post's state.
  if (post === null) throw data(null, { status: 404 });
  // A slug the post had before: moved for good (301); its other language's slug: this language's version (302).
  if ("redirectTo" in post) {
    throw redirect(`${post.redirectTo}${new URL(request.url).search}`, post.permanent ? 301 : 302);
  }
  return { post, watermark: publicWatermark(settings) };
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  const seo = rootSeo(matches);
  const tags = pageMeta(seo, location.pathname, {
    title: loaderData?.post.title,
    description: loaderData?.post.excerpt,
    paths: loaderData?.post.paths,
  });
  // og:type article with its times, BlogPosting and BreadcrumbList (app/domains/seo/post-meta.ts).
  return seo && loaderData ? postMeta(seo, tags, loaderData.post) : tags;
}

export default function BlogPostPage({ loaderData }: Route.ComponentProps) {
  const seo = useRootData()?.seo;
  const { post } = loaderData;
  // The post's canonical address in the visitor's language, as its head names it.
  const urls = seo ? languageUrls(seo.baseUrl, post.paths) : null;
  const shareUrl = urls ? (seo?.lang === "de" ? urls.de : urls.default) : undefined;
  return <PostArticle post={post} watermark={loaderData.watermark} shareUrl={shareUrl} />;
}
