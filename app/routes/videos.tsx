import { EmptyState, PageHeader } from "#app/components/page-header.tsx";
import { VideoCard } from "#app/components/video-player.tsx";
import { listPublishedVideos } from "#app/domains/videos/videos.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { pageTexts } from "#app/web/page-content.server.ts";
import { useTranslate } from "#app/web/root-data.ts";
import { readerOf } from "#app/web/session.server.ts";
import type { Route } from "./+types/videos";

export async function loader({ request, context }: Route.LoaderArgs) {
  const [texts, videos] = await Promise.all([
    pageTexts(request, context, ["video_page_title", "video_page_subtitle"]),
    listPublishedVideos(runtimeOf(context).database.db, languageOf(request).lang, readerOf(context)),
  ]);
  return { ...texts, videos };
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
      {loaderData.videos.length === 0 ? (
        <EmptyState>{t("empty.videos")}</EmptyState>
      ) : (
        <div className="grid gap-12 lg:grid-cols-2">
          {loaderData.videos.map((video, index) => (
            <VideoCard key={video.id} video={video} first={index === 0} />
          ))}
        </div>
      )}
    </>
  );
}
