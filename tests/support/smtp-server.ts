import type { Kysely } from "kysely";
import { type AddressObject, type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { Database } from "#app/db/schema.ts";
import { noteSecret } from "./secret-ledger.ts";

/** A mail as a test sees it: parsed with mailparser, as a mail program would. */
export type ReceivedMail = {
  /** The sender's display name (the site name) and address. */
  from: { name: string; address: string };
  /** Every recipient address in To. */
  to: string[];
  subject: string;
  text: string;
  /** The HTML part as sent (null when there is none). */
  html: string | null;
  /** Content-Language, e.g. "de". */
  language: string | null;
  /** Every header, lower-cased names, as mailparser reads them. */
  headers: ParsedMail["headers"];
  /** Every header as sent, one line each (folded lines joined): mailparser merges some, e.g. List-* into `list`. */
  headerLines: { key: string; line: string }[];
  /** The addresses of the SMTP envelope (only for mails received over SMTP). */
  envelope?: { from: string; to: string[] };
  /** Whether it came over TLS (STARTTLS or smtps://; only for mails received over SMTP). */
  secure?: boolean;
};

export type TestSmtpServer = {
  port: number;
  /** The SMTP_URL to give the server: `smtp://user:password@127.0.0.1:port` with auth, else without (smtps:// for implicit TLS). */
  url: string;
  /** Every mail accepted so far, oldest first. */
  mails: ReceivedMail[];
  /** The first mail (received so far or within `timeoutMs`) that `predicate` accepts. */
  waitForMail: (predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  /**
   * From now on, refuse every message with `reason` (550, a lasting refusal, unless another `responseCode` is
   * given: 451 says "try again later"), or accept them again (false).
   */
  rejectMessages: (reason: string | false, responseCode?: number) => void;
  /** How many messages were refused so far. */
  readonly refused: number;
  /** Forgets the mails received so far. */
  clear: () => void;
  close: () => Promise<void>;
};

function addresses(value: AddressObject | AddressObject[] | undefined): { name: string; address: string }[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.flatMap((entry) => entry.value.map((item) => ({ name: item.name, address: item.address ?? "" })));
}

function received(parsed: ParsedMail): ReceivedMail {
  const from = addresses(parsed.from)[0] ?? { name: "", address: "" };
  const language = parsed.headers.get("content-language");
  return {
    from,
    to: addresses(parsed.to).map((item) => item.address),
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
    html: typeof parsed.html === "string" ? parsed.html : null,
    language: typeof language === "string" ? language : null,
    headers: parsed.headers,
    headerLines: parsed.headerLines.map(({ key, line }) => ({ key, line: line.replace(/\r?\n[ \t]+/g, " ") })),
  };
}

/** A certificate and its key (PEM) for a TLS server. */
export type TlsIdentity = { key: string; cert: string };

/**
 * A real SMTP server on a free port of 127.0.0.1. Plain SMTP without `tls`; with it, STARTTLS (`implicit`
 * false: the server refuses a sender before the client has switched to TLS) or TLS from the first byte
 * (`implicit`, an `smtps://` URL). With `auth`, clients must log in with that user and password (they are in
 * `url`; the password is noted in the secret ledger, so a server that logs it fails the run); without, no
 * login is offered. `reject` starts it refusing messages.
 */
export async function startSmtpServer(
  options: {
    auth?: { user: string; password: string };
    reject?: string;
    tls?: TlsIdentity & { implicit: boolean };
  } = {},
): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let rejectReason: string | false = options.reject ?? false;
  let rejectCode = 550;
  let refused = 0;
  if (options.auth) noteSecret(options.auth.password);

  const tls = options.tls;
  const server = new SMTPServer({
    secure: tls?.implicit ?? false,
    ...(tls ? { key: tls.key, cert: tls.cert } : {}),
    logger: false,
    disabledCommands: [...(tls ? [] : ["STARTTLS"]), ...(options.auth ? [] : ["AUTH"])],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.password) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error("Invalid username or password"));
      }
    },
    onMailFrom(_address, session, callback) {
      if (tls && !session.secure) {
        const error = new Error("Must issue a STARTTLS command first") as Error & { responseCode: number };
        error.responseCode = 530;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if (rejectReason !== false) {
            refused++;
            const error = new Error(rejectReason) as Error & { responseCode: number };
            error.responseCode = rejectCode;
            callback(error);
            return;
          }
          const envelopeFrom = session.envelope.mailFrom;
          mails.push({
            ...received(parsed),
            envelope: {
              from: envelopeFrom ? envelopeFrom.address : "",
              to: session.envelope.rcptTo.map((item) => item.address),
            },
            secure: session.secure,
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  server.on("error", () => {
    // A client that drops its connection is not the test's problem; the test sees what was (not) received.
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as { port: number };
  const credentials = options.auth
    ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.password)}@`
    : "";

  return {
    port,
    url: `${tls?.implicit ? "smtps" : "smtp"}://${credentials}127.0.0.1:${port}`,
    mails,
    waitForMail(predicate = () => true, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = mails.find(predicate);
          if (!mail) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(mail);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No matching mail arrived within ${timeoutMs} ms (${mails.length} received)`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    rejectMessages(reason, responseCode = 550) {
      rejectReason = reason;
      rejectCode = responseCode;
    },
    get refused() {
      return refused;
    },
    clear() {
      mails.length = 0;
    },
    close() {
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The ids of the outbox's mails (outbox_mails, migration 0020), newest first, as the Outbox screen lists them. */
export async function outboxIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom("outbox_mails")
    .select("id")
    .orderBy("filed_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => row.id);
}

/** One outbox mail, parsed with mailparser from the RFC 822 text the outbox keeps. */
export async function readOutboxRow(db: Kysely<Database>, id: string): Promise<ReceivedMail & { id: string }> {
  const row = await db.selectFrom("outbox_mails").select("raw").where("id", "=", id).executeTakeFirstOrThrow();
  return { ...received(await simpleParser(row.raw)), id };
}

/**
 * The newest outbox mail of the database `db` that `predicate` accepts, waiting up to `timeoutMs` for it: mails
 * are filed in the background, a moment after the answer that sent them.
 */
export async function readNewestOutboxMail(
  db: Kysely<Database>,
  predicate: (mail: ReceivedMail) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<ReceivedMail & { id: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const id of await outboxIds(db)) {
      const mail = await readOutboxRow(db, id);
      if (predicate(mail)) return mail;
    }
    if (Date.now() > deadline) throw new Error(`No matching outbox mail within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
