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

/**
 * `mailto:` with exactly one address and nothing after it: a query (`?bcc=`, `?body=`) or a second address could
 * make a visitor's mail program send more, or to more people, than the link shows.
 */
function isMailtoAddress(value: string): boolean {
  const match = /^mailto:(.+)$/i.exec(value);
  return match?.[1] !== undefined && match[1].length <= 254 && z.email().safeParse(match[1]).success;
}

/** `tel:` with a number written as people write them: digits, spaces, `+`, `-` and parentheses, 3 digits at least. */
function isTelAddress(value: string): boolean {
  const match = /^tel:([0-9 +()-]+)$/i.exec(value);
  return match?.[1] !== undefined && (match[1].match(/[0-9]/g)?.length ?? 0) >= 3 && match[1].length <= 40;
}

/**
 * A link's address: an absolute http(s) URL with a host, a `mailto:` address or a `tel:` number. Anything else
 * (javascript:, data:, file:, relative) is refused. The scheme is stored in lower case, the rest as typed.
 */
export const linkUrl = requiredText(2000)
  .refine(
    (value) =>
      isSingleLine(value) &&
      (isTelAddress(value) || (!/\s/.test(value) && (isHttpUrl(value) || isMailtoAddress(value)))),
    { error: "admin.links.error.url" },
  )
  .transform((value) => (/^(mailto|tel):/i.test(value) ? value.replace(/^[a-z]+:/i, (s) => s.toLowerCase()) : value));
