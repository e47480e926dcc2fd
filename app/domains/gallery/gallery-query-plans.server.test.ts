import {
  type CompiledQuery,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  sql,
  type UnknownRow,
} from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { GALLERY_PAGE_SIZE } from "./gallery.ts";
import { listLatestPublishedGallery, listPublishedGallery } from "./gallery-public.server.ts";

const COUNT = 10_000;
const CATEGORIES = ["Nature", "City", "People", "Night"];

/** Records every query run through it, as it reaches the database (after the other plugins). */
class QueryRecorder implements KyselyPlugin {
  readonly nodes: RootOperationNode[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.nodes.push(args.node);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

describe.each(databaseKinds)("the public gallery's query plans at 10,000 pictures (%s)", (kind) => {
  const database = useTestDatabase(kind, "all");

  beforeAll(async () => {
    const variants = JSON.stringify(
      [320, 640, 960, 1280].flatMap((width) =>
        (["avif", "webp", "jpeg"] as const).map((format) => ({
          width,
          height: width / 2,
          format,
          key: `public/images/shared/${width}-0123456789abcdef.${format === "jpeg" ? "jpg" : format}`,
        })),
      ),
    );
    const start = Date.UTC(2026, 0, 1);
    await database.db.transaction().execute(async (trx) => {
      for (let offset = 0; offset < COUNT; offset += 500) {
        const indexes = Array.from({ length: Math.min(500, COUNT - offset) }, (_, i) => offset + i);
        await trx
          .insertInto("images")
          .values(
            indexes.map((index) => ({
              id: `image-${index}`,
              original_key: `private/originals/image-${index}.jpg`,
              original_format: "jpeg",
              width: 1280,
              height: 640,
              placeholder: "data:image/webp;base64,AA==",
              variants,
              watermark: "",
              created_at: new Date(start),
              ready: true,
            })),
          )
          .execute();
        await trx
          .insertInto("gallery_images")
          .values(
            indexes.map((index) => ({
              id: `picture-${String(index).padStart(5, "0")}`,
              image_id: `image-${index}`,
              title: `Picture ${index}`,
              title_de: "",
              description: "",
              description_de: "",
              category: CATEGORIES[index % CATEGORIES.length] ?? "",
              category_de: "",
              sort_order: index,
              published: true,
              // Some pictures share a moment, as a batch upload's may: the id breaks the tie.
              created_at: new Date(start + Math.floor(index / 3) * 1000),
              updated_at: new Date(start),
            })),
          )
          .execute();
      }
    });
    // SQLite as the site runs it, without statistics (nothing runs ANALYZE); PostgreSQL's autovacuum would gather them.
    if (kind === "postgres") await sql`analyze`.execute(database.db);
  }, 120_000);

  /** Runs the service's public reads and returns the SQL of each query they ran, compiled as sent. */
  async function publicQueries(): Promise<CompiledQuery[]> {
    const recorder = new QueryRecorder();
    // A Kysely with one more plugin is not the site's instance: nothing cached is used, every query runs.
    const db = database.db.withPlugin(recorder);
    const lastPage = Math.ceil(COUNT / GALLERY_PAGE_SIZE);
    const first = await listPublishedGallery(db, { lang: "en" });
    const last = await listPublishedGallery(db, { lang: "en", page: lastPage });
    const filtered = await listPublishedGallery(db, { lang: "de", category: "City" });
    const shared = await listPublishedGallery(db, { lang: "en", imageId: "picture-07777" });
    const latest = await listLatestPublishedGallery(db, { lang: "en", limit: 6 });
    // The plans are only worth checking if the reads answered as they should.
    expect(first.items.map((item) => item.id)).toEqual(
      Array.from({ length: GALLERY_PAGE_SIZE }, (_, i) => `picture-${String(i).padStart(5, "0")}`),
    );
    expect(first.total).toBe(COUNT);
    expect(last.page).toBe(lastPage);
    expect(last.items.at(-1)?.id).toBe("picture-09999");
    expect(filtered.items.every((item) => item.category === "City")).toBe(true);
    expect(filtered.total).toBe(COUNT / CATEGORIES.length);
    expect(shared.openId).toBe("picture-07777");
    expect(shared.page).toBe(Math.floor(7777 / GALLERY_PAGE_SIZE) + 1);
    expect(latest.map((item) => item.id)).toEqual([
      "picture-09999",
      "picture-09998",
      "picture-09997",
      "picture-09996",
      "picture-09995",
      "picture-09994",
    ]);
    const executor = db.getExecutor();
    return recorder.nodes.map((node) => executor.compileQuery(node, { queryId: "plan" }));
  }

  async function planOf(query: CompiledQuery): Promise<string> {
    const prefix = kind === "sqlite" ? "explain query plan " : "explain ";
    const result = await database.db.executeQuery(
      // The service's own SQL and parameters, only asked for its plan.
      { ...query, sql: `${prefix}${query.sql}` },
    );
    return result.rows.map((row) => Object.values(row as Record<string, unknown>).join(" ")).join("\n");
  }

  it("never sorts rows: every order is read along an index", async () => {
    const queries = await publicQueries();
    // The order of all pictures and of one category, the rows of four pages (one of a category), the latest.
    expect(queries.length).toBeGreaterThanOrEqual(7);
    for (const query of queries) {
      const paged = /\blimit\b/.test(query.sql);
      if (kind === "postgres") {
        // Small tables make any plan cheap: only an index or nothing, so the planner's choice says something.
        await sql`set enable_seqscan = off`.execute(database.db);
        // Reading every published row (the order, once per change version), PostgreSQL may rightly prefer a
        // hash join and a sort; what must hold there is that the index can serve the order.
        if (!paged) await sql`set enable_sort = off`.execute(database.db);
      }
      let plan: string;
      try {
        plan = await planOf(query);
      } finally {
        if (kind === "postgres") await sql`reset all`.execute(database.db);
      }
      if (process.env.SHOW_PLANS) console.log(query.sql, "\n", plan);
      if (kind === "sqlite") {
        expect(plan, query.sql).not.toContain("TEMP B-TREE");
        // The pictures are found through an index, never by reading the table.
        expect(plan, query.sql).not.toMatch(/\bSCAN g\b/);
      } else {
        expect(plan, query.sql).not.toMatch(/\bSort\b/);
      }
      if (/order by "g"\."sort_order"/.test(query.sql)) {
        const index = /"g"\."category" = /.test(query.sql)
          ? "gallery_images_category_idx"
          : "gallery_images_display_idx";
        expect(plan, query.sql).toContain(index);
      }
      if (/order by "g"\."created_at" desc/.test(query.sql)) {
        expect(plan, query.sql).toContain("gallery_images_latest_idx");
      }
    }
    // Each kind of query was there to be checked.
    expect(queries.some((query) => /"g"\."category" = .*order by "g"\."sort_order"/s.test(query.sql))).toBe(true);
    expect(queries.some((query) => /order by "g"\."created_at" desc, "g"\."id" desc/.test(query.sql))).toBe(true);
    expect(queries.some((query) => /\("g"\."sort_order", "g"\."id"\) >= .*limit/s.test(query.sql))).toBe(true);
  }, 60_000);
});
