import { Form, useLocation, useNavigation } from "react-router";
import { AlbumView } from "#app/components/albums/album-view.tsx";
import { PostArticle } from "#app/components/blog/post-article.tsx";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { useTranslate } from "#app/web/root-data.ts";
import type { Route } from "./+types/share.$token";
import { loadSharePage, SHARE_HEADERS, unlockShare } from "./share.$token.server.ts";

export function headers() {
  return SHARE_HEADERS;
}

/** A page or an opened picture of a shared album: the link's own address with its query. */
function shareHref(path: string, options: { page?: number; image?: string | null }): string {
  if (options.image) return `${path}?image=${encodeURIComponent(options.image)}`;
  return options.page && options.page > 1 ? `${path}?page=${options.page}` : path;
}

export function loader({ request, params, context }: Route.LoaderArgs) {
  return loadSharePage({ request, params, context });
}

export function action({ request, params, context }: Route.ActionArgs) {
  return unlockShare({ request, params, context });
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return [
    ...pageMeta(rootSeo(matches), location.pathname, { title: loaderData?.post?.title ?? loaderData?.album?.title }),
    { name: "robots", content: "noindex, nofollow" },
  ];
}

/** A post shared by link; or, for a link with a password, the question for it. */
export default function SharePage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useTranslate();
  const busy = useNavigation().state !== "idle";
  const location = useLocation();
  if (!loaderData.locked) {
    const { album, post } = loaderData;
    return (
      <>
        <p role="note" className="mx-auto mb-8 max-w-3xl text-sm text-zinc-600 dark:text-zinc-300">
          {t(album ? "share.albumNote" : "share.note")}
        </p>
        {album ? (
          <AlbumView
            album={album}
            watermark={loaderData.watermark}
            thumbnailTitles={loaderData.thumbnailTitles}
            hrefOf={(options) => shareHref(location.pathname, options)}
            showAllLink={false}
          />
        ) : post ? (
          <PostArticle post={post} watermark={loaderData.watermark} />
        ) : null}
      </>
    );
  }
  const error = actionData && "error" in actionData ? actionData.error : null;
  return (
    <section className="mx-auto max-w-md" aria-labelledby="share-locked-heading">
      <h1 id="share-locked-heading" className="text-2xl font-bold tracking-tight">
        {t("share.lockedTitle")}
      </h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("share.lockedText")}</p>
      <Form method="post" className="mt-6 grid gap-3">
        <label htmlFor="share-password" className="text-sm font-medium">
          {t("share.password")}
        </label>
        <input
          id="share-password"
          name="password"
          type="password"
          required
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "share-password-error" : undefined}
          className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
        />
        {error ? (
          <p id="share-password-error" role="alert" className="text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={busy}
          className="justify-self-start rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          {t("share.open")}
        </button>
      </Form>
    </section>
  );
}
