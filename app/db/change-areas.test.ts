import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { CHANGE_AREAS, TABLE_AREAS } from "./change-areas.ts";

/**
 * A table missing from TABLE_AREAS moves every area (safe, but it defeats the point); a table whose change events
 * name an area its map entry lacks would leave kept pages of that area stale. Both are caught here, from the
 * migrated database itself, so a new table or trigger cannot be forgotten.
 */
describe.each(databaseKinds)("the table → area map (%s)", (kind) => {
  const database = useTestDatabase(kind, "all");

  async function tables(): Promise<string[]> {
    const rows =
      kind === "sqlite"
        ? await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'
            AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'`.execute(database.db)
        : await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
            AND table_name NOT LIKE 'kysely_%'`.execute(database.db);
    return rows.rows.map((row) => row.name).sort();
  }

  /** Each table with a change-event trigger, with the areas its events name. */
  async function eventAreas(): Promise<Map<string, Set<string>>> {
    const found = new Map<string, Set<string>>();
    const note = (table: string, definition: string) => {
      const area = /INSERT INTO change_events[\s\S]*?VALUES\s*\(\s*'([a-z]+)'/i.exec(definition)?.[1];
      if (!area) return;
      if (!found.has(table)) found.set(table, new Set());
      found.get(table)?.add(area);
    };
    if (kind === "sqlite") {
      const rows = await sql<{ table: string; definition: string }>`SELECT tbl_name AS "table", sql AS definition
        FROM sqlite_master WHERE type = 'trigger'`.execute(database.db);
      for (const row of rows.rows) note(row.table, row.definition);
    } else {
      const rows = await sql<{ table: string; definition: string }>`SELECT c.relname AS "table",
          p.prosrc AS definition
        FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE NOT t.tgisinternal OR t.tgconstraint <> 0`.execute(database.db);
      for (const row of rows.rows) note(row.table, row.definition);
    }
    return found;
  }

  it("names every table of the schema (a new table must say which areas it moves, [] for none)", async () => {
    const names = await tables();
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((name) => !Object.hasOwn(TABLE_AREAS, name))).toEqual([]);
  });

  it("moves, for every table with a change-event trigger, the area its events name", async () => {
    const events = await eventAreas();
    expect(events.get("faq_entries")).toEqual(new Set(["faq"]));
    // Every table of migration 0015 at least.
    expect(events.size).toBeGreaterThanOrEqual(14);
    for (const [table, areas] of events) {
      expect(Object.hasOwn(TABLE_AREAS, table), table).toBe(true);
      for (const area of areas) {
        expect(CHANGE_AREAS as readonly string[], `${table}'s area`).toContain(area);
        expect(TABLE_AREAS[table] as readonly string[], `${table} moves ${area}`).toContain(area);
      }
    }
  });

  it("names only areas that exist, and none for the tables nothing shows", () => {
    for (const areas of Object.values(TABLE_AREAS)) {
      for (const area of areas) expect(CHANGE_AREAS).toContain(area);
    }
    for (const table of ["verification", "sign_in_failures", "account_tokens", "change_events", "attempt_counts"]) {
      expect(TABLE_AREAS[table]).toEqual([]);
    }
  });
});
