import { z } from "zod";
import { isSingleLine } from "#app/lib/text-schema.ts";

/** Sign-in and sign-up compare addresses trimmed and in lower case. */
export function normalizeEmail(input: string): string {
  return input.trim().toLowerCase();
}

const emailSchema = z.email();

/** An address as sign-up stores it and sign-in looks it up: at most 254 characters, no control characters. */
export function isValidEmail(email: string): boolean {
  return email.length <= 254 && isSingleLine(email) && emailSchema.safeParse(email).success;
}
