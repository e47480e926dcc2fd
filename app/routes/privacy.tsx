import { MarkdownContent, PageHeader } from "#app/components/page-header.tsx";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { pageTexts } from "#app/web/page-content.server.ts";
import type { Route } from "./+types/privacy";

export async function loader({ request, context }: Route.LoaderArgs) {
  return pageTexts(request, context, ["privacy_title"], ["privacy_content"]);
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return pageMeta(rootSeo(matches), location.pathname, { title: loaderData?.privacy_title });
}

export default function PrivacyPage({ loaderData }: Route.ComponentProps) {
  return (
    <article className="max-w-3xl">
      <PageHeader title={loaderData.privacy_title} />
      <MarkdownContent html={loaderData.privacy_content} />
    </article>
  );
}
