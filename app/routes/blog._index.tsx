import { data } from "react-router";
import { BlogPagination } from "#app/components/blog/blog-pagination.tsx";
import { PostCards } from "#app/components/blog/post-cards.tsx";
import { EmptyState, PageHeader } from "#app/components/page-header.tsx";
import { publicWatermark } from "#app/domains/gallery/public-watermark.server.ts";
import { loadBlogList, pageParameter } from "#app/domains/posts/blog-pages.server.ts";
import { translatorFor } from "#app/i18n/i18n.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { useTranslate } from "#app/web/root-data.ts";
import { readerOf } from "#app/web/session.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/blog._index";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { lang } = languageOf(request);
  const page = pageParameter(new URL(request.url).searchParams.get("page"));
  const [settings, list] = await Promise.all([
    requestSettings(context),
    loadBlogList(runtimeOf(context).database.db, { lang, page, tag: null, reader: readerOf(context) }),
  ]);
  if (!list) throw data(null, { status: 404 });
  return { list, title: translatorFor(lang)("blog.title"), watermark: publicWatermark(settings) };
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return pageMeta(rootSeo(matches), location.pathname, { title: loaderData?.title });
}

export default function BlogPage({ loaderData }: Route.ComponentProps) {
  const t = useTranslate();
  const { list, watermark } = loaderData;
  return (
    <>
      <PageHeader title={t("blog.title")} />
      {list.posts.length === 0 ? (
        <EmptyState>{t("blog.empty")}</EmptyState>
      ) : (
        <PostCards posts={list.posts} watermark={watermark} />
      )}
      <BlogPagination page={list.page} pageCount={list.pageCount} basePath="/blog" />
    </>
  );
}
