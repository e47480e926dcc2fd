import { randomUUID } from "node:crypto";
import type { Kysely, Selectable, Transaction } from "kysely";
import type { z } from "zod";
import { nextSortOrder, ReorderError, reorderRows } from "#app/db/ordering.server.ts";
import type { Database, DbBoolean, DbDate } from "#app/db/schema.ts";
import { toBoolean, toIsoString } from "#app/db/values.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { describeReorder } from "#app/domains/audit/audit-moves.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { indexItems, type SearchDocumentKind } from "#app/domains/search-index/search-index.server.ts";
import { fieldErrorsOf } from "#app/lib/field-errors.ts";
import { getLogger } from "#app/lib/logger.server.ts";

/** The hand-ordered content tables with an active flag that the links, FAQ and video screens edit. */
export type ContentTable = "links" | "faq_entries" | "videos";
/** Each table's kind in the search index, kept in the transaction of every write of its text. */
const SEARCH_KIND: Record<ContentTable, SearchDocumentKind> = { links: "link", faq_entries: "faq", videos: "video" };
export type ContentRow<T extends ContentTable> = Selectable<Database[T]>;
type Db = Kysely<Database> | Transaction<Database>;

/** What a content write answers; the admin route turns it into a translated `ActionResult`. */
export type ContentResult =
  | { ok: true; id: string; target: string }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string> }
  | { ok: false; reason: "not-found" | "stale" };

/** The columns every content item has besides its own fields: position, active flag and change times. */
export type ContentMeta = { id: string; sortOrder: number; active: boolean; createdAt: string; updatedAt: string };

/** The columns the three tables share. */
type CommonColumns = { id: string; sort_order: number; active: DbBoolean; created_at: DbDate; updated_at: DbDate };

export function contentMeta(row: CommonColumns): ContentMeta {
  return {
    id: row.id,
    sortOrder: Number(row.sort_order),
    active: toBoolean(row.active),
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
  };
}

export type ContentConfig<T extends ContentTable, Input extends { active: boolean }> = {
  table: T;
  /** The audit area: `<area>.create`, `<area>.update`, … */
  area: "links" | "faq" | "videos";
  schema: z.ZodType<Input, Record<string, unknown>>;
  /** The table's own columns for a valid input (not id, order, active flag or times). */
  columns: (input: Input) => Record<string, unknown>;
  /** The item's name in the audit log. */
  target: (row: ContentRow<T>) => string;
  /** The recorded old and new value of an update: the item's own fields, as text. */
  describe: (row: ContentRow<T>) => string;
  /**
   * Runs in the delete's transaction after the row is gone (to delete rows it owned); the function it
   * answers runs once that transaction has committed (to remove files, which no rollback could restore).
   */
  onDelete?: (trx: Transaction<Database>, row: ContentRow<T>, storage: FileStorage) => Promise<() => Promise<void>>;
};

/**
 * Create, update, delete, reorder and activate for one content table, each as one transaction that
 * records its audit entry with the change. Input is checked by the table's zod schema first; refused
 * input changes nothing. The three content areas share this instead of three copies of the same flow.
 */
