import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";

/** Who did it: the signed-in admin as the request resolved them. */
export type AuditActor = { id: string; email: string };

/** The operator at the command line (`npm run cli`): who they are is the machine's business, not the site's. */
export const CLI_ACTOR: AuditActor = { id: "cli", email: "command line" };

export type AuditEntry = {
  /** `<area>.<verb>`, e.g. `settings.update`, `invites.create`, `links.delete`. */
  action: string;
  /** What was changed: a setting key, an invite code, a user's e-mail, a content item's title. */
  target: string;
  oldValue?: string | null;
  newValue?: string | null;
};

export type AuditRecord = {
  id: number;
  /** The account's id, or `cli` for the command line (CLI_ACTOR). */
  actorId: string;
  actorEmail: string;
  action: string;
  target: string;
  oldValue: string | null;
  newValue: string | null;
  createdAt: string;
};

/** Values longer than this are recorded as cut, so the log stays a log and not a copy of every text. */
export const AUDIT_VALUE_MAX = 500;

function shortValue(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.length > AUDIT_VALUE_MAX ? `${value.slice(0, AUDIT_VALUE_MAX)}…` : value;
}

/**
 * Records one admin write. Pass the transaction that makes the change, so that the record
 * and the change are committed together or not at all.
 */
export async function recordAudit(
  db: Kysely<Database> | Transaction<Database>,
  actor: AuditActor,
  entries: AuditEntry | AuditEntry[],
): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  const now = new Date();
  await db
    .insertInto("audit_log")
    .values(
      list.map((entry) => ({
        actor_id: actor.id,
        actor_email: actor.email,
        action: entry.action,
        target: entry.target.slice(0, AUDIT_VALUE_MAX),
        old_value: shortValue(entry.oldValue),
        new_value: shortValue(entry.newValue),
        created_at: now,
      })),
    )
    .execute();
}

/**
 * Records `entry`, or, when `extend` names an entry this actor recorded with the same action, rewrites that one
 * (texts and time) instead. For a run of automatic saves of one thing: one entry for the run, not one per save.
 * Answers the id of the entry written.
 */
export async function recordOrExtendAudit(
  trx: Transaction<Database>,
  actor: AuditActor,
  entry: AuditEntry,
  extend: number | null,
): Promise<number> {
  const values = {
    target: entry.target.slice(0, AUDIT_VALUE_MAX),
    old_value: shortValue(entry.oldValue),
    new_value: shortValue(entry.newValue),
    created_at: new Date(),
  };
  if (extend !== null) {
    const updated = await trx
      .updateTable("audit_log")
      .set(values)
      .where("id", "=", extend)
      .where("actor_id", "=", actor.id)
      .where("action", "=", entry.action)
      .executeTakeFirst();
    if (updated.numUpdatedRows > 0n) return extend;
  }
  const row = await trx
    .insertInto("audit_log")
    .values({ ...values, actor_id: actor.id, actor_email: actor.email, action: entry.action })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The newest records first, a page at a time. */
export async function listAudit(
  db: Kysely<Database>,
  options: { limit?: number; offset?: number; action?: string } = {},
): Promise<{ records: AuditRecord[]; total: number }> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
  const offset = Math.max(options.offset ?? 0, 0);
  let query = db.selectFrom("audit_log");
  if (options.action) query = query.where("action", "like", `${options.action}%`);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as("total")).executeTakeFirst(),
  ]);
  return {
    total: Number(count?.total ?? 0),
    records: rows.map((row) => ({
      id: Number(row.id),
      actorId: row.actor_id,
      actorEmail: row.actor_email,
      action: row.action,
      target: row.target,
      oldValue: row.old_value,
      newValue: row.new_value,
      createdAt: toIsoString(row.created_at),
    })),
  };
}
