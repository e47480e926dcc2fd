import { type WatermarkSettings, watermarkText } from "#app/domains/media/image-watermarks.server.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import { markSize, type Watermark } from "./watermark-mark.ts";

function httpUrl(value: string): string | null {
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The watermark the visitor's pages show (gallery, lightbox, home page), or null when it is off. */
export function publicWatermark(
  settings: WatermarkSettings & Pick<SiteSettings, "watermark_url" | "thumbnail_watermark">,
): Watermark | null {
  const text = watermarkText(settings);
  return text
    ? {
        text,
        url: httpUrl(settings.watermark_url),
        onThumbnails: settings.thumbnail_watermark !== "false",
        size: markSize(text),
      }
    : null;
}
