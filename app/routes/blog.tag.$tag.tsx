import { data, Link } from "react-router";
import { BlogPagination } from "#app/components/blog/blog-pagination.tsx";
import { PostCards, tagHref } from "#app/components/blog/post-cards.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { publicWatermark } from "#app/domains/gallery/public-watermark.server.ts";
import { loadBlogList, pageParameter, tagParameter } from "#app/domains/posts/blog-pages.server.ts";
import { translatorFor } from "#app/i18n/i18n.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { useTranslate } from "#app/web/root-data.ts";
import { readerOf } from "#app/web/session.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/blog.tag.$tag";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { lang } = languageOf(request);
  const tag = tagParameter(params.tag);
  // A tag no visible post has is no page (an unknown tag answers 404, as an unknown post does).
  if (tag === null) throw data(null, { status: 404 });
  const page = pageParameter(new URL(request.url).searchParams.get("page"));
  const [settings, list] = await Promise.all([
    requestSettings(context),
    loadBlogList(runtimeOf(context).database.db, { lang, page, tag, reader: readerOf(context) }),
  ]);
  if (!list) throw data(null, { status: 404 });
  return { list, tag, title: translatorFor(lang)("blog.tagTitle", { tag }), watermark: publicWatermark(settings) };
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return pageMeta(rootSeo(matches), location.pathname, { title: loaderData?.title });
}

export default function BlogTagPage({ loaderData }: Route.ComponentProps) {
  const t = useTranslate();
  const { list, tag, watermark } = loaderData;
  return (
    <>
      <PageHeader title={t("blog.tagTitle", { tag })} />
      <p className="-mt-6 mb-10">
        <Link
          to="/blog"
          className="text-sm font-medium text-indigo-700 underline underline-offset-4 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:text-indigo-200"
        >
          {t("blog.allPosts")}
        </Link>
      </p>
      <PostCards posts={list.posts} watermark={watermark} />
      <BlogPagination page={list.page} pageCount={list.pageCount} basePath={tagHref(tag)} />
    </>
  );
}
