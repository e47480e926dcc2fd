import { EmptyState, PageHeader } from "#app/components/page-header.tsx";
import { pageMeta, rootSeo } from "#app/lib/meta.ts";
import { pageTexts } from "#app/lib/page-content.server.ts";
import { useTranslate } from "#app/lib/root-data.ts";
import type { Route } from "./+types/gallery";

export async function loader({ request, context }: Route.LoaderArgs) {
  return pageTexts(request, context, ["gallery_page_title", "gallery_page_subtitle"]);
}

export function meta({ matches, location }: Route.MetaArgs) {
  return pageMeta(rootSeo(matches), location.pathname);
}

export default function GalleryPage({ loaderData }: Route.ComponentProps) {
  const t = useTranslate();
  return (
    <>
      <PageHeader title={loaderData.gallery_page_title} subtitle={loaderData.gallery_page_subtitle} />
      <EmptyState>{t("empty.gallery")}</EmptyState>
    </>
  );
}
