import { type Kysely, sql } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { FtsTerm, QueryTerm } from "#app/lib/search-text.ts";

/*
 * SQLite only. FTS5 answers a prefix query ("wander" *) by gathering the matches of every term the prefix begins
 * into one list in memory, at each statement that names it: 0.7–2 ms for a common word at 10,000 pictures, and a
 * search runs up to five such statements. The terms themselves are few ("wander" begins wander, wandern, wandert,
 * wanderweg): read once per search from the index's own vocabulary (FTS5's `fts5vocab`), they are asked for as
 * words, which FTS5 walks lazily and stops at the limit (0.2–0.4 ms a statement). The same documents match either
 * way: the vocabulary is the index's. Beginnings of 2 and 3 letters have their own prefix indexes (migration 0022),
 * and a beginning of more than EXPANSION_LIMIT terms stays a prefix query.
 */

/** More terms than this and the prefix query is kept (each word is one more list to walk). */
const EXPANSION_LIMIT = 32;
/** Shorter beginnings are served by the FTS5 table's prefix indexes (`prefix='2 3'`). */
const SHORTEST_EXPANDED = 4;

type Db = Kysely<Database>;

/**
 * The vocabulary, a view of the index that stores nothing: made once per connection, in the connection's `temp`
 * schema, so that it is in no migration, backup or restore.
 */
async function ensureVocabulary(db: Db): Promise<void> {
  // One connection per SQLite database object (better-sqlite3): asked once per object, not at every search. (A
  // transaction or a copy with a plugin is another object, and asks once more: IF NOT EXISTS.)
  if (withVocabulary.has(db)) return;
  await sql`CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, search_fts, 'row')`.execute(db);
  withVocabulary.add(db);
}
const withVocabulary = new WeakSet<Db>();

/** The first string after every string that begins with `prefix` (its last character's successor). */
function afterPrefix(prefix: string): string {
  const last = prefix.codePointAt(prefix.length - 1) ?? 0;
  const head = prefix.slice(0, prefix.length - (last > 0xffff ? 2 : 1));
  return head + String.fromCodePoint(last + 1);
}

/**
 * The query's terms for FTS5: each prefix alternative of 4+ letters replaced by the index's terms it begins (none:
 * the alternative matches nothing and is dropped). Answers null when some term can match nothing at all.
 */
export async function expandPrefixes(db: Db, terms: QueryTerm[]): Promise<FtsTerm[] | null> {
  const expanded: FtsTerm[] = [];
  for (const term of terms) {
    if (!term.prefix) {
      expanded.push({ words: term.alternatives, beginnings: [] });
      continue;
    }
    const exact: string[] = [];
    const prefixes: string[] = [];
    for (const alternative of term.alternatives) {
      if ([...alternative].length < SHORTEST_EXPANDED) {
        prefixes.push(alternative);
        continue;
      }
      await ensureVocabulary(db);
      const { rows } = await sql<{ term: string }>`
        SELECT term FROM temp.search_vocab WHERE term >= ${alternative} AND term < ${afterPrefix(alternative)}
        LIMIT ${EXPANSION_LIMIT + 1}`.execute(db);
      if (rows.length > EXPANSION_LIMIT) prefixes.push(alternative);
      else exact.push(...rows.map((row) => row.term));
    }
    if (prefixes.length === 0 && exact.length === 0) return null;
    expanded.push({ words: [...new Set(exact)], beginnings: prefixes });
  }
  return expanded;
}
