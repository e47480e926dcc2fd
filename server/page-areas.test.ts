import { describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { keptStamp, settleKept } from "#app/db/version-cache.server.ts";
import { hasPublicAlbum } from "#app/domains/albums/albums-public.server.ts";
import { readMenuSections } from "#app/domains/content/menu-sections.server.ts";
import { hasPublishedPost } from "#app/domains/posts/post-public.server.ts";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import { changeVersionWaits } from "#tests/support/change-version-waits.ts";
import { insertFaqRow } from "#tests/support/factories.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { pageDependencies, pageDependenciesOfKey } from "./page-areas.ts";
import { PageCache, pageCacheKey, type RenderedPage } from "./page-cache.ts";

describe("what a page depends on, by its address", () => {
  it("names the page's areas and the menu, for the page and its route data alike", () => {
    const gallery = { areas: ["settings", "gallery", "media"], values: ["menu-sections"] };
    expect(pageDependencies("/")).toEqual(gallery);
    expect(pageDependencies("/?category=Landscape&page=2")).toEqual(gallery);
    expect(pageDependencies("/_.data")).toEqual(gallery);
    expect(pageDependencies("/_.data?category=Landscape&_routes=root%2Croutes%2Fgallery")).toEqual(gallery);
    expect(pageDependencies("/faq.data?_routes=routes%2Ffaq")).toEqual({
      areas: ["settings", "faq"],
      values: ["menu-sections"],
    });
    expect(pageDependencies("/blog/a-post")?.areas).toEqual(["settings", "posts", "media", "users"]);
  });

  it("depends on everything where it does not know the page", () => {
    expect(pageDependencies("/sitemap.xml")).toBeUndefined();
    expect(pageDependencies("/something-new")).toBeUndefined();
    expect(pageDependencies("/FAQ")).toBeUndefined();
    expect(pageDependenciesOfKey("/unknown\u0000en\u0000")).toEqual({});
  });
});

describe.each(databaseKinds)("kept pages by area (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const { until, listening, write } = changeVersionWaits(database, kind);

  /**
   * The server's page cache on this database, with renders that read what the root loader reads. The first render
   * computes the menu's value: a page is kept from the next one on (before it, what the page depends on is not
   * known), so one page is rendered first.
   */
  async function site() {
    const db = database.db;
    const cache = new PageCache({
      changeVersion: (key) => keptStamp(db, pageDependenciesOfKey(key)),
      settle: (key) => settleKept(db, pageDependenciesOfKey(key)),
    });
    const renders: string[] = [];
    const key = (url: string) => pageCacheKey({ method: "GET", url, headers: {} }) as string;
    const visit = async (url: string) => {
      const result = await cache.fill(key(url), async (): Promise<RenderedPage> => {
        renders.push(url);
        const settings = await readSettings(db);
        const menu = await readMenuSections(db, settings, { post: hasPublishedPost, album: hasPublicAlbum });
        return {
          status: 200,
          headers: new Headers({ "content-type": "text/html", "cache-control": "public" }),
          body: Buffer.from(`${url} ${settings.site_name} ${JSON.stringify(menu)}`),
        };
      });
      return ("etag" in result ? result.identity : result.body).toString();
    };
    await visit("/privacy");
    expect(cache.size).toBe(0);
    renders.length = 0;
    return { renders, visit, kept: (url: string) => cache.lookup(key(url)) !== undefined };
  }

  it("keeps the gallery through a FAQ write that leaves the menu as it was, and drops the FAQ page", async () => {
    await write("faq", () => insertFaqRow(database.db, { question: "First", active: true }));
    await listening();
    const { renders, visit, kept } = await site();
    await visit("/");
    await visit("/faq");
    expect(kept("/") && kept("/faq")).toBe(true);

    await write("faq", () => insertFaqRow(database.db, { question: "Second", active: true }));
    expect(kept("/faq")).toBe(false);
    // The menu must be looked at again before the gallery is served: not from the fast path, but not rendered.
    expect(kept("/")).toBe(false);
    await visit("/");
    expect(renders).toEqual(["/", "/faq"]);
    expect(kept("/")).toBe(true);
    await visit("/faq");
    expect(renders).toEqual(["/", "/faq", "/faq"]);
  });

  it("drops the gallery when a FAQ write changes the menu (the first published entry)", async () => {
    await listening();
    const { renders, visit } = await site();
    expect(await visit("/")).toContain('"faq":false');
    await write("faq", () => insertFaqRow(database.db, { question: "First", active: true }));
    expect(await visit("/")).toContain('"faq":true');
    expect(renders).toEqual(["/", "/"]);
  });

  it("drops the gallery with a gallery write and every page with a settings write", async () => {
    await listening();
    const { renders, visit, kept } = await site();
    await visit("/");
    await visit("/faq");
    await write("gallery", () =>
      database.db.updateTable("gallery_images").set({ sort_order: 5 }).where("id", "=", "none").execute(),
    );
    expect(kept("/")).toBe(false);
    // The menu's "Albums" reads the gallery (an album is offered once it shows a published picture): the FAQ page
    // looks at the menu again, which a gallery write leaves as it was, so it is not rendered again.
    expect(kept("/faq")).toBe(false);
    await visit("/faq");
    expect(kept("/faq")).toBe(true);
    await write("settings", () =>
      database.db.updateTable("site_settings").set({ value: "Renamed" }).where("key", "=", "site_name").execute(),
    );
    expect(kept("/faq")).toBe(false);
    expect(await visit("/")).toContain("Renamed");
    expect(await visit("/faq")).toContain("Renamed");
    expect(renders).toEqual(["/", "/faq", "/", "/faq"]);
  });

  it("drops what another process's commit may have changed: everything on SQLite, its areas on PostgreSQL", async () => {
    await write("faq", () => insertFaqRow(database.db, { question: "First", active: true }));
    await listening();
    const { renders, visit, kept } = await site();
    await visit("/");
    await visit("/faq");
    const start = database.changeVersion(["faq"]);
    const other: AppDatabase = openDatabase(database.location);
    try {
      await insertFaqRow(other.db, { question: "Elsewhere", active: true });
    } finally {
      await other.close();
    }
    await until(() => database.changeVersion(["faq"]) > start);
    expect(kept("/faq")).toBe(false);
    await visit("/");
    // SQLite tells that another connection committed, not what: the gallery is rendered again. PostgreSQL's
    // notification names the table: the menu is looked at again and found the same.
    expect(renders).toEqual(kind === "sqlite" ? ["/", "/faq", "/"] : ["/", "/faq"]);
    expect(kept("/")).toBe(true);
  });
});
