import { useEffect, useState } from "react";
import { Link, useFetcher, useLocation, useNavigate, useNavigation, useRevalidator } from "react-router";
import { justifiedLayout, type PictureLayout } from "#app/components/gallery/justified-rows.ts";
import { inPlace, Lightbox } from "#app/components/gallery/lightbox.tsx";
import { PictureRows } from "#app/components/gallery/picture-rows.tsx";
import { EmptyState, PageHeader } from "#app/components/page-header.tsx";
import { downloadFileName, GALLERY_PAGE_SIZE, type GalleryItem } from "#app/domains/gallery/gallery.ts";
import { listPublishedGallery } from "#app/domains/gallery/gallery-public.server.ts";
import { publicWatermark } from "#app/domains/gallery/public-watermark.server.ts";
import { imageSources, largeImage, thumbnailWatermark } from "#app/domains/media/image-display.ts";
import { seoDataFor } from "#app/domains/seo/seo-data.ts";
import { imageObject } from "#app/domains/seo/structured-data.ts";
import { galleryHref, keepDataForLightboxSteps } from "#app/lib/gallery-url.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { isSingleLine, rowIdOrNull } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { languageUrls, pageMeta, rootSeo } from "#app/web/meta.ts";
import { pageTexts } from "#app/web/page-content.server.ts";
import { useRootData, useTranslate } from "#app/web/root-data.ts";
import { readerOf } from "#app/web/session.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/gallery";

/**
 * The address's parameters by the shared rule: one that could not be valid counts as absent (the gallery
 * without the lightbox, the first page, all categories), as an unknown picture or category already does.
 */
function galleryQuery(params: URLSearchParams) {
  const page = params.get("page");
  const category = params.get("category");
  return {
    page: page === null ? undefined : /^\d{1,7}$/.test(page) ? Math.max(1, Number(page)) : 1,
    category: category !== null && category.length <= 200 && isSingleLine(category) ? category : null,
    imageId: rowIdOrNull(params.get("image")),
  };
}

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const { lang } = languageOf(request);
  const settings = await requestSettings(context);
  const { page, category, imageId } = galleryQuery(url.searchParams);
  const [texts, gallery] = await Promise.all([
    pageTexts(request, context, ["gallery_page_title", "gallery_page_subtitle"]),
    listPublishedGallery(runtimeOf(context).database.db, { lang, category, page, imageId, reader: readerOf(context) }),
  ]);
  // A shared picture's structured data, made here so that visitors' code carries no JSON-LD builder.
  const shared = imageId ? gallery.items.find((item) => item.id === imageId) : undefined;
  const seo = seoDataFor(settings, lang, runtimeOf(context).env.baseUrl);
  const allowDownload = settings.gallery_allow_download === "true";
  // Each page's rows are planned here, on the server (a page loaded by "more" is planned on its own), so the
  // gallery's visitors load no planner.
  const plan = justifiedLayout(gallery.items.map((item) => item.image));
  return {
    ...texts,
    gallery: {
      ...gallery,
      items: gallery.items.map(
        (item, index): PlannedItem => ({
          ...item,
          layout: plan[index],
          // The name a download is saved under, as the lightbox titles the picture.
          downloadName: allowDownload ? downloadFileName(item.title || "picture") : undefined,
        }),
      ),
    },
    jsonLd: shared ? { id: shared.id, data: imageObject(seo, shared) } : null,
    watermark: publicWatermark(settings),
    thumbnailTitles: settings.thumbnail_titles === "true",
    allowDownload,
  };
}

// Opening, moving and closing the lightbox changes the address only; the pictures are already here.
export const shouldRevalidate = keepDataForLightboxSteps;

/**
 * The first picture of the grid is the page's largest paint: the browser is told to fetch it (the AVIF set,
 * which every browser that can preload by srcset also shows; the same widths and sizes as the picture's own)
 * before it has read the body.
 */
/** A picture of the grid with its place in its row (planned by the loader). */
type PlannedItem = GalleryItem & { layout: PictureLayout | undefined; downloadName: string | undefined };

function firstPicturePreload(data: { gallery: { items: PlannedItem[] }; watermark: unknown } | undefined) {
  const first = data?.gallery.items[0];
  if (!first) return [];
  const { only } = thumbnailWatermark(first.image, Boolean(data?.watermark));
  const srcset = imageSources(first.image, only).sources.avif;
  if (!srcset) return [];
  return [
    {
      tagName: "link",
      rel: "preload",
      as: "image",
      type: "image/avif",
      imageSrcSet: srcset,
      // The first picture's sizes as the rows give them (its share of the first row at each width).
      imageSizes: first.layout?.sizes,
      fetchPriority: "high",
    },
  ];
}

