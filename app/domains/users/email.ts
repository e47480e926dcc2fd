import { z } from "zod";

/** Sign-in and sign-up compare addresses trimmed and in lower case. */
export function normalizeEmail(input: string): string {
  return input.trim().toLowerCase();
}

const emailSchema = z.email();

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && emailSchema.safeParse(email).success;
}
