import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { leadingZeroBits, POW_BITS, powInput } from "#app/domains/contact/contact-fields.ts";
import { contactSecretOf, issueContactToken, readContactToken } from "#app/domains/contact/contact-guard.server.ts";

/** The nonce the browser's solver would find (app/components/contact/proof-of-work.ts), with Node's hash. */
export function solveContactProof(challenge: string, bits = POW_BITS): string {
  for (let nonce = 0; ; nonce++) {
    const digest = createHash("sha256")
      .update(powInput(challenge, String(nonce)))
      .digest();
    if (leadingZeroBits(digest) >= bits) return String(nonce);
  }
}

/** The token a contact page carries (its hidden field). */
export function tokenInPage(html: string): string {
  const token = html.match(/name="token" value="([^"]+)"/)?.[1];
  if (!token) throw new Error("No contact form token in the page");
  return token;
}

/**
 * A contact form as a browser with JavaScript sends it after `ageMs`: a token signed with the server's key (from
 * its AUTH_SECRET, as the page's is) and its proof of work. `proof: false` sends it as a browser without JavaScript.
 */
export function contactFormFields(
  authSecret: string,
  fields: { name?: string; email?: string; message?: string; website?: string },
  options: { ageMs?: number; proof?: boolean; token?: string } = {},
): Record<string, string> {
  const secret = contactSecretOf(authSecret);
  const token = options.token ?? issueContactToken(secret, Date.now() - (options.ageMs ?? 5_000));
  const challenge = readContactToken(secret, token)?.challenge ?? token.split(".")[1] ?? "";
  return {
    name: fields.name ?? "Bea Sender",
    email: fields.email ?? "bea@example.test",
    message: fields.message ?? "Hello, I like your pictures.",
    website: fields.website ?? "",
    token,
    nonce: options.proof === false ? "" : solveContactProof(challenge),
  };
}

/** Turns the contact form on (and sets where messages go, when given), as the settings screen would. */
export async function enableContactForm(db: Kysely<Database>, address?: string): Promise<void> {
  await db.updateTable("site_settings").set({ value: "true" }).where("key", "=", "contact_enabled").execute();
  if (address !== undefined) {
    await db.updateTable("site_settings").set({ value: address }).where("key", "=", "contact_email").execute();
  }
}
