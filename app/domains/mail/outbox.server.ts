import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Kysely } from "kysely";
import type { AddressObject } from "mailparser";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";

/**
 * The outbox: without SMTP_URL every mail is filed here instead of being sent, as a row of `outbox_mails`
 * (migration 0020), so that every server process's Outbox screen and the CLI read the same mails. Before that
 * table a mail was an .eml file in DATA_DIR/outbox: such files are moved into the table (`importOutboxFolder`).
 */

/** Mails in the outbox are deleted this long after they were filed. */
export const OUTBOX_KEEP_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The header that tells the Outbox screen what a filed mail was for (only in the outbox, never sent). */
export const KIND_HEADER = "X-Vitrine-Kind";

/** DATA_DIR/outbox: where mails were filed as files before the outbox moved into the database. */
export function outboxDirIn(dataDir: string): string {
  return path.join(dataDir, "outbox");
}

/**
 * A filed mail's id: its time (so ids sort by age), its kind, and some randomness, in the form the outbox's file
 * names had (an imported file keeps its name as its id). The screen and the CLI take it from outside, so only ids
 * of exactly this form are ever looked up.
 */
const OUTBOX_ID = /^\d{8}-\d{6}-\d{3}-[a-z0-9-]{1,40}-[0-9a-f]{8}\.eml$/;

export function isOutboxId(id: string): boolean {
  return OUTBOX_ID.test(id);
}

export function outboxIdFor(kind: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, "").replace("T", "-").replace(".", "-").slice(0, 19);
  const safeKind =
    kind
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "mail";
  return `${stamp}-${safeKind}-${randomBytes(4).toString("hex")}.eml`;
}

export type OutboxEntry = {
  /** The screen's and the CLI's ID of the mail. */
  id: string;
  /** When it was filed (ISO). */
  filedAt: string;
  to: string;
  from: string;
  subject: string;
  kind: string;
  language: string;
};

export type OutboxMail = OutboxEntry & { date: string; text: string; html: string | null };

/** An address header as one line ("Name <a@b>, c@d"); empty when absent. */
function addressLine(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return "";
  return (Array.isArray(value) ? value : [value])
    .flatMap((header) => header.value)
    .map(({ name, address }) => (name ? `${name} <${address ?? ""}>` : (address ?? "")))
    .join(", ");
}

/** Reads a mail's text with mailparser (nodemailer's own parser: MIME parts, encodings, encoded headers). */
async function parseMail(raw: string | Buffer) {
  // Nothing of the mail is turned into links or HTML: it is shown as it was filed.
  // Loaded on the first mail read (about 10 MB resident that a process showing none does not carry).
  const { simpleParser } = await import("mailparser");
  const parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
  const header = (key: string) => {
    const value = parsed.headers.get(key.toLowerCase());
    return typeof value === "string" ? value : "";
  };
  return {
    to: addressLine(parsed.to),
    from: addressLine(parsed.from),
    subject: parsed.subject ?? "",
    kind: header(KIND_HEADER),
    language: header("Content-Language"),
    date: parsed.date?.toUTCString() ?? "",
    text: parsed.text ?? "",
    html: typeof parsed.html === "string" ? parsed.html : null,
  };
}

/**
 * Files one mail (its complete RFC 822 text) under `id`. True when filed; false when a mail of that id is there
 * already: a delivery tried again after its process died between filing and finishing files nothing twice.
 */
export async function fileInOutbox(
  db: Kysely<Database>,
  mail: { id: string; raw: string | Buffer; filedAt: Date },
): Promise<boolean> {
  const raw = typeof mail.raw === "string" ? mail.raw : mail.raw.toString("utf8");
  const headers = await parseMail(raw);
  const result = await db
    .insertInto("outbox_mails")
    .values({
      id: mail.id,
      kind: headers.kind.slice(0, 60),
      recipient: headers.to,
      sender: headers.from,
      subject: headers.subject,
      language: headers.language.slice(0, 20),
      filed_at: mail.filedAt,
      raw,
    })
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The newest `limit` mails in the outbox, newest first, and how many there are in all. */
export async function listOutbox(
  db: Kysely<Database>,
  limit = 200,
): Promise<{ entries: OutboxEntry[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("outbox_mails")
      .select(["id", "kind", "recipient", "sender", "subject", "language", "filed_at"])
      .orderBy("filed_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .execute(),
    db
      .selectFrom("outbox_mails")
      .select((eb) => eb.fn.countAll().as("total"))
      .executeTakeFirst(),
  ]);
  const entries = rows.map((row) => ({
    id: row.id,
    filedAt: toIsoString(row.filed_at),
    to: row.recipient,
    from: row.sender,
    subject: row.subject,
    kind: row.kind,
    language: row.language,
  }));
  return { entries, total: Number(count?.total ?? 0) };
}

/** One filed mail with its headers and both parts; undefined for an id that names no filed mail. */
export async function readOutboxMail(db: Kysely<Database>, id: string): Promise<OutboxMail | undefined> {
  if (!isOutboxId(id)) return undefined;
  const row = await db
    .selectFrom("outbox_mails")
    .select(["id", "kind", "filed_at", "raw"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { to, from, subject, language, date, text, html } = await parseMail(row.raw);
  return {
    id: row.id,
    filedAt: toIsoString(row.filed_at),
    to,
    from,
    subject,
    kind: row.kind,
    language,
    date,
    text,
    html,
  };
}

/** Deletes the mails filed more than OUTBOX_KEEP_DAYS ago; returns how many. */
export async function pruneOutbox(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("outbox_mails")
    .where("filed_at", "<", new Date(now.getTime() - OUTBOX_KEEP_DAYS * DAY_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

/**
 * Moves the mails of the outbox folder this process's DATA_DIR had before the outbox moved into the database:
 * each file becomes a row under its name (filed at the file's time), then goes. A file is removed only once its
 * row is stored, and a second run stores nothing twice (the name is the key), so a stop in between loses nothing.
 * Files of more than OUTBOX_KEEP_DAYS go unread, as housekeeping would have deleted them; so do the temporary
 * files an interrupted write left. Returns how many mails moved.
 */
export async function importOutboxFolder(db: Kysely<Database>, outboxDir: string, now: Date): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(outboxDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  const cutoff = now.getTime() - OUTBOX_KEEP_DAYS * DAY_MS;
  let moved = 0;
  for (const name of names) {
    const file = path.join(outboxDir, name);
    if (isOutboxId(name)) {
      const [raw, stat] = await Promise.all([fs.readFile(file), fs.stat(file)]);
      if (stat.mtime.getTime() >= cutoff) {
        await fileInOutbox(db, { id: name, raw, filedAt: stat.mtime });
        moved++;
      }
      await fs.rm(file, { force: true });
    } else if (name.endsWith(".tmp")) {
      await fs.rm(file, { force: true });
    }
  }
  // The folder goes once it is empty; anything else put there by hand stays, and so does the folder.
  await fs.rmdir(outboxDir).catch(() => {});
  return moved;
}
