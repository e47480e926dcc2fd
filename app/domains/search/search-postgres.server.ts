import { type Kysely, sql } from "kysely";
import type { Database, DbDate } from "#app/db/schema.ts";
import { tsqueryExpression } from "#app/lib/search-text.ts";
import { type CandidateRow, type DocumentId, inScope, type Lookup, type StreamRows } from "./search-stream.server.ts";
import { type SearchAudience, visibleItems } from "./search-visibility.server.ts";

/*
 * The search's streams on PostgreSQL (search.server.ts has SQLite's). Each statement is a round trip, with its own
 * parse and plan and its share of the driver's and Kysely's work in this process: the first batch of every stream of
 * a search goes in one statement (`readStreamsPostgres`), and only a stream whose first batch was mostly hidden
 * reads on by itself.
 */

type Db = Kysely<Database>;

/** The most documents a batch of PostgreSQL's reads (grows from the limit, each batch twice the one before). */
const POSTGRES_BATCH_MAX = 3200;

/** A document of a batch, and its item's date when the audience may see it (`visible` null when not). */
type BatchRow = { id: DocumentId; item_id: string; title_terms: string; visible: string | null; time: DbDate | null };

/**
 * One batch of a stream: the matching documents alone first, newest first, in a subquery with its own limit (which
 * the planner keeps apart: it reads them by the GIN index, or backwards along the primary key when the terms are
 * common, and stops at the limit), then each one's item under the visibility rule, looked up by its id (a lateral
 * subquery, so by the primary key: asked as one join, the planner joined by hash over a whole content table, or
 * walked a kind's documents backwards where its estimate of a prefix was wrong, 7–23 ms a statement at 10,000
 * pictures). A document whose item the audience may not see comes back without it.
 */
function batchQuery(
  db: Db,
  lookup: Lookup,
  audience: SearchAudience,
  now: Date,
  size: number,
  after: DocumentId | null,
) {
  const terms = tsqueryExpression(lookup.terms);
  const vector = sql.ref(lookup.stream === "all" ? "d.terms_vector" : "d.title_vector");
  const documents = db
    .selectFrom("search_documents as d")
    .select(["d.id", "d.item_id", "d.title_terms"])
    .where(sql<boolean>`${vector} @@ ${terms}::tsquery and ${inScope("d.id", [lookup.kind], lookup.lang)}`)
    .$if(after !== null, (query) => query.where(sql<boolean>`d.id < ${after}`))
    .orderBy("d.id", "desc")
    .limit(size);
  return db
    .selectFrom(documents.as("m"))
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom(visibleItems(db, lookup.kind, audience, now).as("i"))
          .select(["i.item_id", "i.time"])
          .whereRef("i.item_id", "=", "m.item_id")
          // One row at most (an id is unique): and a subquery with a limit stays a lookup per document.
          .limit(1)
          .as("v"),
      (join) => join.onTrue(),
    )
    .select(["m.id", "m.item_id", "m.title_terms", "v.item_id as visible", "v.time"])
    .orderBy("m.id", "desc");
}

/**
 * A stream's newest matches the audience may see: the first batch as given (read with the other streams' first
 * batches) or read here, then, while hidden documents kept the limit from being reached, another batch, each twice
 * the one before, until the limit got through or the matches ran out: the same answer as SQLite's walk.
 */
async function readStream(
  db: Db,
  lookup: Lookup,
  audience: SearchAudience,
  now: Date,
  firstBatch?: BatchRow[],
): Promise<StreamRows> {
  const rows: CandidateRow[] = [];
  let before: DocumentId | null = lookup.below ?? null;
  let given = firstBatch;
  for (let size = lookup.limit; ; size = Math.min(size * 2, POSTGRES_BATCH_MAX)) {
    const batch = given ?? (await batchQuery(db, lookup, audience, now, size, before).execute());
    given = undefined;
    if (batch.length === 0) return { rows, more: false };
    for (const document of batch) {
      if (document.visible === null) continue;
      rows.push({
        id: document.item_id,
        title_terms: document.title_terms,
        time: document.time,
        document: document.id,
      });
      if (rows.length === lookup.limit) return { rows, more: true };
    }
    if (batch.length < size) return { rows, more: false };
    // (A bigint arrives as text from PostgreSQL and goes back as it came.)
    before = batch[batch.length - 1]?.id ?? null;
  }
}

/**
 * The streams of a search, in the order asked: every stream's first batch in one statement (UNION ALL of each
 * stream's batch query, tagged with its place), then each one read on by itself if its hidden documents need it.
 */
export async function readStreamsPostgres(
  db: Db,
  lookups: Lookup[],
  audience: SearchAudience,
  now: Date,
): Promise<StreamRows[]> {
  const parts = lookups.map((lookup, index) =>
    db
      .selectFrom(batchQuery(db, lookup, audience, now, lookup.limit, lookup.below ?? null).as("b"))
      .select([
        sql<number>`${sql.lit(index)}`.as("stream"),
        "b.id",
        "b.item_id",
        "b.title_terms",
        "b.visible",
        "b.time",
      ]),
  );
  const [first, ...rest] = parts;
  if (!first) return [];
  // Each stream's batch newest first, as a batch read alone comes.
  const rows = await rest
    .reduce((union, part) => union.unionAll(part), first)
    .orderBy("stream")
    .orderBy("id", "desc")
    .execute();
  const batches = lookups.map((): BatchRow[] => []);
  for (const row of rows) batches[Number(row.stream)]?.push(row);
  // One stream after the other: one connection of the pool per search leaves the others to other requests.
  const streams: StreamRows[] = [];
  for (const [index, lookup] of lookups.entries())
    streams.push(await readStream(db, lookup, audience, now, batches[index]));
  return streams;
}
