export type Watermark = { text: string; url: string | null };

/**
 * The watermark text over a picture (bottom right). It links to the owner's page when one is set; in the
 * grid the link is left out of the tab order (one per thumbnail would be a long detour), the lightbox's is reachable.
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
