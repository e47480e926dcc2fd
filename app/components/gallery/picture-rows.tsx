import type { ReactNode } from "react";
import { ResponsiveImage } from "#app/components/responsive-image.tsx";
import { type ImageDisplay, thumbnailWatermark } from "#app/domains/media/image-display.ts";
import type { PictureLayout } from "./justified-rows.ts";
import { type Watermark, WatermarkBadge } from "./watermark-badge.tsx";

/**
 * The list's flex rows; its gap is the one justified-rows.ts plans with. Here, not there: the home page plans its
 * rows on the server, and importing anything of the planner would bring it to its visitors.
 */
const ROWS_CLASS = "flex flex-wrap gap-3";

/** How many pictures load at once (about the first row); the rest as they scroll into view. */
const EAGER_COUNT = 3;

/**
 * Pictures in justified rows, each whole in its own shape (see justified-rows.ts), with the watermark seen
 * once: the small mark over the clean widths (when the owner wants it), or the drawn-in text alone
 * (`thumbnailWatermark`). The gallery and the home page show their pictures this way; `link` wraps each
 * picture (and its caption) in that page's link. `caption`, when the owner shows titles under thumbnails,
 * gives each picture's title (an empty one shows nothing).
 */
export function PictureRows<T extends { id: string; image: ImageDisplay }>(props: {
  items: T[];
  /**
   * Each picture's place in its row (`justifiedLayout`): planned by the page, so a page whose pictures are fixed
   * (the home page) plans them on the server and its visitors load no planner.
   */
  layout: readonly (PictureLayout | undefined)[];
  watermark: Watermark | null;
  altFor: (item: T, index: number) => string;
  link: (item: T, index: number, picture: ReactNode) => ReactNode;
  caption?: (item: T) => string;
}) {
  const { layout } = props;
  return (
    <ul className={`picture-rows ${ROWS_CLASS}`}>
      {props.items.map((item, index) => {
        const { only, badge } = thumbnailWatermark(item.image, props.watermark !== null);
        const alt = props.altFor(item, index);
        const caption = props.caption?.(item).trim() ?? "";
        const picture = (
          <>
            <span className="@container relative block overflow-hidden rounded-lg bg-zinc-100 dark:bg-zinc-900">
              <ResponsiveImage
                image={item.image}
                alt={alt}
                sizes={layout[index]?.sizes ?? "100vw"}
                only={only}
                loading={index < EAGER_COUNT ? "eager" : "lazy"}
                // The first picture is the largest paint: fetched before the others.
                fetchPriority={index === 0 ? "high" : undefined}
                className="block h-auto w-full transition-transform duration-300 hover:scale-[1.02]"
              />
              {props.watermark && badge ? <WatermarkBadge watermark={props.watermark} inGrid /> : null}
            </span>
            {caption ? (
              // The picture's name already says a title it falls back to: the caption is not read twice.
              <span
                className="picture-caption mt-1.5 block text-sm leading-snug text-zinc-700 [overflow-wrap:anywhere] dark:text-zinc-200"
                aria-hidden={caption === alt ? true : undefined}
              >
                {caption}
              </span>
            ) : null}
          </>
        );
        return (
          <li key={item.id} style={layout[index]?.style} className="min-w-0">
            {props.link(item, index, picture)}
          </li>
        );
      })}
    </ul>
  );
}
