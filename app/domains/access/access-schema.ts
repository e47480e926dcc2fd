import { z } from "zod";
import { ROW_ID_PATTERN } from "#app/lib/text-schema.ts";
import { CONTENT_VISIBILITIES } from "./reader.ts";

/*
 * The editors' fields of who may see an item (issue 21), shared by every kind of content: the messages are each
 * editor's own admin dictionary keys.
 */

/** An item may name at most this many groups. */
export const ITEM_GROUPS_MAX = 50;

/** Who may see the item; absent (an old form, an empty field) keeps what is stored (a new item: everyone). */
export function visibilityField(error: string) {
  return z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    z.enum(CONTENT_VISIBILITIES, { error }).optional(),
  );
}

/** The groups of an item for groups: ids, comma-separated (the form) or a list; whether they exist is the service's. */
export function groupIdsField(error: string) {
  return z.preprocess(
    (value) => {
      if (value === undefined || value === null) return [];
      if (typeof value === "string") return value.split(",").map((id) => id.trim());
      return value;
    },
    z
      .array(z.string({ error }), { error })
      .transform((ids) => [...new Set(ids.filter((id) => id !== ""))])
      .refine((ids) => ids.length <= ITEM_GROUPS_MAX && ids.every((id) => ROW_ID_PATTERN.test(id)), { error }),
  );
}

/**
 * Who may see an item, as an editor's own access form sends it (a picture's, a video's): everyone, members, or groups
 * (ids, one comma-separated field or a list; at most 50). `messages` are the editor's admin dictionary keys.
 */
export function accessSchema(messages: { visibility: string; groups: string }) {
  return z.object({
    visibility: z.enum(CONTENT_VISIBILITIES, { error: messages.visibility }),
    group_ids: groupIdsField(messages.groups),
  });
}
