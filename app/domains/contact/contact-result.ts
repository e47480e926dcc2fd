import type { ContactFieldName } from "./contact-form.ts";

export type ContactValues = Record<ContactFieldName, string>;

/**
 * What the contact form's action answers. Sent (or taken for a bot and dropped: the same answer), or refused with
 * what the visitor typed, the problems in their language, and the token to send again with.
 */
export type ContactResult =
  | { ok: true; email: string }
  | {
      ok: false;
      values: ContactValues;
      fieldErrors: Partial<Record<ContactFieldName, string>>;
      /** A problem of the whole form (expired, too many). */
      formError?: string;
      token?: string;
    };
