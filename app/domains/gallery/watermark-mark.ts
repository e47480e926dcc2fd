/**
 * The watermark the visitor's pages show; `onThumbnails` is the owner's choice of the small mark
 * (`WatermarkBadge`), `size` the text's length class (`markSize`, on the server: less code for visitors).
 */
export type Watermark = { text: string; url: string | null; onThumbnails: boolean; size: MarkSize };

export type MarkSize = "s" | "m" | "l" | "xl";

/**
 * The tile width (a container query in app.css) below which the mark shows "©" alone, by the text's length: the
 * whole text takes at most two short lines of the tile, so it never covers much of a small picture.
 */
export function markSize(text: string): MarkSize {
  const length = [...text].length;
  return length <= 12 ? "s" : length <= 24 ? "m" : length <= 40 ? "l" : "xl";
}
