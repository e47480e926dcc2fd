import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { AnnouncedKind } from "#app/db/schema-members.ts";
import { groupIdsOf } from "#app/domains/access/access.server.ts";
import type { Reader } from "#app/domains/access/reader.ts";
import { enqueueJob } from "#app/domains/jobs/job-queue.server.ts";
import { signalJobsQueued } from "#app/domains/jobs/job-signal.server.ts";
import type { JobHandler } from "#app/domains/jobs/job-worker.server.ts";
import type { AppMailService } from "#app/domains/mail/mail.server.ts";
import { isAdmin } from "#app/domains/users/users.server.ts";
import { isLanguage } from "#app/i18n/i18n.ts";
import { albumSource } from "./announced-albums.server.ts";
import { postSource } from "./announced-posts.server.ts";
import type { AnnouncedSource } from "./announced-source.ts";
import { announcementMail } from "./announcement-mail.ts";
import { unsubscribeUrlFor } from "./unsubscribe-token.server.ts";

/*
 * New items announced by e-mail to the members who subscribed (issue 21; docs/decisions/016-who-may-see-what.md).
 * An item is announced once, the first time it is visible: its `announcements` row and the list of its recipients
 * (every subscriber then) are written in one transaction; then each recipient is decided in a transaction of its
 * own that marks the row and, when the account may read the item by the one visibility rule (`readableBy` for that
 * account's reader) and is still subscribed, queues its mail's job. So a retried job, two processes at once or a
 * restart mail no one twice and forget no one, and a post taken back and published again is not announced again.
 *
 * Two ways in, both durable jobs of the job queue: `announceNewItem` after the answer that published an item (at
 * once), and the sweep every minute that finds visible items never announced (a scheduled post whose time came, an
 * announcement whose first enqueue was lost with its process).
 */

/** The one-off job that announces one item; its payload is `{ kind, id }`. */
export const ANNOUNCE_JOB = "subscriptions.announce";
/** The recurring job that finds visible items never announced. */
export const ANNOUNCE_SWEEP_JOB = "subscriptions.sweep";
const SWEEP_EVERY_MS = 60_000;

/** The kinds that can be announced, each with what announcements need of it. */
const SOURCES: Partial<Record<AnnouncedKind, AnnouncedSource>> = { post: postSource, album: albumSource };

export type AnnounceDeps = {
  db: Kysely<Database>;
  /** The mail service: each mail is queued in the transaction that marks its recipient. */
  mail: Pick<AppMailService, "enqueue">;
  /** BASE_URL: the item's and the unsubscribe link's origin. */
  baseUrl: string;
  /** `unsubscribeSecretOf(AUTH_SECRET)`. */
  unsubscribeSecret: string;
  now?: () => Date;
};

/**
 * Asks for `item` to be announced to its subscribers, by a durable job that runs after this returns (the caller's
 * answer need not wait for it): call it once an item has just been published. Announcing an item again, or one not
 * visible yet, does nothing; a job already waiting for the item is not queued twice.
 */
export async function announceNewItem(
  deps: { db: Kysely<Database> },
  item: { kind: AnnouncedKind; id: string },
  now: Date = new Date(),
): Promise<void> {
  await enqueueJob(
    deps.db,
    { kind: ANNOUNCE_JOB, lane: "default", payload: item, dedupeKey: `announce:${item.kind}:${item.id}` },
    now,
  );
  signalJobsQueued();
}

function sourceOf(kind: AnnouncedKind): AnnouncedSource {
  const source = SOURCES[kind];
  if (!source) throw new Error(`Nothing of kind "${kind}" can be announced yet`);
  return source;
}

type Db = Kysely<Database> | Transaction<Database>;

/** The reader an account is for the visibility rule: an admin, or a member with their groups. */
async function readerOfAccount(db: Db, userId: string): Promise<Reader> {
  if (await isAdmin(db as Kysely<Database>, userId)) return { kind: "admin", userId };
  return { kind: "member", userId, groupIds: await groupIdsOf(db, userId) };
}

