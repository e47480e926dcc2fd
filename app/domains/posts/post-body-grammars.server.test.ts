import { describe, expect, it } from "vitest";
import { testAdmin } from "#tests/support/service-actor.ts";
import { useTestDatabase } from "#tests/support/test-database.ts";
import { createPost } from "./post-admin.server.ts";
import { loadedCodeLanguages, renderPostBody, warmPostRenderer } from "./post-body.server.ts";

/*
 * The code highlighter's grammars are loaded when a post needs them (issue 23: all 23 took about 150 MB of an idle
 * process). A file of its own: the highlighter is one per process, and the other post-body tests load grammars.
 */
describe("the code highlighter's grammars", () => {
  const database = useTestDatabase("sqlite", "all");

  it("are loaded for the languages the posts use, at the start and on a post's first render, and no others", async () => {
    const prose = await createPost(database.db, testAdmin, { title: "Words only", body: "No code here." });
    expect(prose.ok).toBe(true);
    await warmPostRenderer(database.db);
    // Posts without code: nothing loaded, not even the highlighter.
    expect(await loadedCodeLanguages()).toEqual([]);

    const code = await createPost(database.db, testAdmin, {
      title: "Shell and types",
      body: "```sh\nls -la\n```\n\nText.\n\n~~~ts\nconst a: number = 1;\n~~~\n\n```unknown-language\nplain\n```",
    });
    expect(code.ok).toBe(true);
    await warmPostRenderer(database.db);
    // The aliases name their languages; an unknown one is plain text and loads nothing.
    expect(await loadedCodeLanguages()).toEqual(["bash", "typescript"]);

    // A language no post had at the start is loaded by the first body that shows it, and highlighted there.
    const body = await renderPostBody("```python\nprint('hi')\n```", "en");
    expect(body.html).toContain("shiki");
    expect(body.html).toMatch(/<span style="--shiki-light:#[0-9A-Fa-f]{6};--shiki-dark:#[0-9A-Fa-f]{6}">print<\/span>/);
    expect(await loadedCodeLanguages()).toEqual(["bash", "python", "typescript"]);
  });
});
