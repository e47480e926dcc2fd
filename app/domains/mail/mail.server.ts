import type { Kysely } from "kysely";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import { recordChangeEvent } from "#app/domains/live/change-events.server.ts";
import { pruneMailFailures, recordMailFailure } from "./mail-failures.server.ts";
import { layoutMail } from "./mail-layout.ts";
import type { MailMessage, MailService } from "./mail-message.ts";
import { fileInOutbox, KIND_HEADER, pruneOutbox } from "./outbox.server.ts";

type MailLogger = {
  info: (fields: object, message: string) => void;
  error: (fields: object, message: string) => void;
};

export type MailServiceDeps = {
  /** `smtp://` or `smtps://` with the credentials in it; undefined: every mail goes to the outbox. */
  smtpUrl: string | undefined;
  /** The sender's address (MAIL_FROM); the sender's name is the site name. */
  from: string;
  /** DATA_DIR/outbox. */
  outboxDir: string;
  /** BASE_URL, named at the foot of every mail. */
  baseUrl: string;
  /** The site name from settings, read for every mail (an admin may change it at any time). */
  readSiteName: () => Promise<string>;
  /** Where failed deliveries are recorded (mail_failures). */
  db: Kysely<Database>;
  logger: MailLogger;
  /** The clock (tests pass their own). */
  now?: () => Date;
  /** SMTP timeouts in ms (tests shorten them). */
  smtpTimeoutMs?: number;
};

export type AppMailService = MailService & {
  /** Where mail goes: through SMTP_URL, or into the outbox. */
  readonly mode: "smtp" | "outbox";
  /** Resolves once every mail handed to `send` so far has been delivered, filed or recorded as failed. */
  settled(): Promise<void>;
  /** Waits (up to `timeoutMs`) for mails under way, then closes the SMTP connection. */
  close(timeoutMs?: number): Promise<void>;
};

const address = z.email();
const MAX_PARALLEL_DELIVERIES = 3;

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

/**
 * The mail service. `send` never waits for the delivery and never fails: the mail is laid out and handed to
 * SMTP (or filed in the outbox) in the background, so that a visitor's answer takes the same time and says the
 * same thing whether a mail went out, failed, or (for an unknown address) was never written. A failure is
 * logged with its reason (the SMTP password masked) and recorded in mail_failures for the dashboard.
 */
export function createMailService(deps: MailServiceDeps): AppMailService {
  const now = deps.now ?? (() => new Date());
  const mask = maskSecretsOf(deps.smtpUrl);
  const timeout = deps.smtpTimeoutMs ?? 20_000;
  const smtp = deps.smtpUrl
    ? nodemailer.createTransport({
        url: deps.smtpUrl,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout * 2,
      } as SMTPTransport.Options)
    : null;
  // The outbox's transport only builds the RFC 822 text; writing the file is ours (name, mode, atomic rename).
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  const pending = new Set<Promise<void>>();
  // At most a few deliveries at once (each may hold an SMTP connection); the rest wait their turn.
  let running = 0;
  const waiting: (() => void)[] = [];
  const turn = async () => {
    if (running < MAX_PARALLEL_DELIVERIES) running++;
    // A finished delivery hands its slot straight on (see done), so the count never overshoots.
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const done = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  async function deliver(message: MailMessage): Promise<void> {
    const at = now();
    try {
      if (!address.safeParse(message.to).success) throw new Error("The recipient is not an e-mail address");
      if (message.replyTo && !address.safeParse(message.replyTo.address).success) {
        throw new Error("The Reply-To address is not an e-mail address");
      }
      const siteName = (await deps.readSiteName()).trim() || "Vitrine";
      const { text, html } = layoutMail(message, { name: siteName, baseUrl: deps.baseUrl });
      const mail = {
        from: { name: siteName, address: deps.from },
        to: message.to,
        subject: message.subject,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        text,
        html,
        date: at,
        // Readable as it is filed (an operator may open the .eml), and safe for every mail server.
        textEncoding: "quoted-printable" as const,
        headers: { "Content-Language": message.language },
      };
      if (smtp) {
        await smtp.sendMail(mail);
        deps.logger.info({ to: message.to, kind: message.kind }, "Mail sent");
      } else {
        const built = await composer.sendMail({
          ...mail,
          headers: { ...mail.headers, [KIND_HEADER]: message.kind },
        });
        const file = await fileInOutbox(deps.outboxDir, message.kind, built.message as Buffer, at);
        // Recipient and subject only: the body holds the links (tokens), which stay in the file.
        deps.logger.info(
          { to: message.to, subject: message.subject, kind: message.kind, file, read: "npm run cli -- outbox latest" },
          "Mail filed in the outbox (SMTP_URL is not set)",
        );
        // A file is no row: the Outbox screens open elsewhere learn of it from this event (issue 19). The mail
        // is filed whether or not the event could be recorded.
        await recordChangeEvent(deps.db, { area: "outbox", action: "insert", id: file, audience: "admins" }, at).catch(
          (error: unknown) => deps.logger.error({ err: error }, "The filed mail's change event was not recorded"),
        );
      }
    } catch (error) {
      const reason = mask(error instanceof Error ? error.message : String(error)) || "Unknown error";
      deps.logger.error({ to: message.to, kind: message.kind, reason }, "Mail could not be delivered");
      try {
        await recordMailFailure(deps.db, {
          recipient: message.to,
          kind: message.kind,
          subject: message.subject,
          reason,
          at,
        });
      } catch (recordError) {
        deps.logger.error(
          { reason: mask(recordError instanceof Error ? recordError.message : String(recordError)) },
          "Could not record a failed mail delivery",
        );
      }
    }
  }

  const settled = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };

  return {
    mode: smtp ? "smtp" : "outbox",
    send(message) {
      const task = turn()
        .then(() => deliver(message))
        .finally(() => {
          done();
          pending.delete(task);
        });
      pending.add(task);
      return Promise.resolve();
    },
    settled,
    async close(timeoutMs = 5_000) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        settled(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
          timer.unref?.();
        }),
      ]);
      clearTimeout(timer);
      smtp?.close();
    },
  };
}

/**
 * Deletes outbox files older than 30 days and failure records older than 30 days: now, and once a day from then
 * on. Returns the function that stops it.
 */
export function startMailHousekeeping(deps: {
  outboxDir: string;
  db: Kysely<Database>;
  logger: MailLogger;
  now?: () => Date;
  intervalMs?: number;
}): () => void {
  const now = deps.now ?? (() => new Date());
  const run = async () => {
    try {
      const removed = await pruneOutbox(deps.outboxDir, now());
      if (removed > 0) deps.logger.info({ removed }, "Old mails removed from the outbox");
      await pruneMailFailures(deps.db, now());
    } catch (error) {
      deps.logger.error({ err: error }, "Cleaning up the outbox failed");
    }
  };
  void run();
  const timer = setInterval(run, deps.intervalMs ?? 24 * 60 * 60 * 1000);
  timer.unref?.();
  return () => clearInterval(timer);
}
