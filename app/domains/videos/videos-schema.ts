import { z } from "zod";
import { accessSchema } from "#app/domains/access/access-schema.ts";
import { activeFlag, addressCompletion, optionalText, requiredText } from "#app/domains/content/content-schema.ts";
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
  embed_url: optionalText(2000).superRefine((value, context) => {
    if (value === "" || parseVideoUrl(value) !== null) return;
    // "youtube.com/watch?v=…" without https://: refused with the completed address offered.
    const completed = addressCompletion(value);
    const message =
      completed && parseVideoUrl(completed) !== null ? "admin.videos.error.urlScheme" : "admin.videos.error.url";
    context.addIssue({ code: "custom", message });
  }),
  active: activeFlag,
});

export type VideoInput = z.infer<typeof videoSchema>;

/** Who may see a video (issue 21), as its editor's access form sends it. Messages are admin dictionary keys. */
export const videoAccessSchema = accessSchema({
  visibility: "admin.videos.error.visibility",
  groups: "admin.videos.error.groups",
});