export function contentService<T extends ContentTable, Input extends { active: boolean }>(
  config: ContentConfig<T, Input>,
) {
  // The three tables share the columns used here; Kysely cannot type a query over a union of tables.
  const table = config.table as "links";
  const asRow = (row: unknown) => row as ContentRow<T>;

  async function find(db: Db, id: string): Promise<ContentRow<T> | undefined> {
    const row = await db.selectFrom(table).selectAll().where("id", "=", id).executeTakeFirst();
    return row ? asRow(row) : undefined;
  }

  return {
    /** Every row in display order, inactive ones too (for the admin list). */
    async listAll(db: Db): Promise<ContentRow<T>[]> {
      const rows = await db.selectFrom(table).selectAll().orderBy("sort_order").orderBy("created_at").execute();
      return rows.map(asRow);
    },

    /** Active rows in display order (for the public pages). */
    async listActive(db: Db): Promise<ContentRow<T>[]> {
      const rows = await db
        .selectFrom(table)
        .selectAll()
        .where("active", "=", true)
        .orderBy("sort_order")
        .orderBy("created_at")
        .execute();
      return rows.map(asRow);
    },

    find,

    /** Checks the input without writing: a form's answer before anything else (an upload) is stored. */
    validate(
      fields: Record<string, unknown>,
    ): { ok: true; input: Input } | { ok: false; fieldErrors: Record<string, string> } {
      const parsed = config.schema.safeParse(fields);
      return parsed.success
        ? { ok: true, input: parsed.data }
        : { ok: false, fieldErrors: fieldErrorsOf(parsed.error) };
    },

    async create(
      db: Kysely<Database>,
      actor: AuditActor,
      fields: Record<string, unknown>,
      extra: Record<string, unknown> = {},
      /** Writes rows the new one refers to (an uploaded poster's image) in the same transaction. */
      prepare?: (trx: Transaction<Database>) => Promise<Record<string, unknown>>,
    ): Promise<ContentResult> {
      const parsed = config.schema.safeParse(fields);
      if (!parsed.success) return { ok: false, reason: "invalid", fieldErrors: fieldErrorsOf(parsed.error) };
      const id = randomUUID();
      const now = new Date();
      return db.transaction().execute(async (trx) => {
        const prepared = prepare ? await prepare(trx) : {};
        await trx
          .insertInto(table)
          .values({
            ...config.columns(parsed.data),
            ...extra,
            ...prepared,
            id,
            active: parsed.data.active,
            sort_order: await nextSortOrder(trx, config.table),
            created_at: now,
            updated_at: now,
          } as never)
          .execute();
        await indexItems(trx, SEARCH_KIND[config.table], [id]);
        const row = (await find(trx, id)) as ContentRow<T>;
        const target = config.target(row);
        await recordAudit(trx, actor, { action: `${config.area}.create`, target, newValue: config.describe(row) });
        return { ok: true, id, target };
      });
    },

    async update(
      db: Kysely<Database>,
      actor: AuditActor,
      id: string,
      fields: Record<string, unknown>,
      extra: Record<string, unknown> = {},
    ): Promise<ContentResult> {
      const parsed = config.schema.safeParse(fields);
      if (!parsed.success) return { ok: false, reason: "invalid", fieldErrors: fieldErrorsOf(parsed.error) };
      return db.transaction().execute(async (trx) => {
        const before = await find(trx, id);
        if (!before) return { ok: false, reason: "not-found" };
        await trx
          .updateTable(table)
          .set({
            ...config.columns(parsed.data),
            ...extra,
            active: parsed.data.active,
            updated_at: new Date(),
          } as never)
          .where("id", "=", id)
          .execute();
        await indexItems(trx, SEARCH_KIND[config.table], [id]);
        const after = (await find(trx, id)) as ContentRow<T>;
        const target = config.target(after);
        await recordAudit(trx, actor, {
          action: `${config.area}.update`,
          target,
          oldValue: config.describe(before),
          newValue: config.describe(after),
        });
        return { ok: true, id, target };
      });
    },

    async remove(db: Kysely<Database>, actor: AuditActor, id: string, storage: FileStorage): Promise<ContentResult> {
      let afterCommit = async () => {};
      const result = await db.transaction().execute(async (trx): Promise<ContentResult> => {
        const row = await find(trx, id);
        if (!row) return { ok: false, reason: "not-found" };
        await trx.deleteFrom(table).where("id", "=", id).execute();
        await indexItems(trx, SEARCH_KIND[config.table], [id]);
        if (config.onDelete) afterCommit = await config.onDelete(trx, row, storage);
        const target = config.target(row);
        await recordAudit(trx, actor, { action: `${config.area}.delete`, target, oldValue: config.describe(row) });
        return { ok: true, id, target };
      });
      if (result.ok) {
        // The delete is committed: a file that cannot be removed now must not turn it into an error. The
        // start-up sweeps remove what is left.
        try {
          await afterCommit();
        } catch (error) {
          getLogger().warn({ err: error, area: config.area, id }, "Could not remove the files of a deleted entry");
        }
      }
      return result;
    },

    async setActive(db: Kysely<Database>, actor: AuditActor, id: string, active: boolean): Promise<ContentResult> {
      return db.transaction().execute(async (trx) => {
        const row = await find(trx, id);
        if (!row) return { ok: false, reason: "not-found" };
        await trx.updateTable(table).set({ active, updated_at: new Date() }).where("id", "=", id).execute();
        const target = config.target(row);
        await recordAudit(trx, actor, {
          action: `${config.area}.${active ? "activate" : "deactivate"}`,
          target,
          oldValue: String(contentMeta(row as unknown as CommonColumns).active),
          newValue: String(active),
        });
        return { ok: true, id, target };
      });
    },

    async reorder(db: Kysely<Database>, actor: AuditActor, ids: string[]): Promise<ContentResult> {
      try {
        return await db.transaction().execute(async (trx) => {
          const before = await trx.selectFrom(table).selectAll().orderBy("sort_order").orderBy("created_at").execute();
          await reorderRows(trx, config.table, ids);
          // Named by the moved item's title at the time ("moved “Alpine lake” up"), never by ids.
          const titles = new Map(before.map((row) => [row.id, config.target(asRow(row))]));
          const move = describeReorder(
            before.map((row) => row.id),
            ids,
            (id) => titles.get(id) ?? "",
          );
          await recordAudit(trx, actor, { action: `${config.area}.reorder`, ...move });
          return { ok: true, id: "", target: config.table };
        });
      } catch (error) {
        if (error instanceof ReorderError) return { ok: false, reason: "stale" };
        throw error;
      }
    },
  };
}

/** The visitor's language version of a text: German when there is one, else English. */
export function localized(english: string, german: string, lang: "en" | "de"): string {
  return lang === "de" && german.trim() !== "" ? german : english;
}
