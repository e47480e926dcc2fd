import { MarkdownContent, PageHeader } from "#app/components/page-header.tsx";
import { pageMeta, rootSeo } from "#app/lib/meta.ts";
import { pageTexts } from "#app/lib/page-content.server.ts";
import type { Route } from "./+types/home";

export async function loader({ request, context }: Route.LoaderArgs) {
  return pageTexts(request, context, ["home_title", "home_subtitle"], ["home_content"]);
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return pageMeta(rootSeo(matches), location.pathname, { title: loaderData?.home_title });
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  return (
    <article className="max-w-3xl">
      <PageHeader title={loaderData.home_title} subtitle={loaderData.home_subtitle} />
      <MarkdownContent html={loaderData.home_content} />
    </article>
  );
}
