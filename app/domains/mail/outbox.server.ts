import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { type AddressObject, simpleParser } from "mailparser";

/** Mails in the outbox are deleted this long after they were filed. */
export const OUTBOX_KEEP_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The header that tells the Outbox screen what a filed mail was for (only in outbox files, never sent). */
export const KIND_HEADER = "X-Vitrine-Kind";

/** DATA_DIR/outbox. */
export function outboxDirIn(dataDir: string): string {
  return path.join(dataDir, "outbox");
}

/**
 * A filed mail's name: its time (so names sort by age), its kind, and some randomness. The Outbox screen takes
 * it from the address, so only names of exactly this form are ever opened.
 */
const FILE_NAME = /^\d{8}-\d{6}-\d{3}-[a-z0-9-]{1,40}-[0-9a-f]{8}\.eml$/;

export function isOutboxFileName(name: string): boolean {
  return FILE_NAME.test(name);
}

function fileNameFor(kind: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, "").replace("T", "-").replace(".", "-").slice(0, 19);
  const safeKind =
    kind
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "mail";
  return `${stamp}-${safeKind}-${randomBytes(4).toString("hex")}.eml`;
}

/**
 * Files one mail (its complete RFC 822 text) and returns the file's name. Written aside and renamed, so that
 * the screen never lists half a file; 0600 like everything under DATA_DIR, whatever the umask.
 */
export async function fileInOutbox(outboxDir: string, kind: string, raw: Buffer, at: Date): Promise<string> {
  await fs.mkdir(outboxDir, { recursive: true, mode: 0o700 });
  const name = fileNameFor(kind, at);
  const temporary = path.join(outboxDir, `.${name}.${process.pid}.tmp`);
  await fs.writeFile(temporary, raw, { mode: 0o600, flag: "wx" });
  await fs.rename(temporary, path.join(outboxDir, name));
  return name;
}

export type OutboxEntry = {
  /** The file's name, which is also its id on the Outbox screen. */
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

/** Reads a filed mail back with mailparser (nodemailer's own parser: MIME parts, encodings, encoded headers). */
async function readOutboxFile(outboxDir: string, name: string) {
  const file = path.join(outboxDir, name);
  const [raw, stat] = await Promise.all([fs.readFile(file), fs.stat(file)]);
  // Nothing of the mail is turned into links or HTML: it is shown as it was filed.
  const parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
  const header = (key: string) => {
    const value = parsed.headers.get(key.toLowerCase());
    return typeof value === "string" ? value : "";
  };
  const entry: OutboxEntry = {
    id: name,
    filedAt: stat.mtime.toISOString(),
    to: addressLine(parsed.to),
    from: addressLine(parsed.from),
    subject: parsed.subject ?? "",
    kind: header(KIND_HEADER),
    language: header("Content-Language"),
  };
  const content = { text: parsed.text ?? null, html: typeof parsed.html === "string" ? parsed.html : null };
  return { entry, parsed: content, date: parsed.date?.toUTCString() ?? "" };
}

/** The names of the filed mails, newest first. */
async function outboxNames(outboxDir: string): Promise<string[]> {
  try {
    const names = await fs.readdir(outboxDir);
    return names.filter(isOutboxFileName).sort().reverse();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** The newest `limit` mails in the outbox, newest first, and how many there are in all. */
export async function listOutbox(outboxDir: string, limit = 200): Promise<{ entries: OutboxEntry[]; total: number }> {
  const names = await outboxNames(outboxDir);
  const entries: OutboxEntry[] = [];
  for (const name of names.slice(0, limit)) {
    try {
      entries.push((await readOutboxFile(outboxDir, name)).entry);
    } catch (error) {
      // Pruned (or removed by hand) between the listing and the reading.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return { entries, total: names.length };
}

/** One filed mail with its headers and both parts; undefined for a name that is not a filed mail. */
export async function readOutboxMail(outboxDir: string, name: string): Promise<OutboxMail | undefined> {
  if (!isOutboxFileName(name)) return undefined;
  try {
    const { entry, parsed, date } = await readOutboxFile(outboxDir, name);
    return { ...entry, date, text: parsed.text ?? "", html: parsed.html };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Deletes the mails filed more than OUTBOX_KEEP_DAYS ago (by the file's time); returns how many. */
export async function pruneOutbox(outboxDir: string, now: Date): Promise<number> {
  const cutoff = now.getTime() - OUTBOX_KEEP_DAYS * DAY_MS;
  let removed = 0;
  let names: string[];
  try {
    names = await fs.readdir(outboxDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  for (const name of names) {
    // Filed mails, and temporary files a crash left behind.
    if (!isOutboxFileName(name) && !name.endsWith(".tmp")) continue;
    const file = path.join(outboxDir, name);
    try {
      const stat = await fs.stat(file);
      if (stat.isFile() && stat.mtime.getTime() < cutoff) {
        await fs.unlink(file);
        removed++;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return removed;
}
