import type { CompiledQuery, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from "kysely";
import { describe, expect, it } from "vitest";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { useTestDatabase } from "#tests/support/test-database.ts";
import { searchSite } from "./search.server.ts";

/** Keeps the SQL of every query run through it, compiled as sent. */
class QueryRecorder implements KyselyPlugin {
  readonly nodes: PluginTransformQueryArgs["node"][] = [];
  transformQuery(args: PluginTransformQueryArgs) {
    this.nodes.push(args.node);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}

describe("the search's plan on SQLite", () => {
  const database = useTestDatabase("sqlite", "all");

  it("walks the full-text matches newest first and stops at the limit: no list or sort of every match", async () => {
    for (const title of ["Mountain morning", "Mountain evening", "Valley"]) {
      const post = await createPost(database.db, testAdmin, { title, body: `A walk: ${title.toLowerCase()}.` });
      if (!post.ok) throw new Error("refused");
      await setPostStatus(database.db, testAdmin, post.id, { status: "published" });
    }
    idOfAccepted(
      await faqService.create(database.db, testAdmin, {
        question: "Which mountain?",
        answer: "The near one.",
        question_de: "",
        answer_de: "",
        active: true,
      }),
    );
    const recorder = new QueryRecorder();
    const db = database.db.withPlugin(recorder);
    const result = await searchSite(db, { lang: "en", query: "mountain", page: 1 });
    // With a limit of 1, the posts' stream is full: the stream of title matches runs too.
    expect((await searchSite(db, { lang: "en", query: "mountain", page: 1, streamLimit: 1 })).capped).toBe(true);
    expect(result.hits.map((hit) => hit.title).toSorted()).toEqual([
      "Mountain evening",
      "Mountain morning",
      "Which mountain?",
    ]);
    const executor = db.getExecutor();
    const matching = recorder.nodes
      .map((node): CompiledQuery => executor.compileQuery(node, { queryId: "plan" }))
      .filter((query) => query.sql.includes(`"search_fts"`));
    expect(matching.length).toBeGreaterThanOrEqual(10);
    for (const query of matching) {
      // FTS5 seeks to a rowid bound only when it is bound as an integer: a JavaScript number (bound as a real) was
      // ignored by it, so it walked the matches of every scope above the range (search.server.ts, `ftsRowid`).
      // The ids are far above any limit or count a statement binds.
      const ids = query.parameters.filter(
        (value) => typeof value === "bigint" || (typeof value === "number" && value > 1e6),
      );
      expect(ids.length, query.sql).toBeGreaterThanOrEqual(2);
      for (const id of ids) expect(typeof id, query.sql).toBe("bigint");
      const plan = await database.db.executeQuery({ ...query, sql: `explain query plan ${query.sql}` });
      const steps = plan.rows.map((row) => String((row as { detail: string }).detail));
      // The matches drive the query, in the FTS5 table's own rowid order (the items' dates): a common word at
      // 10,000 pictures cost 25–30 ms a search while every match was listed, joined and sorted; now the limit's worth.
      expect(steps[0], query.sql).toMatch(/^SCAN f VIRTUAL TABLE/);
      // (The look for which of the few kinds match at all lists their kinds: a handful of documents.)
      expect(steps.join("\n"), query.sql).not.toMatch(/TEMP B-TREE FOR (LAST TERM OF )?ORDER BY|LIST SUBQUERY/);
      // A picture's readiness comes from an index, not from the image's row with its sizes' JSON.
      if (query.sql.includes('"images"'))
        expect(steps.join("\n"), query.sql).toMatch(/COVERING INDEX images_ready_idx/);
    }
  });
});
