import { ChevronLeft, ChevronRight, X } from "lucide-react";
import { lazy, type MouseEvent, Suspense, useEffect, useRef, useState } from "react";
import { ResponsiveImage } from "#app/components/responsive-image.tsx";
import type { GalleryItem } from "#app/domains/gallery/gallery.ts";
import { imageUrl } from "#app/domains/media/image-display.ts";
import { useTranslate } from "#app/web/root-data.ts";
import { DrawnWatermarkLink, type Watermark } from "./watermark-badge.tsx";

const SWIPE_MIN_PX = 50;

// Zoom and share load with the lightbox's first opening, not with the gallery (its first load stays small).
const LightboxTools = lazy(() => import("./lightbox-tools.tsx"));

const controlClass =
  "inline-flex size-11 items-center justify-center rounded-full bg-white/10 text-white hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white";

/**
 * A link's plain click done in the page instead (a click with a modifier key still opens a tab or window).
 * A handler that runs means React is hydrated, so no separate "hydrated" check is needed.
 */
export const inPlace = (action: () => void) => (event: MouseEvent<HTMLAnchorElement>) => {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  action();
};

/**
 * One picture at a time in a native `<dialog>` (modal once JavaScript runs: the page behind is inert, so
 * focus stays inside; Escape closes). Previous/next by arrow keys, swipe or the buttons. Zoom (wheel, pinch,
 * double click or tap, `+`/`-`/`0`, buttons; the arrow keys pan while zoomed) and Share come with
 * lightbox-tools.tsx, loaded when the lightbox first opens. Without JavaScript the server renders it open, and
 * its controls are plain links to the shareable URLs (and the download, when the owner allows it).
 */
