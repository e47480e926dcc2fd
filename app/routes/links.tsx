import { withIconMarkup } from "#app/components/link-icon.server.tsx";
import { LinkList } from "#app/components/link-list.tsx";
import { EmptyState, PageHeader } from "#app/components/page-header.tsx";
import { listPublishedLinks } from "#app/domains/links/links.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { pageTexts } from "#app/web/page-content.server.ts";
import { useTranslate } from "#app/web/root-data.ts";
import type { Route } from "./+types/links";

export async function loader({ request, context }: Route.LoaderArgs) {
  const [texts, links] = await Promise.all([
    pageTexts(request, context, ["links_page_title", "links_page_subtitle"]),
    listPublishedLinks(runtimeOf(context).database.db, languageOf(request).lang),
  ]);
  return { ...texts, links: withIconMarkup(links) };
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
      {loaderData.links.length === 0 ? (
        <EmptyState>{t("empty.links")}</EmptyState>
      ) : (
        <LinkList links={loaderData.links} label={loaderData.links_page_title} />
      )}
    </>
  );
}
