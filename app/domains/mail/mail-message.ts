import type { Language } from "#app/i18n/i18n.ts";

/**
 * A mail as a feature describes it. The mail service (mail.server.ts) lays it out as plain text and HTML, signs
 * it with the site name from settings, and sends it through SMTP_URL or files it in the outbox. Texts arrive
 * already translated into `language`; links are absolute (from BASE_URL).
 */
export type MailMessage = {
  to: string;
  language: Language;
  /** What it is for, shown in the outbox and logged: e.g. "password-reset", "email-change", "invite". */
  kind: string;
  subject: string;
  /** Paragraphs before the action. */
  paragraphs: string[];
  /** The mail's one button (a link in the text part). */
  action?: { label: string; url: string };
  /** Paragraphs after the action (e.g. "If you did not ask for this, ignore this mail."). */
  footer?: string[];
  /** Where an answer goes (`Reply-To`): the visitor who wrote through the contact form. */
  replyTo?: { name: string; address: string };
  /**
   * Where one request unsubscribes the recipient (an absolute http(s) address holding its token): sent as
   * `List-Unsubscribe` with `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058), so that a mail program
   * offers its own unsubscribe button. Only mails to subscribers carry it.
   */
  unsubscribeUrl?: string;
};

/**
 * Sends or files one mail. A delivery failure never reaches the caller (the visitor's answer must not depend on
 * it): it is logged with its reason and shown to admins on the dashboard.
 */
export interface MailService {
  send(message: MailMessage): Promise<void>;
}
