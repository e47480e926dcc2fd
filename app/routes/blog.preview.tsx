import { data } from "react-router";
import { PostArticle } from "#app/components/blog/post-article.tsx";
import { publicWatermark } from "#app/domains/gallery/public-watermark.server.ts";
import { formatPostDate, loadPreviewPage } from "#app/domains/posts/blog-pages.server.ts";
import { verifyPreviewLink } from "#app/domains/posts/preview-link.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { useTranslate } from "#app/web/root-data.ts";
import { PRIVATE_CACHE_CONTROL, requestSettings } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/blog.preview";

/** Never kept by the page cache or anyone else, never indexed: the link is the only way in. */
const PREVIEW_HEADERS = { "Cache-Control": PRIVATE_CACHE_CONTROL, "X-Robots-Tag": "noindex, nofollow" };

export function headers() {
  return PREVIEW_HEADERS;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { lang } = languageOf(request);
  const { searchParams } = new URL(request.url);
  // Only the link's own three parameters are signed and read (`lang` chooses the language, as on every page).
  const signed = new URLSearchParams({
    post: searchParams.get("post") ?? "",
    expires: searchParams.get("expires") ?? "",
    signature: searchParams.get("signature") ?? "",
  });
  const link = verifyPreviewLink(signed, { secret: runtimeOf(context).previewSecret });
  // A wrong, changed or expired link says no more than an unknown address.
  if (!link) throw data(null, { status: 404, headers: PREVIEW_HEADERS });
  const [settings, post] = await Promise.all([
    requestSettings(context),
    loadPreviewPage(runtimeOf(context).database.db, { lang, postId: link.postId }),
  ]);
  if (!post) throw data(null, { status: 404, headers: PREVIEW_HEADERS });
  return data(
    { post, watermark: publicWatermark(settings), expires: formatPostDate(link.expiresAt.toISOString(), lang) },
    { headers: PREVIEW_HEADERS },
  );
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return [
    ...pageMeta(rootSeo(matches), location.pathname, { title: loaderData?.post.title }),
    { name: "robots", content: "noindex, nofollow" },
  ];
}

export default function BlogPreviewPage({ loaderData }: Route.ComponentProps) {
  const t = useTranslate();
  return (
    <>
      <p
        role="status"
        className="mx-auto mb-8 max-w-3xl rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
      >
        {t("blog.preview", { date: loaderData.expires })}
      </p>
      <PostArticle post={loaderData.post} watermark={loaderData.watermark} />
    </>
  );
}
