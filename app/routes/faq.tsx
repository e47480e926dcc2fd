import { EmptyState, PageHeader } from "#app/components/page-header.tsx";
import { pageMeta, rootSeo } from "#app/lib/meta.ts";
import { pageTexts } from "#app/lib/page-content.server.ts";
import { useTranslate } from "#app/lib/root-data.ts";
import type { Route } from "./+types/faq";

export async function loader({ request, context }: Route.LoaderArgs) {
  return pageTexts(request, context, ["faq_page_title", "faq_page_subtitle"]);
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return pageMeta(rootSeo(matches), location.pathname, {
    title: loaderData?.faq_page_title,
    description: loaderData?.faq_page_subtitle,
  });
}

export default function FaqPage({ loaderData }: Route.ComponentProps) {
  const t = useTranslate();
  return (
    <>
      <PageHeader title={loaderData.faq_page_title} subtitle={loaderData.faq_page_subtitle} />
      <EmptyState>{t("empty.faq")}</EmptyState>
    </>
  );
}
