import { useEffect, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { justifiedLayout, type PictureLayout } from "#app/components/gallery/justified-rows.ts";
import { inPlace, Lightbox } from "#app/components/gallery/lightbox.tsx";
import { PictureRows } from "#app/components/gallery/picture-rows.tsx";
import type { Watermark } from "#app/components/gallery/watermark-badge.tsx";
import { EmptyState, PageHeader } from "#app/components/page-header.tsx";
import type { AlbumPage } from "#app/domains/albums/album.ts";
import { GALLERY_PAGE_SIZE, type GalleryItem } from "#app/domains/gallery/gallery.ts";
import { useTranslate } from "#app/web/root-data.ts";
import { AlbumBadge } from "./album-badge.tsx";

/** An album's page of pictures with each one's place in its row, planned by the loader (visitors load no planner). */
export type PlannedAlbum = Omit<AlbumPage, "items"> & {
  items: (GalleryItem & { layout: PictureLayout | undefined })[];
};

export function planAlbum(album: AlbumPage): PlannedAlbum {
  const plan = justifiedLayout(album.items.map((item) => item.image));
  return { ...album, items: album.items.map((item, index) => ({ ...item, layout: plan[index] })) };
}

/** Where a page or an opened picture of this album is: its own address, or its share link's. */
export type AlbumHrefs = (options: { page?: number; image?: string | null }) => string;

const linkClass =
  "text-indigo-700 underline underline-offset-2 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:text-indigo-200";

/**
 * One album (issue 21) as its page and its share link show it: the gallery's rows and lightbox, a page at a time,
 * `?image=` opening a picture.
 */
export function AlbumView(props: {
  album: PlannedAlbum;
  watermark: Watermark | null;
  thumbnailTitles: boolean;
  hrefOf: AlbumHrefs;
  /** The link back to every album: not on a share link's page, which opens this album alone. */
  showAllLink: boolean;
  shareUrlFor?: (id: string) => string;
}) {
  const t = useTranslate();
  const { album, watermark, hrefOf } = props;
  const location = useLocation();
  const navigate = useNavigate();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const openId = new URLSearchParams(location.search).get("image");
  const shown = album.items.some((item) => item.id === openId);
  const firstNumber = (album.page - 1) * GALLERY_PAGE_SIZE;
  const labelFor = (item: GalleryItem, index: number) =>
    item.title || t("albums.untitled", { number: firstNumber + index + 1 });
  const open = (id: string | null) => {
    if (id === openId) return;
    const fromGrid = !shown && id !== null;
    if (id === null && location.state?.lightboxFromGrid === true) navigate(-1);
    else
      navigate(id ? hrefOf({ image: id }) : hrefOf({ page: album.page }), {
        replace: !fromGrid,
        preventScrollReset: true,
        state: fromGrid ? { lightboxFromGrid: true } : location.state,
      });
  };
  const pageLink = (page: number, label: string) => (
    <Link to={hrefOf({ page })} className={linkClass}>
      {label}
    </Link>
  );
  return (
    <>
      {props.showAllLink ? (
        <p className="mb-4 text-sm">
          <Link to="/albums" className={linkClass}>
            {t("albums.all")}
          </Link>
        </p>
      ) : null}
      <PageHeader title={album.title} subtitle={album.description || undefined} />
      <p className="-mt-4 mb-6 flex flex-wrap items-center gap-2 text-sm text-zinc-600 dark:text-zinc-300">
        <span>{t("albums.count", { count: album.total })}</span>
        <AlbumBadge visibility={album.visibility} groups={album.groupNames} />
      </p>
      {album.items.length === 0 ? (
        <EmptyState>{t("albums.emptyAlbum")}</EmptyState>
      ) : (
        <>
          {album.page > 1 ? <p className="mb-4">{pageLink(album.page - 1, t("gallery.previousPage"))}</p> : null}
          <PictureRows
            items={album.items}
            layout={album.items.map((item) => item.layout)}
            watermark={watermark}
            altFor={(item, index) => item.alt || labelFor(item, index)}
            caption={props.thumbnailTitles ? (item) => item.title : undefined}
            link={(item, _index, picture) => (
              <a
                id={`thumb-${item.id}`}
                href={hrefOf({ image: item.id })}
                onClick={inPlace(() => open(item.id))}
                className="block focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-indigo-500"
              >
                {picture}
              </a>
            )}
          />
          <div className="mt-8 flex flex-col items-center gap-2">
            {album.page < album.pageCount ? pageLink(album.page + 1, t("gallery.nextPage")) : null}
            {album.pageCount > 1 ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-300">
                {t("gallery.pageOf", { page: album.page, count: album.pageCount })}
              </p>
            ) : null}
          </div>
          <Lightbox
            items={album.items}
            openId={openId}
            hrefFor={(id) => hrefOf({ image: id })}
            closeHref={hrefOf({ page: album.page })}
            onChange={open}
            labelFor={labelFor}
            positionOf={(index) => t("lightbox.position", { index: firstNumber + index + 1, count: album.total })}
            watermark={watermark}
            hydrated={hydrated}
            shareUrlFor={props.shareUrlFor}
          />
        </>
      )}
    </>
  );
}
