import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPost, setPostStatus, updatePost } from "#app/domains/posts/post-admin.server.ts";
import type { AdminPost, PostWriteResult } from "#app/domains/posts/post-rows.server.ts";
import { SCHEDULER_POLL_MS } from "#app/domains/posts/post-scheduler.server.ts";
import { previewSecretOf, signPreviewLink } from "#app/domains/posts/preview-link.server.ts";
import { startServerOnFreshDatabase, stopServerAndDatabase, visibleText } from "#tests/support/admin-server.ts";
import { createUser } from "#tests/support/factories.ts";
import { request, type ServerProcess, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

function accepted(result: PostWriteResult): AdminPost {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.post;
}

/** The menu's addresses in a page's HTML (the main navigation's links). */
function menuAddresses(html: string): string[] {
  const nav = html.match(/<nav[^>]*aria-label="Main"[^>]*>([\s\S]*?)<\/nav>/)?.[1] ?? "";
  return [...nav.matchAll(/href="([^"]+)"/g)].map((match) => match[1] as string);
}

describe.each(databaseKinds)("the blog over HTTP (%s)", (kind) => {
  /** The page once `ready` says so (or the last answer after 5 s). */
  async function eventually(path: string, ready: (body: string) => boolean) {
    const until = Date.now() + 5000;
    let response = await get(path);
    while (!ready(response.body) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      response = await get(path);
    }
    return response;
  }

  let database: TestDatabase;
  let server: ServerProcess;
  let actor: { id: string; email: string };
  const get = (path: string, headers: Record<string, string> = {}) => request(server.url(path), { headers });

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    const admin = await createUser(database.db, { admin: true, email: "author@example.test" });
    actor = { id: admin.id, email: admin.email };
  });

  afterAll(() => stopServerAndDatabase(server, database));

  async function published(fields: Record<string, unknown>) {
    const post = accepted(await createPost(database.db, actor, fields));
    return accepted(await setPostStatus(database.db, actor, post.id, { status: "published" }));
  }

  it("shows published posts and never a draft or a post not yet due, in lists or by address", async () => {
    expect(menuAddresses((await get("/")).body)).not.toContain("/blog");
    await published({ title: "Hello readers", title_de: "Hallo Leser", excerpt: "A first word", tags: "news" });
    const draft = accepted(await createPost(database.db, actor, { title: "Hidden draft", tags: "news" }));
    const later = accepted(await createPost(database.db, actor, { title: "Not yet", title_de: "Noch nicht" }));
    const inAnHour = new Date(Date.now() + 3_600_000);
    accepted(await setPostStatus(database.db, actor, later.id, { status: "scheduled", publishAt: inAnHour }));

    // Another process's commits reach the server's caches by PostgreSQL's notification, a moment later.
    const list = await eventually("/blog", (body) => menuAddresses(body).includes("/blog"));
    expect(list.status).toBe(200);
    const text = visibleText(list.body);
    expect(text).toContain("Hello readers");
    expect(text).toContain("A first word");
    expect(text).not.toContain("Hidden draft");
    expect(text).not.toContain("Not yet");
    expect(menuAddresses(list.body)).toContain("/blog");
    const home = visibleText((await get("/home")).body);
    expect(home).toContain("Hello readers");
    expect(home).not.toContain("Hidden draft");
    expect(visibleText((await get("/blog/tag/news")).body)).not.toContain("Hidden draft");

    for (const path of [
      `/blog/${draft.slug}`,
      `/blog/${draft.slugDe}?lang=de`,
      `/blog/${later.slug}`,
      `/blog/${later.slugDe}?lang=de`,
      `/blog/${draft.slug}.data`,
      "/blog/no-such-post",
      "/blog/tag/nothing-here",
      "/blog?page=2",
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).not.toMatch(/Hidden draft|Not yet|Noch nicht/);
    }
  });

  it("answers each language at its own slug, with hreflang alternates to both", async () => {
    const english = await get("/blog/hello-readers");
    expect(english.status).toBe(200);
    expect(visibleText(english.body)).toContain("Hello readers");
    expect(visibleText(english.body)).toContain("By author");
    expect(english.body).toContain(`hrefLang="de" href="${server.origin}/blog/hallo-leser?lang=de"`);
    expect(english.body).toContain(`hrefLang="en" href="${server.origin}/blog/hello-readers?lang=en"`);
    const german = await get("/blog/hallo-leser?lang=de");
    expect(german.status).toBe(200);
    expect(visibleText(german.body)).toContain("Hallo Leser");
    // The other language's slug leads to this language's version, for this visitor only (not a lasting move).
    const crossed = await get("/blog/hello-readers?lang=de");
    expect(crossed.status).toBe(302);
    expect(crossed.headers.location).toBe("/blog/hallo-leser?lang=de");
  });

  it("marks Blog as the current menu entry on the list, a tag page and a post, in both languages", async () => {
    const post = await published({ title: "Current entry", title_de: "Aktueller Eintrag", tags: "menu" });
    /** The main menu's entries that say they are the current page. */
    const current = async (path: string) => {
      const html = (
        await eventually(path, (body) => body.includes("Current entry") || body.includes("Aktueller Eintrag"))
      ).body;
      const nav = html.match(/<nav[^>]*aria-label="(?:Main|Hauptmenü)"[^>]*>([\s\S]*?)<\/nav>/)?.[1] ?? "";
      return [...nav.matchAll(/<a[^>]*>/g)]
        .map((match) => match[0])
        .filter((anchor) => anchor.includes('aria-current="page"'))
        .map((anchor) => anchor.match(/href="([^"]+)"/)?.[1]);
    };
    for (const path of [
      "/blog",
      "/blog/tag/menu",
      `/blog/${post.slug}`,
      `/blog/${post.slugDe}?lang=de`,
      "/blog?lang=de",
    ]) {
      expect(await current(path), path).toEqual(["/blog"]);
    }
  });

  it("moves an old slug for good (301) to the current one", async () => {
    const post = await published({ title: "Before the rename" });
    accepted(await updatePost(database.db, actor, post.id, { title: "After the rename", slug: "after-the-rename" }));
    const old = await get("/blog/before-the-rename");
    expect(old.status).toBe(301);
    expect(old.headers.location).toBe("/blog/after-the-rename");
    expect((await get("/blog/after-the-rename")).status).toBe(200);
  });

  it("shows a draft to whoever holds a valid preview link, never kept or indexed", async () => {
    const draft = accepted(await createPost(database.db, actor, { title: "Preview me", body: "Draft **text**" }));
    const secret = previewSecretOf(TEST_AUTH_SECRET);
    const link = signPreviewLink(draft.id, { secret });
    const preview = await get(link);
    expect(preview.status).toBe(200);
    expect(visibleText(preview.body)).toContain("Preview me");
    expect(preview.headers["cache-control"]).toBe("private, no-store");
    expect(preview.headers["x-robots-tag"]).toMatch(/noindex/);
    expect(preview.body).toMatch(/<meta name="robots" content="noindex/);
    // Changed, expired or made with another key: nothing to see.
    for (const bad of [
      link.replace(draft.id, "someone-else"),
      signPreviewLink(draft.id, { secret, now: new Date(Date.now() - 8 * 24 * 3_600_000) }),
      signPreviewLink(draft.id, { secret: previewSecretOf("x".repeat(40)) }),
      "/blog/preview",
    ]) {
      const response = await get(bad);
      expect(response.status, bad).toBe(404);
      expect(response.body).not.toContain("Preview me");
    }
    expect((await get(`/blog/${draft.slug}`)).status).toBe(404);
  });

  it("shows a scheduled post at its time on pages the cache had kept, without anyone asking", {
    timeout: 20_000,
  }, async () => {
    const post = accepted(await createPost(database.db, actor, { title: "Right on time" }));
    // Further ahead than the scheduler's look (SCHEDULER_POLL_MS): it sees the post, then wakes at its time.
    const at = new Date(Date.now() + SCHEDULER_POLL_MS + 1500);
    accepted(await setPostStatus(database.db, actor, post.id, { status: "scheduled", publishAt: at }));
    // Asked twice: the second answer is the kept page.
    for (let n = 0; n < 2; n++) expect(visibleText((await get("/blog")).body)).not.toContain("Right on time");
    expect((await get("/blog/right-on-time")).status).toBe(404);
    // Asked over and over instead of at two fixed moments, which a busy machine may overshoot: no answer that
    // came before its time shows it, and every one asked for from a second after its time does.
    const answers: { asked: number; came: number; shown: boolean }[] = [];
    const deadline = at.getTime() + 10_000;
    while (Date.now() < deadline && !answers.some((answer) => answer.asked >= at.getTime() + 1000)) {
      const asked = Date.now();
      const shown = visibleText((await get("/blog")).body).includes("Right on time");
      answers.push({ asked, came: Date.now(), shown });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const early = answers.filter((answer) => answer.came < at.getTime());
    expect(early.length).toBeGreaterThan(0);
    expect(early.filter((answer) => answer.shown)).toEqual([]);
    const late = answers.filter((answer) => answer.asked >= at.getTime() + 1000);
    expect(late.length).toBeGreaterThan(0);
    expect(late.filter((answer) => !answer.shown)).toEqual([]);
    expect(visibleText((await get("/blog")).body)).toContain("Right on time");
    expect((await get("/blog/right-on-time")).status).toBe(200);
    const row = await database.db.selectFrom("posts").select("status").where("id", "=", post.id).executeTakeFirst();
    expect(row?.status).toBe("published");
  });
});
