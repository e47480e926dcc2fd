import { z } from "zod";
import { activeFlag, linkUrl, optionalText, requiredText } from "#app/domains/content/content-schema.ts";

export const LINK_TITLE_MAX = 120;

/** A link as the admin form sends it. An unknown icon name is allowed: it shows the generic link icon. */
export const linkSchema = z.object({
  title: requiredText(LINK_TITLE_MAX),
  title_de: optionalText(LINK_TITLE_MAX),
  url: linkUrl,
  icon: z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? value.trim().toLowerCase() : "link"),
    z
      .string()
      .max(40, { error: "admin.content.error.tooLong" })
      .regex(/^[a-z0-9-]+$/, { error: "admin.links.error.icon" }),
  ),
  active: activeFlag,
});

export type LinkInput = z.infer<typeof linkSchema>;