/** Writes the item's announcement and its recipients, once; false when the item is not out (nothing written). */
async function start(db: Kysely<Database>, kind: AnnouncedKind, id: string, now: Date): Promise<boolean> {
  const source = sourceOf(kind);
  return db.transaction().execute(async (trx) => {
    if (!(await source.isOut(trx, id, now))) return false;
    const inserted = await trx
      .insertInto("announcements")
      .values({ kind, item_id: id, announced_at: now })
      .onConflict((oc) => oc.columns(["kind", "item_id"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return true;
    const subscribers = await trx
      .selectFrom("member_subscriptions")
      .select("user_id")
      .where("kind", "=", kind)
      .execute();
    if (subscribers.length > 0) {
      await trx
        .insertInto("announcement_recipients")
        .values(
          subscribers.map((row) => ({
            kind,
            item_id: id,
            user_id: row.user_id,
            state: "pending" as const,
            decided_at: null,
          })),
        )
        .onConflict((oc) => oc.columns(["kind", "item_id", "user_id"]).doNothing())
        .execute();
    }
    return true;
  });
}

/** Decides one recipient: its mail's job queued (or the row skipped) in one transaction; true when mailed. */
async function decide(
  deps: AnnounceDeps,
  kind: AnnouncedKind,
  id: string,
  userId: string,
  now: Date,
): Promise<boolean> {
  const source = sourceOf(kind);
  return deps.db.transaction().execute(async (trx) => {
    // The mark comes first: it holds the row, so a second process deciding the same recipient finds it decided.
    const claimed = await trx
      .updateTable("announcement_recipients")
      .set({ state: "mailed", decided_at: now })
      .where("kind", "=", kind)
      .where("item_id", "=", id)
      .where("user_id", "=", userId)
      .where("state", "=", "pending")
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows ?? 0) === 0) return false;
    const account = await trx
      .selectFrom("user as u")
      .innerJoin("member_subscriptions as s", (join) => join.onRef("s.user_id", "=", "u.id").on("s.kind", "=", kind))
      .select(["u.email", "u.language"])
      .where("u.id", "=", userId)
      .executeTakeFirst();
    const language = isLanguage(account?.language) ? account.language : "en";
    const readable =
      account !== undefined && (await source.readableBy(trx, id, await readerOfAccount(trx, userId), now));
    const item = readable ? await source.describe(trx, id, language, deps.baseUrl) : null;
    if (!account || !item) {
      await trx
        .updateTable("announcement_recipients")
        .set({ state: "skipped" })
        .where("kind", "=", kind)
        .where("item_id", "=", id)
        .where("user_id", "=", userId)
        .execute();
      return false;
    }
    await deps.mail.enqueue(
      trx,
      announcementMail({
        to: account.email,
        language,
        item: { kind, ...item },
        unsubscribeUrl: unsubscribeUrlFor(deps.baseUrl, deps.unsubscribeSecret, userId, language),
      }),
    );
    return true;
  });
}

/**
 * Announces one item: starts its announcement if it is out and never was, then decides every recipient still
 * pending. Answers how many mails were queued. Safe to run again at any point.
 */
export async function runAnnouncement(deps: AnnounceDeps, kind: AnnouncedKind, id: string): Promise<number> {
  const now = (deps.now ?? (() => new Date()))();
  if (!(await start(deps.db, kind, id, now))) return 0;
  const pending = await deps.db
    .selectFrom("announcement_recipients")
    .select("user_id")
    .where("kind", "=", kind)
    .where("item_id", "=", id)
    .where("state", "=", "pending")
    .orderBy("user_id")
    .execute();
  let mailed = 0;
  for (const row of pending) if (await decide(deps, kind, id, row.user_id, now)) mailed++;
  if (mailed > 0) signalJobsQueued();
  return mailed;
}

/** Announces every item out and never announced, of every kind (the sweep); answers how many mails were queued. */
export async function announceDue(deps: AnnounceDeps): Promise<number> {
  const now = (deps.now ?? (() => new Date()))();
  let mailed = 0;
  for (const [kind, source] of Object.entries(SOURCES) as [AnnouncedKind, AnnouncedSource][]) {
    for (const id of await source.unannounced(deps.db, now, 50)) mailed += await runAnnouncement(deps, kind, id);
  }
  return mailed;
}

function payloadOf(payload: unknown): { kind: AnnouncedKind; id: string } {
  const { kind, id } = (payload ?? {}) as { kind?: unknown; id?: unknown };
  if ((kind === "post" || kind === "album") && typeof id === "string") return { kind, id };
  throw new Error("The announcement job's payload names no item");
}

/** The job handlers for the runtime's registry: the one-off announcement and the sweep. */
export function announcementJobHandlers(deps: AnnounceDeps): Record<string, JobHandler> {
  return {
    [ANNOUNCE_JOB]: {
      lane: "default",
      run: async (payload) => {
        const { kind, id } = payloadOf(payload);
        await runAnnouncement(deps, kind, id);
      },
    },
    [ANNOUNCE_SWEEP_JOB]: {
      lane: "default",
      run: async () => void (await announceDue(deps)),
      every: { firstRunAt: (now) => now, nextRunAt: (now) => new Date(now.getTime() + SWEEP_EVERY_MS) },
    },
  };
}
