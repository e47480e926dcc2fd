/**
 * What a page needs to render a stored image (made by `imageForDisplay` in images.server.ts). Shared by the
 * server and the browser: no keys, no rows, only URLs and sizes.
 */
export type ImageDisplay = {
  width: number;
  height: number;
  /** A tiny blurred preview (data URI), shown as the background until the image has loaded. */
  placeholder: string;
  sources: { avif: string; webp: string };
  fallback: { src: string; srcset: string };
  /** Only the variants that carry the watermark when it is on (the lightbox's), so no clean copy is sent. */
  full: { sources: { avif: string; webp: string }; fallback: { src: string; srcset: string } };
  /** The largest JPEG, e.g. for a share card. */
  large: { src: string; width: number; height: number };
};