export function meta({ matches, location, loaderData }: Route.MetaArgs) {
  const seo = rootSeo(matches);
  const openId = new URLSearchParams(location.search).get("image");
  const shared = loaderData?.gallery.items.find((item) => item.id === openId);
  // With a shared picture open, the lightbox's picture is what shows first: no preload of the grid's.
  if (!seo || !shared) return [...pageMeta(seo, location.pathname), ...firstPicturePreload(loaderData)];
  // A shared picture's link previews that picture, with its caption.
  // The picture's own address is the page's (canonical and og:url alike).
  const tags = pageMeta(seo, location.pathname, {
    title: shared.title || undefined,
    description: shared.description || undefined,
    query: { image: shared.id },
  });
  const large = largeImage(shared.image);
  const image = new URL(large.src, `${seo.baseUrl}/`).href;
  return [
    ...tags.map((tag) => {
      if ("property" in tag && tag.property === "og:image") return { ...tag, content: image };
      if ("name" in tag && tag.name === "twitter:image") return { ...tag, content: image };
      return tag;
    }),
    { property: "og:image:width", content: String(large.width) },
    { property: "og:image:height", content: String(large.height) },
    // Made by the loader for the picture it was asked for (a step in the lightbox keeps the data, not its picture).
    ...(loaderData?.jsonLd?.id === shared.id && loaderData.jsonLd.data
      ? [{ "script:ld+json": loaderData.jsonLd.data as never }]
      : []),
  ];
}

const filterClass = (active: boolean) =>
  `inline-block rounded-full border px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 ${
    active
      ? "border-indigo-700 bg-indigo-700 text-white dark:border-indigo-400 dark:bg-indigo-400 dark:text-zinc-950"
      : "border-zinc-300 text-zinc-800 hover:bg-zinc-100 dark:border-zinc-600 dark:text-zinc-100 dark:hover:bg-zinc-800"
  }`;

type LoaderData = Awaited<ReturnType<typeof loader>>;

