import type { Kysely } from "kysely";
import type { Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import { recordMailFailure } from "./mail-failures.server.ts";
import { MAIL_MAX_ATTEMPTS, type MailJob } from "./mail-job-payload.server.ts";
import { isMailLink, layoutMail } from "./mail-layout.ts";
import type { MailMessage } from "./mail-message.ts";
import { fileInOutbox, KIND_HEADER } from "./outbox.server.ts";

export type MailLogger = {
  info: (fields: object, message: string) => void;
  warn: (fields: object, message: string) => void;
  error: (fields: object, message: string) => void;
};

export type MailDeliveryDeps = {
  /** `smtp://` or `smtps://` with the credentials in it; undefined: every mail goes to the outbox. */
  smtpUrl: string | undefined;
  /** The sender's address (MAIL_FROM); the sender's name is the site name. */
  from: string;
  /** BASE_URL, named at the foot of every mail. */
  baseUrl: string;
  /** The site name from settings, read for every mail (an admin may change it at any time). */
  readSiteName: () => Promise<string>;
  /** The outbox (outbox_mails) and failed deliveries (mail_failures). */
  db: Kysely<Database>;
  logger: MailLogger;
  now: () => Date;
  /** SMTP timeouts in ms (tests shorten them). */
  smtpTimeoutMs?: number;
};

/** A delivery that failed for a passing reason and is to be tried again; its message is masked. */
export class MailRetryLater extends Error {}

/** Something no second try can change: the mail itself is wrong. */
class UndeliverableMail extends Error {}

const address = z.email();

/** Replaces the SMTP password (as written in the URL and decoded) wherever it occurs, e.g. in an error message. */
export function maskSecretsOf(smtpUrl: string | undefined): (text: string) => string {
  if (!smtpUrl) return (text) => text;
  let secrets: string[] = [];
  try {
    const { password } = new URL(smtpUrl);
    secrets = [password, safeDecode(password)].filter((value) => value.length > 0);
  } catch {
    // Not a URL: env validation refuses it before this is reached.
  }
  return (text) => secrets.reduce((masked, secret) => masked.replaceAll(secret, "***"), text);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

// nodemailer's codes for what a second try cannot mend: the server refused the login or the envelope, the message
// could not be made, the configuration is wrong.
const LASTING_CODES = new Set(["EAUTH", "ENOAUTH", "EOAUTH2", "EENVELOPE", "EMESSAGE", "ECONFIG", "EREQUIRETLS"]);
// An untrusted mail server's certificate is the owner's to fix (NODE_EXTRA_CA_CERTS, or another SMTP_URL).
const CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|certificate/i;

/**
 * Whether another try may succeed. RFC 5321: a 4yz reply is transient and a 5yz one permanent, except 503 (a bad
 * sequence of commands, which a new connection mends); a connection that failed, timed out or closed, or the
 * database that was away while a mail was filed, may work a minute later.
 */
export function isPassingFailure(error: unknown): boolean {
  if (error instanceof UndeliverableMail) return false;
  const { responseCode, code, originalCode, message } = (error ?? {}) as {
    responseCode?: unknown;
    code?: unknown;
    originalCode?: unknown;
    message?: unknown;
  };
  if (typeof responseCode === "number" && responseCode >= 400) {
    return responseCode < 500 || responseCode === 503;
  }
  if (CERTIFICATE.test(String(originalCode ?? "")) || CERTIFICATE.test(String(message ?? ""))) return false;
  return !(typeof code === "string" && LASTING_CODES.has(code));
}

/** RFC 2369's and RFC 8058's headers: a mail program's own unsubscribe button posts once to the address. */
function unsubscribeHeaders(message: MailMessage): Record<string, string> {
  if (message.unsubscribeUrl === undefined) return {};
  return {
    "List-Unsubscribe": `<${message.unsubscribeUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/**
 * Delivers one mail: through SMTP, or into the outbox without SMTP_URL. A failure that another try may mend throws
 * `MailRetryLater` (the queue tries again after a pause) until the last try; any other failure, and the last try's,
 * is logged with its reason (the SMTP password masked) and recorded in mail_failures for the dashboard, and the
 * delivery ends there. Logs name the recipient and subject, never the body (its links hold tokens).
 */
export function createMailDelivery(deps: MailDeliveryDeps) {
  const mask = maskSecretsOf(deps.smtpUrl);
  const timeout = deps.smtpTimeoutMs ?? 20_000;
  // nodemailer is loaded with the first mail (about 8 MB resident that a process sending none does not carry).
  let transports: Promise<{ smtp: Transporter | null; composer: Transporter }> | undefined;
  const loadTransports = () => {
    transports ??= import("nodemailer").then(({ default: nodemailer }) => ({
      smtp: deps.smtpUrl
        ? nodemailer.createTransport({
            url: deps.smtpUrl,
            connectionTimeout: timeout,
            greetingTimeout: timeout,
            socketTimeout: timeout * 2,
          } as SMTPTransport.Options)
        : null,
      // The outbox's transport only builds the RFC 822 text; filing it is ours.
      composer: nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" }),
    }));
    return transports;
  };

  async function attempt({ id, at, message }: MailJob): Promise<void> {
    if (!address.safeParse(message.to).success) throw new UndeliverableMail("The recipient is not an e-mail address");
    if (message.replyTo && !address.safeParse(message.replyTo.address).success) {
      throw new UndeliverableMail("The Reply-To address is not an e-mail address");
    }
    if (message.unsubscribeUrl !== undefined && !isMailLink(message.unsubscribeUrl)) {
      throw new UndeliverableMail("The unsubscribe address must be an absolute http(s) address");
    }
    const siteName = (await deps.readSiteName()).trim() || "Vitrine";
    let laidOut: { text: string; html: string };
    try {
      laidOut = layoutMail(message, { name: siteName, baseUrl: deps.baseUrl });
    } catch (error) {
      throw new UndeliverableMail(error instanceof Error ? error.message : String(error));
    }
    const mail = {
      from: { name: siteName, address: deps.from },
      to: message.to,
      subject: message.subject,
      ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      ...laidOut,
      // When it was sent by the site, however late a retry delivers it.
      date: new Date(at),
      // Readable as it is filed, and safe for every mail server.
      textEncoding: "quoted-printable" as const,
      headers: { "Content-Language": message.language, ...unsubscribeHeaders(message) },
    };
    const { smtp, composer } = await loadTransports();
    if (smtp) {
      await smtp.sendMail(mail);
      deps.logger.info({ to: message.to, kind: message.kind }, "Mail sent");
      return;
    }
    const built = await composer.sendMail({ ...mail, headers: { ...mail.headers, [KIND_HEADER]: message.kind } });
    // Filed under the id the job carries: a try repeated after a process died in between files nothing twice.
    if (await fileInOutbox(deps.db, { id, raw: built.message as Buffer, filedAt: deps.now() })) {
      // Recipient and subject only: the body holds the links (tokens), which stay in the outbox.
      deps.logger.info(
        { to: message.to, subject: message.subject, kind: message.kind, id, read: "npm run cli -- outbox latest" },
        "Mail filed in the outbox (SMTP_URL is not set)",
      );
    }
  }

  return {
    mode: deps.smtpUrl ? ("smtp" as const) : ("outbox" as const),
    /** One try of `mail`, the `tries`-th; throws MailRetryLater when the queue should try again. */
    async deliver(mail: MailJob, tries: number): Promise<void> {
      const { message } = mail;
      try {
        await attempt(mail);
      } catch (error) {
        const reason = mask(error instanceof Error ? error.message : String(error)) || "Unknown error";
        if (isPassingFailure(error) && tries < MAIL_MAX_ATTEMPTS) {
          deps.logger.warn(
            { to: message.to, kind: message.kind, reason, attempt: tries },
            "Mail could not be delivered yet; it will be tried again",
          );
          throw new MailRetryLater(reason);
        }
        deps.logger.error({ to: message.to, kind: message.kind, reason }, "Mail could not be delivered");
        // Not caught: a failure that could not be recorded is tried again rather than forgotten.
        await recordMailFailure(deps.db, {
          recipient: message.to,
          kind: message.kind,
          subject: message.subject,
          reason,
          at: deps.now(),
        });
      }
    },
    close() {
      void transports?.then(({ smtp }) => smtp?.close());
    },
  };
}

export type MailDelivery = ReturnType<typeof createMailDelivery>;
