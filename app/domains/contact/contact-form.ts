import { z } from "zod";
import { isValidEmail, normalizeEmail } from "#app/domains/users/email.ts";
import { type TextProblem, textSchema } from "#app/lib/text-schema.ts";
import { CONTACT_LIMITS } from "./contact-fields.ts";

/*
 * The contact form's validation (the action's): each field's rule, with problem codes the page translates. The
 * page itself does not import this module (it needs no zod).
 */

/** Why a field was refused, as the page names it in the visitor's language (`contact.error.<problem>`). */
export type ContactProblem = TextProblem | "emailInvalid";

const text = (max: number, multiline = false) => textSchema({ max, required: true, multiline });

export const contactFormSchema = z.object({
  name: text(CONTACT_LIMITS.name),
  email: text(CONTACT_LIMITS.email)
    .transform(normalizeEmail)
    .refine((value) => value === "" || isValidEmail(value), { message: "emailInvalid" }),
  message: text(CONTACT_LIMITS.message, true),
});

export type ContactFields = z.infer<typeof contactFormSchema>;
export type ContactFieldName = keyof ContactFields;

/** The first problem of each field, as a code. */
export function contactProblems(error: z.ZodError): Partial<Record<ContactFieldName, ContactProblem>> {
  const problems: Partial<Record<ContactFieldName, ContactProblem>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (field === "name" || field === "email" || field === "message") {
      problems[field] ??= issue.message as ContactProblem;
    }
  }
  return problems;
}
