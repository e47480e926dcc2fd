import { EmptyState, PageHeader } from "#app/components/page-header.tsx";
import { pageMeta, rootSeo } from "#app/lib/meta.ts";
import { pageTexts } from "#app/lib/page-content.server.ts";
import { useTranslate } from "#app/lib/root-data.ts";
import type { Route } from "./+types/videos";

export async function loader({ request, context }: Route.LoaderArgs) {
  return pageTexts(request, context, ["video_page_title", "video_page_subtitle"]);
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return pageMeta(rootSeo(matches), location.pathname, {
    title: loaderData?.video_page_title,
    description: loaderData?.video_page_subtitle,
  });
}

export default function VideosPage({ loaderData }: Route.ComponentProps) {
  const t = useTranslate();
  return (
    <>
      <PageHeader title={loaderData.video_page_title} subtitle={loaderData.video_page_subtitle} />
      <EmptyState>{t("empty.videos")}</EmptyState>
    </>
  );
}
