import type { Watermark } from "#app/domains/gallery/watermark-mark.ts";
import { type ImageDisplay, WATERMARK_EM_PER_CHARACTER, watermarkLayout } from "#app/domains/media/image-display.ts";

// The mark's data is the gallery domain's (the server makes it, see public-watermark.server.ts); named here too for
// the components that draw it.
export type { Watermark };

/**
 * The watermark text as a small, quiet mark at the bottom right of a picture whose pixels do not carry it
 * (see `thumbnailWatermark`), unless the owner turned it off. It is never cut: it wraps within the picture (at
 * any character, for a long word), and on a tile too narrow for it (a portrait beside a panorama on a phone)
 * it is "©" alone. Its backdrop is black at 55 %, so its white text keeps at least 4.7:1 over any picture, a
 * white one included (axe cannot measure text over an image). In a grid it is decoration, hidden from screen
 * readers and not a link: the same text on every tile, which the footer's copyright line and the lightbox
 * (where the mark is a link) already say; on a single cover it links to the owner's page when one is set.
 * Its parent is the picture's frame, a size container (`@container`).
 */
export function WatermarkBadge({ watermark, inGrid = false }: { watermark: Watermark; inGrid?: boolean }) {
  if (!watermark.onThumbnails) return null;
  const className = `watermark-mark mark-${watermark.size} absolute right-1.5 bottom-1.5 max-w-[calc(100%-0.75rem)] rounded-sm bg-black/55 px-1.5 py-px text-right text-[0.6875rem] leading-snug font-medium text-white [overflow-wrap:anywhere]`;
  const text = (
    <>
      <span className="mark-full">{watermark.text}</span>
      <span className="mark-short">©</span>
    </>
  );
  if (!watermark.url || inGrid) {
    return (
      <span className={`pointer-events-none ${className}`} aria-hidden={inGrid ? true : undefined}>
        {text}
      </span>
    );
  }
  return (
    <a
      href={watermark.url}
      rel="noopener noreferrer"
      target="_blank"
      className={`${className} underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white`}
    >
      {text}
    </a>
  );
}

/**
 * On a picture whose pixels carry the watermark (the lightbox's): nothing is laid over the drawn text, which
 * is the one watermark seen. With the owner's page set, the drawn text's corner is a link to it (named by the
 * text, outlined when focused), placed by the drawing's own layout (`watermarkLayout`).
 */
export function DrawnWatermarkLink({ watermark, image }: { watermark: Watermark; image: ImageDisplay }) {
  if (!watermark.url) return null;
  const [width = image.width, height = image.height] = image.variants.at(-1) ?? [];
  const box = watermarkLayout(width, height, [...watermark.text].length * WATERMARK_EM_PER_CHARACTER);
  return (
    <a
      href={watermark.url}
      rel="noopener noreferrer"
      target="_blank"
      title={watermark.text}
      style={{ width: `${(100 * box.boxWidth) / width}%`, height: `${(100 * box.boxHeight) / height}%` }}
      className="absolute right-0 bottom-0 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-white"
    >
      {/* Its name; what the eye reads is the drawn text under it. */}
      <span className="sr-only">{watermark.text}</span>
    </a>
  );
}
