import type { ReactNode } from "react";
import { ResponsiveImage } from "#app/components/responsive-image.tsx";
import { type ImageDisplay, thumbnailWatermark } from "#app/domains/media/image-display.ts";
import { justifiedItemStyle, justifiedSizes, ROWS_CLASS } from "./justified-rows.ts";
import { type Watermark, WatermarkBadge } from "./watermark-badge.tsx";

/** How many pictures load at once (about the first row); the rest as they scroll into view. */
const EAGER_COUNT = 3;

/**
 * Pictures in justified rows, each whole in its own shape (see justified-rows.ts), with the watermark seen
 * once: the badge over the clean widths, or the drawn-in text alone (`thumbnailWatermark`). The gallery and
 * the home page show their pictures this way; `link` wraps each picture in that page's link.
 */
export function PictureRows<T extends { id: string; image: ImageDisplay }>(props: {
  items: T[];
  watermark: Watermark | null;
  altFor: (item: T, index: number) => string;
  link: (item: T, index: number, picture: ReactNode) => ReactNode;
}) {
  return (
    <ul className={`picture-rows ${ROWS_CLASS}`}>
      {props.items.map((item, index) => {
        const { only, badge } = thumbnailWatermark(item.image, props.watermark !== null);
        const picture = (
          <ResponsiveImage
            image={item.image}
            alt={props.altFor(item, index)}
            sizes={justifiedSizes(item.image.width, item.image.height)}
            only={only}
            loading={index < EAGER_COUNT ? "eager" : "lazy"}
            // The first picture is the largest paint: fetched before the others.
            fetchPriority={index === 0 ? "high" : undefined}
            className="block h-auto w-full transition-transform duration-300 hover:scale-[1.02]"
          />
        );
        return (
          <li
            key={item.id}
            style={justifiedItemStyle(item.image.width, item.image.height)}
            className="relative min-w-0 overflow-hidden rounded-lg bg-zinc-100 dark:bg-zinc-900"
          >
            {props.link(item, index, picture)}
            {props.watermark && badge ? <WatermarkBadge watermark={props.watermark} inGrid /> : null}
          </li>
        );
      })}
    </ul>
  );
}
