import { type ImageDisplay, WATERMARK_EM_PER_CHARACTER, watermarkLayout } from "#app/domains/media/image-display.ts";

export type Watermark = { text: string; url: string | null };

/**
 * The watermark text over a picture (bottom right) whose pixels do not carry it (see `thumbnailWatermark`).
 * It links to the owner's page when one is set; in the grid the link is left out of the tab order (one per
 * thumbnail would be a long detour).
 */
export function WatermarkBadge({ watermark, inGrid = false }: { watermark: Watermark; inGrid?: boolean }) {
  const className =
    "absolute bottom-2 right-2 max-w-[80%] truncate rounded bg-black/70 px-2 py-0.5 text-xs font-semibold text-white";
  if (!watermark.url) {
    return (
      <span className={`pointer-events-none ${className}`} aria-hidden={inGrid ? true : undefined}>
        {watermark.text}
      </span>
    );
  }
  return (
    <a
      href={watermark.url}
      rel="noopener noreferrer"
      target="_blank"
      tabIndex={inGrid ? -1 : undefined}
      className={`${className} underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white`}
    >
      {watermark.text}
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