export default function GalleryPage({ loaderData }: Route.ComponentProps) {
  const t = useTranslate();
  const seo = useRootData()?.seo;
  const { gallery, watermark } = loaderData;
  const fetcher = useFetcher<LoaderData>();
  const [hydrated, setHydrated] = useState(false);
  const [items, setItems] = useState<PlannedItem[]>(gallery.items);
  const [lastPage, setLastPage] = useState(gallery.page);
  const location = useLocation();
  const navigate = useNavigate();
  // The address names the picture on show, so it can be shared and Back closes it.
  const openId = new URLSearchParams(location.search).get("image");

  useEffect(() => setHydrated(true), []);

  // A new filter or page from the server starts the list afresh.
  useEffect(() => {
    setItems(gallery.items);
    setLastPage(gallery.page);
  }, [gallery]);

  useEffect(() => {
    const more = fetcher.data?.gallery;
    if (!more || fetcher.state !== "idle") return;
    setItems((current) => {
      const known = new Set(current.map((item) => item.id));
      return [...current, ...more.items.filter((item) => !known.has(item.id))];
    });
    setLastPage(more.page);
  }, [fetcher.data, fetcher.state]);

  const firstNumber = (gallery.page - 1) * GALLERY_PAGE_SIZE;
  const labelFor = (item: GalleryItem, index: number) =>
    item.title || t("gallery.untitled", { number: firstNumber + index + 1 });

  const shown = items.some((item) => item.id === openId);
  // Back or Forward to a picture that is not among those loaded (say, after a reload): load its page once.
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [soughtId, setSoughtId] = useState<string | null>(null);
  useEffect(() => {
    if (!openId || shown || soughtId === openId) return;
    if (navigation.state !== "idle" || revalidator.state !== "idle") return;
    setSoughtId(openId);
    revalidator.revalidate();
  }, [openId, shown, soughtId, navigation.state, revalidator]);

  const open = (id: string | null) => {
    if (id === openId) return;
    const href = galleryHref({ category: gallery.category, page: id ? undefined : gallery.page, image: id });
    const fromGrid = !shown && id !== null;
    // Closing what was opened here goes back, so the entry opening it does not stay behind Back.
    if (id === null && location.state?.lightboxFromGrid === true) navigate(-1);
    else
      navigate(href, {
        replace: !fromGrid,
        preventScrollReset: true,
        state: fromGrid ? { lightboxFromGrid: true } : location.state,
      });
  };

  // `index` makes the fetcher call this (index) route's loader rather than the root's.
  const loadMore = () => fetcher.load(`${galleryHref({ category: gallery.category, page: lastPage + 1 })}&index`);

  const hasMore = lastPage < gallery.pageCount;

  // "Next" on the last loaded picture loads the following page, then moves on to its first picture.
  const [advanceFrom, setAdvanceFrom] = useState<string | null>(null);
  const pastLast = () => {
    setAdvanceFrom(openId);
    if (fetcher.state === "idle") loadMore();
  };
  const advanceIndex = advanceFrom ? items.findIndex((item) => item.id === advanceFrom) : -1;
  const following = advanceIndex >= 0 ? items[advanceIndex + 1] : undefined;
  useEffect(() => {
    if (!advanceFrom) return;
    // Closed or moved elsewhere meanwhile: the visitor no longer waits for the next picture.
    if (openId !== advanceFrom) return setAdvanceFrom(null);
    if (following) open(following.id);
    if (following || (fetcher.state === "idle" && !hasMore)) setAdvanceFrom(null);
  });
  const hasFilter = gallery.categories.length > 0;

  return (
    <>
      <PageHeader title={loaderData.gallery_page_title} subtitle={loaderData.gallery_page_subtitle} />
      {gallery.total === 0 && !gallery.category ? (
        <EmptyState>{t("empty.gallery")}</EmptyState>
      ) : (
        <>
          {hasFilter ? (
            <nav aria-label={t("gallery.filterLabel")} className="mb-6">
              <ul className="flex flex-wrap gap-2">
                <li>
                  <Link
                    to="/"
                    preventScrollReset
                    aria-current={gallery.category === null ? "page" : undefined}
                    className={filterClass(gallery.category === null)}
                  >
                    {t("gallery.all")}
                  </Link>
                </li>
                {gallery.categories.map((category) => (
                  <li key={category.key}>
                    <Link
                      to={galleryHref({ category: category.key })}
                      preventScrollReset
                      aria-current={gallery.category === category.key ? "page" : undefined}
                      className={filterClass(gallery.category === category.key)}
                    >
                      {category.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          {gallery.page > 1 ? (
            <p className="mb-4">
              <Link
                to={galleryHref({ category: gallery.category, page: gallery.page - 1 })}
                className="text-indigo-700 underline underline-offset-2 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:text-indigo-200"
              >
                {t("gallery.previousPage")}
              </Link>
            </p>
          ) : null}
          {items.length === 0 ? (
            <EmptyState>{t("gallery.emptyCategory")}</EmptyState>
          ) : (
            <PictureRows
              items={items}
              layout={items.map((item) => item.layout)}
              watermark={watermark}
              altFor={(item, index) => item.alt || labelFor(item, index)}
              caption={loaderData.thumbnailTitles ? (item) => item.title : undefined}
              link={(item, _index, picture) => (
                <a
                  id={`thumb-${item.id}`}
                  href={galleryHref({ category: gallery.category, image: item.id })}
                  onClick={inPlace(() => open(item.id))}
                  className="block focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-indigo-500"
                >
                  {picture}
                </a>
              )}
            />
          )}
          <div className="mt-8 flex flex-col items-center gap-2">
            {hasMore ? (
              hydrated ? (
                <button
                  type="button"
                  onClick={loadMore}
                  disabled={fetcher.state !== "idle"}
                  className="rounded-md border border-zinc-300 bg-white px-4 py-2 font-medium text-zinc-900 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-60 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
                >
                  {fetcher.state === "idle" ? t("gallery.loadMore") : t("gallery.loadingMore")}
                </button>
              ) : (
                <a
                  href={galleryHref({ category: gallery.category, page: gallery.page + 1 })}
                  className="rounded-md border border-zinc-300 px-4 py-2 font-medium text-zinc-900 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-zinc-600 dark:text-zinc-100 dark:hover:bg-zinc-800"
                >
                  {t("gallery.nextPage")}
                </a>
              )
            ) : null}
            {gallery.pageCount > 1 && !hydrated ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-300">
                {t("gallery.pageOf", { page: gallery.page, count: gallery.pageCount })}
              </p>
            ) : null}
          </div>
          <Lightbox
            items={items}
            openId={openId}
            hrefFor={(id) => galleryHref({ category: gallery.category, image: id })}
            closeHref={galleryHref({ category: gallery.category, page: gallery.page })}
            onChange={open}
            labelFor={labelFor}
            positionOf={(index) => t("lightbox.position", { index: firstNumber + index + 1, count: gallery.total })}
            watermark={watermark}
            hydrated={hydrated}
            onPastLast={hasMore ? pastLast : undefined}
            moreHref={galleryHref({ category: gallery.category, page: lastPage + 1 })}
            downloadName={loaderData.allowDownload ? (item) => (item as PlannedItem).downloadName : undefined}
            // The picture's canonical address in the visitor's language, as its page's head names it.
            shareUrlFor={
              seo
                ? (id) => {
                    const urls = languageUrls(seo.baseUrl, "/", { image: id });
                    return seo.lang === "de" ? urls.de : urls.default;
                  }
                : undefined
            }
          />
        </>
      )}
    </>
  );
}