export function Lightbox(props: {
  items: GalleryItem[];
  openId: string | null;
  /** The shareable URL that opens a picture, and the one that closes it. */
  hrefFor: (id: string) => string;
  closeHref: string;
  onChange: (id: string | null) => void;
  labelFor: (item: GalleryItem, index: number) => string;
  /** "Picture 3 of 40" for the item at this index of `items`. */
  positionOf: (index: number) => string;
  watermark: Watermark | null;
  hydrated: boolean;
  /** Past the last loaded picture while the gallery has more: fetch them and go on (with `moreHref` without JavaScript). */
  onPastLast?: () => void;
  moreHref?: string;
  /**
   * When the owner lets visitors download the largest size (never the private original): each picture's file name,
   * made by the loader (`downloadFileName`), so visitors' code carries no name-making.
   */
  downloadName?: (item: GalleryItem) => string | undefined;
  /** The picture's canonical address, to share. */
  shareUrlFor?: (id: string) => string;
}) {
  const t = useTranslate();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const pointerStart = useRef<{ x: number; y: number } | null>(null);
  const viewportRef = useRef<HTMLElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  // While zoomed, a drag pans rather than swipes; once zoomed, the picture keeps its largest size.
  const zoomed = useRef(false);
  const [largeFor, setLargeFor] = useState<string | null>(null);
  const index = props.items.findIndex((item) => item.id === props.openId);
  const item = index >= 0 ? props.items[index] : undefined;
  const previous = index > 0 ? props.items[index - 1] : undefined;
  const next = index >= 0 ? props.items[index + 1] : undefined;
  const shownId = item?.id ?? null;
  const { hydrated, onChange } = props;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !hydrated) return;
    if (shownId && !dialog.open) dialog.showModal();
    if (!shownId && dialog.open) dialog.close();
  }, [shownId, hydrated]);

  const go = (target: GalleryItem | undefined) => {
    if (target) onChange(target.id);
  };
  const goNext = () => (next ? go(next) : props.onPastLast?.());
  const nextHref = next ? props.hrefFor(next.id) : props.onPastLast ? props.moreHref : undefined;

  const titleId = "lightbox-title";
  const label = item ? props.labelFor(item, index) : "";
  const widest = item?.image.variants.at(-1)?.[0] ?? 0;
  // The widest JPEG: the size that carries the watermark when it is on, and opens anywhere.
  const largestJpeg = item?.image.variants.filter((variant) => variant[4] !== "").at(-1);
  const download =
    props.downloadName && item && largestJpeg
      ? { href: imageUrl(item.image, largestJpeg, "jpeg"), name: props.downloadName(item) ?? "picture.jpg" }
      : null;
  return (
    <dialog
      ref={dialogRef}
      // Server-rendered open for a shared link (works without JavaScript); once hydrated, showModal() takes over.
      open={!hydrated && item !== undefined}
      aria-labelledby={item ? titleId : undefined}
      onClose={() => {
        const closedId = shownId;
        onChange(null);
        if (closedId) document.getElementById(`thumb-${closedId}`)?.focus();
      }}
      onKeyDown={(event) => {
        // Taken by the zoom (keys that move a zoomed picture).
        if (event.defaultPrevented) return;
        if (event.key === "ArrowRight") {
          event.preventDefault();
          goNext();
        } else if (event.key === "ArrowLeft") {
          event.preventDefault();
          go(previous);
        }
      }}
      className="fixed inset-0 z-50 m-0 h-dvh max-h-none w-screen max-w-none bg-zinc-950/95 p-0 text-white backdrop:bg-black/80"
    >
      {item ? (
        <div className="flex h-full flex-col">
          <div className="flex items-center justify-between gap-4 px-4 py-3">
            <p className="text-sm text-zinc-200">{props.positionOf(index)}</p>
            <div className="flex flex-wrap items-center justify-end gap-1">
              {hydrated ? (
                <Suspense fallback={null}>
                  <LightboxTools
                    key={item.id}
                    dialog={dialogRef}
                    viewport={viewportRef}
                    content={contentRef}
                    widest={widest}
                    shareUrl={props.shareUrlFor?.(item.id) ?? props.hrefFor(item.id)}
                    title={label}
                    buttonClass={controlClass}
                    onZoomedChange={(now) => {
                      zoomed.current = now;
                      if (now) setLargeFor(item.id);
                    }}
                  />
                </Suspense>
              ) : null}
              {download ? (
                <a
                  href={download.href}
                  download={download.name}
                  aria-label={t("lightbox.downloadLabel", { title: label })}
                  // A word rather than an icon: it works without JavaScript, so it is part of the gallery's own code.
                  className="inline-flex h-11 items-center rounded-full bg-white/10 px-4 text-sm font-medium text-white hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
                >
                  {t("lightbox.download")}
                </a>
              ) : null}
              <a
                href={props.closeHref}
                onClick={inPlace(() => dialogRef.current?.close())}
                aria-label={t("lightbox.close")}
                className={controlClass}
              >
                <X aria-hidden="true" className="size-6" />
              </a>
            </div>
          </div>
          {/* On a phone the buttons float over the picture's edges, so the picture gets the whole width. */}
          <div className="relative flex min-h-0 flex-1 items-center justify-center gap-2 px-2">
            {previous ? (
              <a
                href={props.hrefFor(previous.id)}
                onClick={inPlace(() => go(previous))}
                aria-label={t("lightbox.previous")}
                className={`${controlClass} shrink-0 max-sm:absolute max-sm:left-2 max-sm:z-10 max-sm:bg-black/60`}
              >
                <ChevronLeft aria-hidden="true" className="size-7" />
              </a>
            ) : (
              <span className="size-11 shrink-0 max-sm:hidden" />
            )}
            <figure
              // The whole space between the buttons takes swipes, also while the picture is still loading.
              className="relative flex h-full min-h-0 min-w-0 flex-1 touch-pan-y select-none items-center justify-center overflow-hidden"
              ref={viewportRef}
              onPointerDown={(event) => {
                // A second finger pinches (lightbox-zoom.ts): no swipe then.
                pointerStart.current = event.isPrimary ? { x: event.clientX, y: event.clientY } : null;
              }}
              onPointerUp={(event) => {
                const start = pointerStart.current;
                pointerStart.current = null;
                if (!start || zoomed.current) return;
                const dx = event.clientX - start.x;
                const dy = event.clientY - start.y;
                if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < Math.abs(dy)) return;
                if (dx < 0) goNext();
                else go(previous);
              }}
            >
              <div
                ref={contentRef}
                className="relative"
                // Sized from the stored dimensions rather than the loaded pixels, so nothing moves when they arrive.
                style={{
                  width: `min(100%, ${item.image.width}px, (100dvh - 11rem) * ${item.image.width / item.image.height})`,
                }}
              >
                <ResponsiveImage
                  key={item.id}
                  image={item.image}
                  alt={item.alt || label}
                  // Zoomed in once: the widest size, which the zoom shows up to its own pixels.
                  sizes={largeFor === item.id ? `${widest}px` : "100vw"}
                  only={props.watermark ? "full" : "all"}
                  loading="eager"
                  draggable={false}
                  className="block h-auto w-full"
                />
                {/* The large widths carry the watermark in their pixels: no badge over them (seen once). */}
                {props.watermark ? <DrawnWatermarkLink watermark={props.watermark} image={item.image} /> : null}
              </div>
            </figure>
            {nextHref ? (
              <a
                href={nextHref}
                onClick={inPlace(goNext)}
                // Without JavaScript, past the last loaded picture the link leads to the next page of the grid.
                aria-label={next || hydrated ? t("lightbox.next") : t("gallery.nextPage")}
                className={`${controlClass} shrink-0 max-sm:absolute max-sm:right-2 max-sm:z-10 max-sm:bg-black/60`}
              >
                <ChevronRight aria-hidden="true" className="size-7" />
              </a>
            ) : (
              <span className="size-11 shrink-0 max-sm:hidden" />
            )}
          </div>
          <div className="mx-auto w-full max-w-3xl px-4 pb-4 pt-3 text-center">
            <h2 id={titleId} className="text-lg font-semibold">
              {label}
            </h2>
            {item.descriptionHtml ? (
              <div
                className="lightbox-description mt-1 text-sm text-zinc-200"
                // Rendered on the server by the site's safe Markdown renderer (no raw HTML, safe links only).
                // biome-ignore lint/security/noDangerouslySetInnerHtml: safe HTML from renderMarkdown
                dangerouslySetInnerHTML={{ __html: item.descriptionHtml }}
              />
            ) : null}
            <p className="mt-2 hidden text-xs text-zinc-300 sm:block">{t("lightbox.hint")}</p>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
