import type { ImgHTMLAttributes } from "react";
import { type ImageDisplay, type ImageSelection, imageSources } from "#app/domains/media/image-display.ts";

/**
 * A stored image as `<picture>`: AVIF, then WebP, then JPEG, each with every width, so the browser picks
 * the smallest file that fills `sizes`. Width and height reserve the space before it loads (no layout
 * shift) and the tiny blurred placeholder shows through until the pixels arrive.
 */
export function ResponsiveImage({
  image,
  alt,
  sizes,
  loading = "lazy",
  className = "",
  only = "all",
  ...props
}: {
  image: ImageDisplay;
  /**
   * `full`: only the large variants (which carry the watermark when it is on), e.g. in the lightbox;
   * `clean`: only those that never carry it, under the watermark badge (see `thumbnailWatermark`).
   */
  only?: ImageSelection;
  alt: string;
  /** The rendered width per breakpoint, e.g. "(min-width: 1024px) 33vw, 100vw". */
  sizes: string;
  loading?: "lazy" | "eager";
} & Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "srcSet" | "width" | "height" | "loading" | "alt" | "sizes">) {
  const { sources, fallback } = imageSources(image, only);
  return (
    <picture>
      {sources.avif ? <source type="image/avif" srcSet={sources.avif} sizes={sizes} /> : null}
      {sources.webp ? <source type="image/webp" srcSet={sources.webp} sizes={sizes} /> : null}
      <img
        src={fallback.src}
        srcSet={fallback.srcset}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={alt}
        loading={loading}
        decoding="async"
        className={`bg-cover bg-center ${className}`}
        style={{ backgroundImage: `url("${image.placeholder}")` }}
        // Transparent images should not keep the preview behind them (also when loaded before hydration).
        ref={(element) => {
          if (element?.complete && element.naturalWidth > 0) element.style.backgroundImage = "none";
        }}
        onLoad={(event) => {
          event.currentTarget.style.backgroundImage = "none";
        }}
        {...props}
      />
    </picture>
  );
}
