import { z } from "zod";
import { isSingleLine, textSchema } from "#app/lib/text-schema.ts";

/**
 * The shared text rule's problems as admin dictionary keys: the admin forms' schemas name their errors so,
 * and the route answers them in the admin's language (`translateFieldErrors`).
 */
export const ADMIN_TEXT_MESSAGES = {
  required: "admin.content.error.required",
  tooLong: "admin.content.error.tooLong",
  control: "admin.content.error.control",
  lineBreak: "admin.content.error.lineBreak",
  invalid: "admin.content.error.invalid",
} as const;

/** Building blocks of the content forms' zod schemas, on the shared text rule (`app/lib/text-schema.ts`). */
export function requiredText(max: number, options: { multiline?: boolean } = {}) {
  return textSchema({ max, required: true, multiline: options.multiline, messages: ADMIN_TEXT_MESSAGES });
}

export function optionalText(max: number, options: { multiline?: boolean } = {}) {
  return textSchema({ max, multiline: options.multiline, messages: ADMIN_TEXT_MESSAGES });
}

/** A checkbox: a form sends "on" when ticked and nothing otherwise; services may pass a boolean. */
export const activeFlag = z.preprocess((value) => value === true || value === "on" || value === "true", z.boolean());

/** An absolute http(s) URL with a host; anything else (javascript:, data:, mailto:, relative) is refused. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

export const httpUrl = requiredText(2000).refine(
  (value) => isSingleLine(value) && !/\s/.test(value) && isHttpUrl(value),
  { error: "admin.links.error.url" },
);
