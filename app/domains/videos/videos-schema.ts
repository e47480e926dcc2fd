import { z } from "zod";
import { activeFlag, optionalText, requiredText } from "#app/domains/content/content-schema.ts";
import { parseVideoUrl } from "./video-url.ts";

export const VIDEO_TITLE_MAX = 200;
export const VIDEO_DESCRIPTION_MAX = 2000;

/**
 * A video as the admin form sends it. The URL may be empty (an uploaded file instead); when given it must
 * be a YouTube or Vimeo video. Whether a video needs a URL is decided by the service (files have none).
 */
export const videoSchema = z.object({
  title: requiredText(VIDEO_TITLE_MAX),
  title_de: optionalText(VIDEO_TITLE_MAX),
  description: optionalText(VIDEO_DESCRIPTION_MAX, { multiline: true }),
  description_de: optionalText(VIDEO_DESCRIPTION_MAX, { multiline: true }),
  embed_url: optionalText(2000).refine((value) => value === "" || parseVideoUrl(value) !== null, {
    error: "admin.videos.error.url",
  }),
  active: activeFlag,
});

export type VideoInput = z.infer<typeof videoSchema>;
