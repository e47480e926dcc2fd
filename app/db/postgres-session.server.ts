import type pg from "pg";

/*
 * What every connection of the site's pool asks of PostgreSQL when it opens (database.server.ts).
 *
 * PostgreSQL's planner prices a page read at random by `random_page_cost`, 4 by default: a spinning disk's seek
 * against a sequential read. A site's tables are small enough to stay in memory, or lie on an SSD, where a random
 * read costs about what a sequential one does; the value commonly given for that is 1.1. At 4 the planner chose
 * the search's plans by the order of the rows on disk rather than by what matches (docs/decisions/015-search.md):
 * with the index's rows in id order, as a site that adds its content over time has them, it walked all of a
 * kind's rows for a rare word instead of reading its few matches from the GIN index (7–9 ms against 2.7 ms a
 * search on the bench's data). The site's other statements were measured with both values: the same plans or
 * index scans for small lookups, and the same times.
 *
 * Only where nobody set it: a value the owner gave (in postgresql.conf, for the database or for the role) is theirs.
 */
const PLANNER_COSTS = `SELECT set_config('random_page_cost', '1.1', false)
  FROM pg_settings WHERE name = 'random_page_cost' AND source = 'default'`;

/**
 * Sets the planner costs on a client that has just connected. Queued before any statement of whoever asked for
 * the connection (the pool emits "connect" before it hands the client out). A failure changes only the plans, and
 * the statement after it reports whatever broke the connection.
 */
export function setPlannerCosts(client: pg.PoolClient): void {
  client.query(PLANNER_COSTS).catch(() => {});
}
