import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import type { AppMailService } from "#app/domains/mail/mail.server.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import { contactDictionaryFor } from "#app/i18n/contact-dictionary.ts";
import { translatorWith } from "#app/i18n/i18n.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import type { Env } from "#app/lib/env.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { receiveContactMessage } from "./contact.server.ts";
import { CONTACT_LIMITS, HONEYPOT_FIELD } from "./contact-fields.ts";
import { type ContactFieldName, contactFormSchema, contactProblems } from "./contact-form.ts";
import { type ContactGuard, issueContactToken, MAX_FORM_AGE_MS } from "./contact-guard.server.ts";
import type { ContactResult, ContactValues } from "./contact-result.ts";

/** Anything but a form field's string (a repeated field, an object) counts as empty, never as a crash. */
const loose = z.string().catch("");
const rawForm = z.object({
  name: loose,
  email: loose,
  message: loose,
  token: loose,
  nonce: loose,
  [HONEYPOT_FIELD]: loose,
});

/** The composition root's services the page uses (the route passes its runtime); a domain does not know the runtime. */
type ContactServices = {
  contactSecret: string;
  contactGuard: ContactGuard;
  database: { db: Kysely<Database> };
  mail: AppMailService;
  env: Pick<Env, "baseUrl">;
};

/**
 * A sent form's outcome, as plain data: the route (app/routes/contact.tsx) chooses the HTTP status from `refused`
 * (a domain answers no HTTP). `waitMs` goes with "too-many": how long until the limits let the visitor send again.
 */
export type ContactSubmission =
  | { result: ContactResult & { ok: true }; refused?: undefined }
  | { result: ContactResult & { ok: false }; refused: "expired" | "invalid" }
  | { result: ContactResult & { ok: false }; refused: "too-many"; waitMs: number };

/** What the page needs: a fresh token (so the page is never kept by any cache: see the route's headers). */
export function contactPageData(runtime: Pick<ContactServices, "contactSecret">, lang: Language) {
  return {
    dictionary: contactDictionaryFor(lang),
    token: issueContactToken(runtime.contactSecret),
    limits: CONTACT_LIMITS,
  };
}

/**
 * A sent form, checked in this order: the honeypot and the signed token (a bot is answered as if its message had
 * been sent, and nothing is kept), the fields (refused with the visitor's words kept and each problem named in
 * their language), the limits, then the message is kept and mailed. The answer never waits for the mail.
 */
export async function submitContactForm(input: {
  runtime: ContactServices;
  settings: SiteSettings;
  lang: Language;
  client: string;
  form: Record<string, string>;
}): Promise<ContactSubmission> {
  const { runtime, lang } = input;
  const t = translatorWith(lang, contactDictionaryFor(lang));
  const raw = rawForm.parse(input.form);
  const values: ContactValues = { name: raw.name, email: raw.email, message: raw.message };
  const sent = (email: string) => ({ result: { ok: true, email } }) satisfies ContactSubmission;

  const screening = await runtime.contactGuard.screen({
    token: raw.token,
    nonce: raw.nonce,
    honeypot: raw[HONEYPOT_FIELD],
  });
  if (screening.verdict === "drop") {
    // Told nothing it could learn from; the log says why, without anything the bot sent.
    getLogger().info({ reason: screening.reason }, "A contact form submission was dropped as spam");
    return sent(values.email.trim());
  }
  if (screening.verdict === "expired") {
    const result = {
      ok: false,
      values,
      fieldErrors: {},
      formError: t("contact.error.expired", { hours: MAX_FORM_AGE_MS / 3_600_000 }),
      token: issueContactToken(runtime.contactSecret),
    } as const;
    return { result, refused: "expired" };
  }

  const parsed = contactFormSchema.safeParse(values);
  if (!parsed.success) {
    const fieldErrors: Partial<Record<ContactFieldName, string>> = {};
    for (const [field, problem] of Object.entries(contactProblems(parsed.error)) as [ContactFieldName, string][]) {
      fieldErrors[field] = t(`contact.error.${problem}` as "contact.error.required", { max: CONTACT_LIMITS[field] });
    }
    // The same token goes back: the visitor's next try is not "too fast", and its proof of work still holds.
    return { result: { ok: false, values, fieldErrors, token: raw.token }, refused: "invalid" };
  }

  const fields = parsed.data;
  // The token is spent and the limits counted together, in the database: the same form sent twice at once (to one
  // server process or two) keeps one message.
  const admission = await runtime.contactGuard.admit({
    client: input.client,
    email: fields.email,
    noScript: screening.noScript,
    challenge: screening.challenge,
    issuedAt: screening.issuedAt,
  });
  if (admission.verdict === "reused") {
    // A replay that raced its first sending: dropped like one the screening caught.
    getLogger().info({ reason: "reused" }, "A contact form submission was dropped as spam");
    return sent(fields.email);
  }
  if (admission.verdict === "wait") {
    const wait = admission.ms;
    const minutes = Math.max(1, Math.ceil(wait / 60_000));
    const result = {
      ok: false,
      values,
      fieldErrors: {},
      formError: t("contact.error.tooMany", { minutes }),
      token: raw.token,
    } as const;
    return { result, refused: "too-many", waitMs: wait };
  }
  await receiveContactMessage(
    { db: runtime.database.db, mail: runtime.mail, baseUrl: runtime.env.baseUrl, settings: input.settings },
    { ...fields, language: lang },
  );
  return sent(fields.email);
}
