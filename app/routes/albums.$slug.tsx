import { data, redirect } from "react-router";
import { AlbumView, planAlbum } from "#app/components/albums/album-view.tsx";
import { albumHref } from "#app/domains/albums/album.ts";
import { findAlbum } from "#app/domains/albums/albums-public.server.ts";
import { publicWatermark } from "#app/domains/gallery/public-watermark.server.ts";
import { largeImage } from "#app/domains/media/image-display.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { rowIdOrNull } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { languageUrls, pageMeta, rootSeo } from "#app/web/meta.ts";
import { useRootData } from "#app/web/root-data.ts";
import { readerOf } from "#app/web/session.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/albums.$slug";

/**
 * `/albums/<slug>`: one album (issue 21) with the gallery's rows and lightbox, a page at a time; `?image=` opens a
 * picture (its page). An album the reader may not see answers exactly as a missing one: the site's 404.
 */
export async function loader({ request, url, context, params }: Route.LoaderArgs) {
  const { lang } = languageOf(request);
  const page = url.searchParams.get("page");
  const [settings, album] = await Promise.all([
    requestSettings(context),
    findAlbum(runtimeOf(context).database.db, {
      slug: params.slug,
      lang,
      reader: readerOf(context),
      page: page !== null && /^\d{1,7}$/.test(page) ? Number(page) : undefined,
      imageId: rowIdOrNull(url.searchParams.get("image")),
    }),
  ]);
  if (album === null) throw data(null, { status: 404 });
  // The other language's slug: this language's address of the same album.
  if (album.slug !== params.slug) throw redirect(`/albums/${album.slug}${url.search}`, 302);
  return {
    album: planAlbum(album),
    watermark: publicWatermark(settings),
    thumbnailTitles: settings.thumbnail_titles === "true",
  };
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  const seo = rootSeo(matches);
  const album = loaderData?.album;
  const paths = album ? { en: `/albums/${album.slugs.en}`, de: `/albums/${album.slugs.de}` } : undefined;
  const tags = pageMeta(seo, location.pathname, { title: album?.title, description: album?.description, paths });
  const cover = album?.cover;
  if (!seo || !cover) return tags;
  // A shared album's link previews its cover.
  const image = new URL(largeImage(cover.image).src, `${seo.baseUrl}/`).href;
  return tags.map((tag) => {
    if ("property" in tag && tag.property === "og:image") return { ...tag, content: image };
    if ("name" in tag && tag.name === "twitter:image") return { ...tag, content: image };
    return tag;
  });
}

export default function AlbumRoute({ loaderData }: Route.ComponentProps) {
  const seo = useRootData()?.seo;
  const { album } = loaderData;
  const paths = { en: `/albums/${album.slugs.en}`, de: `/albums/${album.slugs.de}` };
  return (
    <AlbumView
      album={album}
      watermark={loaderData.watermark}
      thumbnailTitles={loaderData.thumbnailTitles}
      hrefOf={(options) => albumHref(album.slug, options)}
      showAllLink
      shareUrlFor={
        seo
          ? (id) => {
              const urls = languageUrls(seo.baseUrl, paths, { image: id });
              return seo.lang === "de" ? urls.de : urls.default;
            }
          : undefined
      }
    />
  );
}
