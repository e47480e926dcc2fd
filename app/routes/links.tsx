import { EmptyState, PageHeader } from "#app/components/page-header.tsx";
import { pageMeta, rootSeo } from "#app/lib/meta.ts";
import { pageTexts } from "#app/lib/page-content.server.ts";
import { useTranslate } from "#app/lib/root-data.ts";
import type { Route } from "./+types/links";

export async function loader({ request, context }: Route.LoaderArgs) {
  return pageTexts(request, context, ["links_page_title", "links_page_subtitle"]);
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return pageMeta(rootSeo(matches), location.pathname, {
    title: loaderData?.links_page_title,
    description: loaderData?.links_page_subtitle,
  });
}

export default function LinksPage({ loaderData }: Route.ComponentProps) {
  const t = useTranslate();
  return (
    <>
      <PageHeader title={loaderData.links_page_title} subtitle={loaderData.links_page_subtitle} />
      <EmptyState>{t("empty.links")}</EmptyState>
    </>
  );
}
