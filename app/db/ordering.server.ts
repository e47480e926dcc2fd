import type { Kysely, Transaction } from "kysely";
import type { Database } from "./schema.ts";

/** Tables whose rows an admin orders by hand. */
export type OrderedTable = "gallery_images" | "links" | "faq_entries" | "videos" | "albums";

/** The position after the last row, for a new row that should appear at the end. */
export async function nextSortOrder(
  db: Kysely<Database> | Transaction<Database>,
  table: OrderedTable,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max<number | null>("sort_order").as("last"))
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

export class ReorderError extends Error {
  override name = "ReorderError";
}

/**
 * Stores a new order: `ids` must name every row of the table exactly once (so two admins
 * reordering at once cannot lose a row between them). Runs in one transaction.
 */
export async function reorderRows(
  db: Kysely<Database> | Transaction<Database>,
  table: OrderedTable,
  ids: string[],
): Promise<void> {
  const run = async (trx: Transaction<Database>) => {
    const existing = await trx.selectFrom(table).select("id").execute();
    const known = new Set(existing.map((row) => row.id));
    if (ids.length !== known.size || new Set(ids).size !== ids.length || !ids.every((id) => known.has(id))) {
      throw new ReorderError("The list has changed in the meantime; reload the page and try again.");
    }
    // Rows are written in id order, whatever the new order: two reorders at once then lock rows in the same
    // order and wait for each other on PostgreSQL instead of deadlocking.
    const position = new Map(ids.map((id, index) => [id, index]));
    for (const id of [...ids].sort()) {
      await trx
        .updateTable(table)
        .set({ sort_order: position.get(id) ?? 0 })
        .where("id", "=", id)
        .execute();
    }
  };
  if (db.isTransaction) await run(db as Transaction<Database>);
  else await db.transaction().execute(run);
}
