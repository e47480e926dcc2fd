import type { z } from "zod";
import { type AdminMessageKey, type AdminTranslate, adminEn } from "#app/i18n/admin-dictionary.ts";
import type { TextProblem } from "./text-schema.ts";

/** The admin's words for the shared text rule's problems (`app/lib/text-schema.ts`) when a schema left them as codes. */
const TEXT_PROBLEM_KEYS: Record<TextProblem, AdminMessageKey> = {
  required: "admin.content.error.required",
  tooLong: "admin.content.error.tooLong",
  control: "admin.content.error.control",
  lineBreak: "admin.content.error.lineBreak",
  invalid: "admin.content.error.invalid",
};

function isAdminKey(value: string): value is AdminMessageKey {
  return Object.hasOwn(adminEn, value);
}

/** zod issues as one message per field (the first); the messages are problem codes or admin dictionary keys. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * The field errors of an admin form in the admin's language: a text problem code or an admin dictionary
 * key per field (anything else reads as "not valid"), with the parameters a field's message needs.
 */
export function translateFieldErrors(
  t: AdminTranslate,
  errors: Record<string, string>,
  params: Record<string, Record<string, string | number>> = {},
): Record<string, string> {
  const translated: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors)) {
    const key = Object.hasOwn(TEXT_PROBLEM_KEYS, message)
      ? TEXT_PROBLEM_KEYS[message as TextProblem]
      : isAdminKey(message)
        ? message
        : "admin.content.error.invalid";
    translated[field] = t(key, params[field]);
  }
  return translated;
}
