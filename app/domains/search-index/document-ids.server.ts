import type { Kysely, Transaction } from "kysely";
import type { Database, DbDate } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";

/*
 * The index's row ids follow its items' dates (migration 0022, docs/decisions/015-search.md "Bounded work"): the
 * date in milliseconds × ID_SLOTS plus the first free slot of that millisecond. A search wants the newest matches
 * first and stops at its limit; with these ids that is the full-text index's own order (FTS5 walks rowids, and
 * PostgreSQL the primary key), so a common word costs the limit, not every item that holds it.
 * Below 2^53 until the year 2255: a JavaScript number holds every id exactly.
 */

/** Rows one millisecond can hold (an item has one row per language: 512 items of the same millisecond). */
export const ID_SLOTS = 1024;

type Db = Kysely<Database> | Transaction<Database>;

/** The term every row of a kind and language begins with: a query keeps letters and digits, so it makes none. */
export function scopeTerm(kind: string, lang: string): string {
  return `_k${kind}_${lang}`;
}

/** The first id of an item's date (its publication for a post, else its creation). */
export function firstIdOf(date: DbDate): number {
  return Date.parse(toIsoString(date)) * ID_SLOTS;
}

/**
 * Hands out ids for new rows: the first slot of each row's millisecond that neither the table nor this allocator
 * has given. Call `allocate` after deleting the rows being replaced (their ids are free again). Two transactions of
 * two instances indexing items of one millisecond at once could pick one id; the later insert then fails and its
 * write is refused, to be tried again (as rare as two uploads in one millisecond).
 */
export class DocumentIds {
  private readonly taken = new Set<number>();

  /** `known`: the table was emptied in this transaction (a rebuild): only this allocator's ids are taken. */
  constructor(private readonly known = false) {}

  async allocate(db: Db, firstIds: number[]): Promise<number[]> {
    if (!this.known && firstIds.length > 0) await this.readTaken(db, firstIds);
    return firstIds.map((first) => {
      let id = first;
      while (this.taken.has(id)) id++;
      this.taken.add(id);
      return id;
    });
  }

  /** Marks the ids the table holds in these rows' milliseconds (one range per distinct millisecond). */
  private async readTaken(db: Db, firstIds: number[]): Promise<void> {
    for (const first of new Set(firstIds)) {
      const rows = await db
        .selectFrom("search_documents")
        .select("id")
        .where("id", ">=", first)
        .where("id", "<", first + ID_SLOTS)
        .execute();
      // PostgreSQL hands a bigint back as text.
      for (const row of rows) this.taken.add(Number(row.id));
    }
  }
}
