import type { Kysely, Transaction } from "kysely";
import type { Database, DbDate } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import type { Language } from "#app/i18n/i18n.ts";

/*
 * The index's row ids say the row's kind and language, then its item's date (migrations 0022 and 0028,
 * docs/decisions/015-search.md "Bounded work"): the scope (kind and language) times SCOPE_SPAN, plus the date in
 * milliseconds × ID_SLOTS, plus the first free slot of that millisecond. A search wants the newest matches of one
 * kind and language first and stops at its limit: that is the highest ids of one range, which each full-text index
 * seeks to directly (FTS5 by rowid, PostgreSQL by the primary key). Before 0028 a term in every row named its scope,
 * and intersecting that term's long list of documents was most of each statement's time.
 * Ten scopes below 10 × 2^49 < 2^53: a JavaScript number holds every id exactly; dates up to the year 2248.
 */

/** Rows of one kind and language one millisecond holds before the next millisecond's slots are used. */
export const ID_SLOTS = 64;
/** The ids of one kind and language. */
export const SCOPE_SPAN = 2 ** 49;
/** The last millisecond a scope's ids can order (later dates are ordered as this one). */
const LAST_MS = SCOPE_SPAN / ID_SLOTS - 1;
/**
 * How far past its millisecond the table's ids are read before one is handed out: 1,024 rows of one kind and language
 * in one millisecond (a bulk write with one date) still get ids no other row holds.
 */
const SLOT_WINDOW = ID_SLOTS * 16;

/**
 * The scopes in the order of their ranges: each language's kinds side by side, so that the FAQ, videos and links
 * of a language are one range (search.server.ts looks at them together).
 */
const SCOPE_KINDS = ["post", "picture", "faq", "video", "link"] as const;
const SCOPE_LANGUAGES: readonly Language[] = ["en", "de"];

type Db = Kysely<Database> | Transaction<Database>;

/** The ids of the rows of these kinds (next to each other in SCOPE_KINDS) in one language: `from` ≤ id < `to`. */
export function scopeRange(kinds: readonly string[], lang: Language): { from: number; to: number } {
  const positions = kinds.map((kind) => SCOPE_KINDS.indexOf(kind as (typeof SCOPE_KINDS)[number]));
  const first = Math.min(...positions);
  const last = Math.max(...positions);
  if (first < 0 || last - first + 1 !== new Set(positions).size) throw new Error(`No one range holds ${kinds}`);
  const base = SCOPE_LANGUAGES.indexOf(lang) * SCOPE_KINDS.length;
  return { from: (base + first) * SCOPE_SPAN, to: (base + last + 1) * SCOPE_SPAN };
}

/** The first id of an item's row in one language: its scope and its date (a post's publication, else its creation). */
export function firstIdOf(kind: string, lang: Language, date: DbDate): number {
  const ms = Math.min(Math.max(Date.parse(toIsoString(date)), 0), LAST_MS);
  return scopeRange([kind], lang).from + ms * ID_SLOTS;
}

/**
 * Hands out ids for new rows: the first slot from each row's millisecond on that neither the table nor this
 * allocator has given. Call `allocate` after deleting the rows being replaced (their ids are free again). Two
 * transactions of two instances indexing items of one kind and millisecond at once could pick one id; the later
 * insert then fails and its write is refused, to be tried again (as rare as two uploads in one millisecond).
 */
export class DocumentIds {
  private readonly taken = new Set<number>();
  /** The table was emptied in this transaction (a rebuild): only this allocator's ids are taken. */
  private readonly known: boolean;

  constructor(known = false) {
    this.known = known;
  }

  async allocate(db: Db, firstIds: number[]): Promise<number[]> {
    if (!this.known && firstIds.length > 0) await this.readTaken(db, firstIds);
    return firstIds.map((first) => {
      let id = first;
      while (this.taken.has(id)) id++;
      this.taken.add(id);
      return id;
    });
  }

  /** Marks the ids the table holds from these rows' milliseconds on (one range per distinct millisecond). */
  private async readTaken(db: Db, firstIds: number[]): Promise<void> {
    for (const first of new Set(firstIds)) {
      const rows = await db
        .selectFrom("search_documents")
        .select("id")
        .where("id", ">=", first)
        .where("id", "<", first + SLOT_WINDOW)
        .execute();
      // PostgreSQL hands a bigint back as text.
      for (const row of rows) this.taken.add(Number(row.id));
    }
  }
}
