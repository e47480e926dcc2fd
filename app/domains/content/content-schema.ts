import { z } from "zod";
import { withoutControlCharacters } from "#app/lib/text-schema.ts";

/**
 * Building blocks of the content forms' zod schemas. Error messages are admin dictionary keys, so
 * the route can answer in the admin's language.
 */
export function requiredText(max: number) {
  return z.preprocess(
    (value) => value ?? "",
    z
      .string({ error: "admin.content.error.required" })
      .trim()
      .min(1, { error: "admin.content.error.required" })
      .max(max, { error: "admin.content.error.tooLong" })
      .refine(withoutControlCharacters, { error: "admin.content.error.control" }),
  );
}

export function optionalText(max: number) {
  return z.preprocess(
    (value) => value ?? "",
    z
      .string({ error: "admin.content.error.invalid" })
      .trim()
      .max(max, { error: "admin.content.error.tooLong" })
      .refine(withoutControlCharacters, { error: "admin.content.error.control" }),
  );
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

export const httpUrl = z.preprocess(
  (value) => value ?? "",
  z
    .string({ error: "admin.content.error.required" })
    .trim()
    .min(1, { error: "admin.content.error.required" })
    .max(2000, { error: "admin.content.error.tooLong" })
    .refine(isHttpUrl, { error: "admin.links.error.url" }),
);
