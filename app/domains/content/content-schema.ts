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

/** A host name with a dot (letters of any script, digits, hyphens), an optional port, then a path, query or fragment. */
const HOST_AND_PATH = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}{2,63}(?::\d{1,5})?(?:[/?#]\S*)?$/u;

/**
 * What an address typed without its scheme most likely meant: "example.com/path" (or "//example.com/path") as
 * "https://example.com/path", "me@example.com" as "mailto:me@example.com"; null when it does not look like either.
 * Offered to the admin, never stored unasked: the field keeps refusing what is not a complete address.
 */
export function addressCompletion(value: string): string | null {
  const typed = value.trim();
  if (typed === "" || /\s/.test(typed) || /^[a-z][a-z0-9+.-]*:\/\//i.test(typed)) return null;
  if (/^[^@/:]+@[^@/:]+$/.test(typed)) return isMailtoAddress(`mailto:${typed}`) ? `mailto:${typed}` : null;
  const rest = typed.replace(/^\/\//, "");
  if (!HOST_AND_PATH.test(rest)) return null;
  return isHttpUrl(`https://${rest}`) ? `https://${rest}` : null;
}

/**
 * A link's address: an absolute http(s) URL with a host, a `mailto:` address or a `tel:` number. Anything else
 * (javascript:, data:, file:, relative) is refused; one that only lacks its scheme is refused with the completed
 * address offered (`addressCompletion`). The scheme is stored in lower case, the rest as typed.
 */
export const linkUrl = requiredText(2000)
  .superRefine((value, context) => {
    const valid =
      isSingleLine(value) &&
      (isTelAddress(value) || (!/\s/.test(value) && (isHttpUrl(value) || isMailtoAddress(value))));
    if (valid) return;
    const message = addressCompletion(value) ? "admin.links.error.urlScheme" : "admin.links.error.url";
    context.addIssue({ code: "custom", message });
  })
  .transform((value) => (/^(mailto|tel):/i.test(value) ? value.replace(/^[a-z]+:/i, (s) => s.toLowerCase()) : value));
