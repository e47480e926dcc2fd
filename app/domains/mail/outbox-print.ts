import type { OutboxEntry, OutboxMail } from "./outbox.server.ts";

/**
 * A filed mail as `npm run cli -- outbox show|latest` prints it: the headers a person needs, then the text part
 * decoded. The file itself is quoted-printable, where a long link is cut by `=` line ends and its `=` written
 * `=3D`; printed decoded, a link is whole on one line and works when copied.
 */
export function formatOutboxMail(mail: OutboxMail): string {
  const text = mail.text.replace(/\r\n/g, "\n").trimEnd();
  return [
    `From: ${mail.from}`,
    `To: ${mail.to}`,
    `Subject: ${mail.subject}`,
    `Date: ${mail.date}`,
    `ID: ${mail.id}`,
    "",
    text || "(This mail has no text part: read it in Admin → Outbox.)",
    "",
  ].join("\n");
}

/** The outbox as a table, newest first: the ID (what `outbox show` and Admin → Outbox take), when, to whom, what. */
export function formatOutboxList(entries: OutboxEntry[]): string {
  const rows = [
    ["ID", "FILED", "TO", "SUBJECT"],
    ...entries.map((entry) => [
      entry.id,
      `${entry.filedAt.slice(0, 16).replace("T", " ")} UTC`,
      entry.to,
      entry.subject,
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return `${rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")}\n`;
}
