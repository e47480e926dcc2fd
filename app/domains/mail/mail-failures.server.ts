import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A failure shows on the dashboard this long, unless dismissed earlier. */
export const FAILURE_SHOWN_DAYS = 7;
/** And is deleted this long after it happened. */
export const FAILURE_KEEP_DAYS = 30;

const REASON_MAX = 500;

export type MailFailure = {
  id: number;
  recipient: string;
  kind: string;
  subject: string;
  reason: string;
  createdAt: string;
};

export async function recordMailFailure(
  db: Kysely<Database>,
  failure: { recipient: string; kind: string; subject: string; reason: string; at: Date },
): Promise<void> {
  await db
    .insertInto("mail_failures")
    .values({
      recipient: failure.recipient.slice(0, 320),
      kind: failure.kind.slice(0, 60),
      subject: failure.subject.slice(0, 300),
      reason: failure.reason.slice(0, REASON_MAX),
      created_at: failure.at,
    })
    .execute();
}

/** The failures of the last FAILURE_SHOWN_DAYS that no admin dismissed, newest first. */
export async function listRecentMailFailures(db: Kysely<Database>, now: Date, limit = 20): Promise<MailFailure[]> {
  const since = new Date(now.getTime() - FAILURE_SHOWN_DAYS * DAY_MS);
  const rows = await db
    .selectFrom("mail_failures")
    .select(["id", "recipient", "kind", "subject", "reason", "created_at"])
    .where("dismissed_at", "is", null)
    .where("created_at", ">=", since)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    recipient: row.recipient,
    kind: row.kind,
    subject: row.subject,
    reason: row.reason,
    createdAt: toIsoString(row.created_at),
  }));
}

/** Hides every failure shown so far from the dashboard; returns how many. */
export async function dismissMailFailures(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db
    .updateTable("mail_failures")
    .set({ dismissed_at: now })
    .where("dismissed_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}

export async function pruneMailFailures(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("mail_failures")
    .where("created_at", "<", new Date(now.getTime() - FAILURE_KEEP_DAYS * DAY_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

/** The dashboard's "dismiss": hides the notices shown so far, recorded in the audit log. */
export async function dismissMailFailuresAsAdmin(db: Kysely<Database>, actor: AuditActor, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const count = await dismissMailFailures(trx, now);
    if (count > 0) {
      await recordAudit(trx, actor, {
        action: "mail.dismiss-failures",
        target: "mail_failures",
        newValue: String(count),
      });
    }
    return count;
  });
}
