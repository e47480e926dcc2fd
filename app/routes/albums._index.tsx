import { Link } from "react-router";
import { AlbumBadge } from "#app/components/albums/album-badge.tsx";
import { PostCover } from "#app/components/blog/post-cards.tsx";
import { EmptyState, PageHeader } from "#app/components/page-header.tsx";
import { listAlbums } from "#app/domains/albums/albums-public.server.ts";
import { publicWatermark } from "#app/domains/gallery/public-watermark.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { useTranslate } from "#app/web/root-data.ts";
import { readerOf } from "#app/web/session.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/albums._index";

/** `/albums`: every album the reader may see (issue 21), each with its cover, title and how many pictures it shows. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { lang } = languageOf(request);
  const [settings, albums] = await Promise.all([
    requestSettings(context),
    listAlbums(runtimeOf(context).database.db, { lang, reader: readerOf(context) }),
  ]);
  return { albums, watermark: publicWatermark(settings) };
}

export function meta({ matches, location }: Route.MetaArgs) {
  const seo = rootSeo(matches);
  return pageMeta(seo, location.pathname, { title: seo?.lang === "de" ? "Alben" : "Albums" });
}

export default function AlbumsPage({ loaderData }: Route.ComponentProps) {
  const t = useTranslate();
  const { albums } = loaderData;
  return (
    <>
      <PageHeader title={t("albums.title")} subtitle={t("albums.intro")} />
      {albums.length === 0 ? (
        <EmptyState>{t("albums.empty")}</EmptyState>
      ) : (
        <ul className="grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
          {albums.map((album, index) => (
            <li key={album.id}>
              <Link
                to={`/albums/${album.slug}`}
                className="group block rounded-xl focus-visible:outline-3 focus-visible:outline-offset-4 focus-visible:outline-indigo-500"
              >
                {album.cover ? (
                  <PostCover
                    image={album.cover.image}
                    alt=""
                    watermark={loaderData.watermark}
                    sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw"
                    eager={index < 3}
                    inList
                  />
                ) : (
                  <div className="aspect-[4/3] rounded-lg bg-zinc-100 dark:bg-zinc-900" />
                )}
                <h2 className="mt-3 text-xl font-semibold tracking-tight group-hover:underline">{album.title}</h2>
              </Link>
              <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-zinc-600 dark:text-zinc-300">
                <span>{t("albums.count", { count: album.count })}</span>
                <AlbumBadge visibility={album.visibility} groups={album.groupNames} />
              </p>
              {album.description ? (
                <p className="mt-2 line-clamp-3 text-zinc-700 dark:text-zinc-300">{album.description}</p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
