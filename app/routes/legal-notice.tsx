import { MarkdownContent, PageHeader } from "#app/components/page-header.tsx";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { pageTexts } from "#app/web/page-content.server.ts";
import type { Route } from "./+types/legal-notice";

export async function loader({ request, context }: Route.LoaderArgs) {
  return pageTexts(request, context, ["imprint_title"], ["imprint_content"]);
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return pageMeta(rootSeo(matches), location.pathname, { title: loaderData?.imprint_title });
}

export default function LegalNoticePage({ loaderData }: Route.ComponentProps) {
  return (
    <article className="max-w-3xl">
      <PageHeader title={loaderData.imprint_title} />
      <MarkdownContent html={loaderData.imprint_content} />
    </article>
  );
}
