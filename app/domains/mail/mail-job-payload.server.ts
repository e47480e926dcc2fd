import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { z } from "zod";
import { languages } from "#app/i18n/i18n.ts";
import type { MailMessage } from "./mail-message.ts";

/**
 * A mail as a `mail.send` job holds it (issue 20). The job row is the mail's durable record from the moment it is
 * sent until it is delivered, so that a process that dies loses nothing; the row sits in the database, beside the
 * password-reset tokens' hashes, and a mail carries the very link those hashes stand for. So the payload is sealed
 * (AES-256-GCM, with a key derived from AUTH_SECRET, which every process of a site shares): whoever reads the
 * database alone (a dump, a stolen replica) learns no live link from the queue. The outbox, where an owner without
 * SMTP reads the links on purpose, is another matter (see outbox.server.ts).
 */

/** The job kind of one mail to deliver. */
export const MAIL_SEND_JOB = "mail.send";
/**
 * Tries before a mail that keeps failing for a passing reason is given up and shown on the dashboard: with the
 * queue's pauses (5 s, 20 s, 80 s, 320 s, 1280 s) the last comes some half an hour after the first, past a mail
 * server's restart or greylisting, and while a reset link (one hour) still works.
 */
export const MAIL_MAX_ATTEMPTS = 6;

/** What a job needs to deliver its mail: the message, when it was sent, and its outbox id (filed at most once). */
export type MailJob = { id: string; at: string; message: MailMessage };

/** The key that seals the mail jobs' payloads, derived from the auth secret (never the secret itself). */
export function mailJobKeyOf(authSecret: string): string {
  return createHmac("sha256", authSecret).update("vitrine mail jobs").digest("base64url");
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Bound to the job kind: a sealed mail is no valid payload of anything else.
const ASSOCIATED = Buffer.from(MAIL_SEND_JOB);

function keyBytes(key: string): Buffer {
  return createHmac("sha256", key).update("aes-256-gcm").digest();
}

export function sealMailJob(key: string, job: MailJob): { v: number; sealed: string } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyBytes(key), iv);
  cipher.setAAD(ASSOCIATED);
  const body = Buffer.concat([cipher.update(JSON.stringify(job), "utf8"), cipher.final()]);
  return { v: VERSION, sealed: Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url") };
}

const mailJob = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  message: z.object({
    to: z.string(),
    language: z.enum(languages),
    kind: z.string(),
    subject: z.string(),
    paragraphs: z.array(z.string()),
    action: z.object({ label: z.string(), url: z.string() }).optional(),
    footer: z.array(z.string()).optional(),
    replyTo: z.object({ name: z.string(), address: z.string() }).optional(),
    unsubscribeUrl: z.string().optional(),
  }),
});

/** The mail a payload holds; throws (with no word of its content) when it is not one this site sealed. */
export function openMailJob(key: string, payload: unknown): MailJob {
  const envelope = z.object({ v: z.literal(VERSION), sealed: z.string() }).safeParse(payload);
  if (!envelope.success) throw new Error("The mail job's payload is not a sealed mail");
  const bytes = Buffer.from(envelope.data.sealed, "base64url");
  let text: string;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyBytes(key), bytes.subarray(0, IV_BYTES));
    decipher.setAAD(ASSOCIATED);
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    text = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    throw new Error("The mail job cannot be opened: it was sealed with another AUTH_SECRET, or changed");
  }
  const parsed = mailJob.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error("The mail job's payload is not a mail");
  return parsed.data;
}
