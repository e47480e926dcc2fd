import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { linksService } from "#app/domains/links/links.server.ts";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import type { PostWriteResult } from "#app/domains/posts/post-rows.server.ts";
import { videosService } from "#app/domains/videos/videos.server.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { searchSite } from "./search.server.ts";

/*
 * Issue 22: a visitor's search finds only what the public pages show — never a draft, a post not yet due, a hidden
 * picture, one whose sizes are not all made, or an inactive question, video or link, not even in the count. The
 * admin's search finds every one of them.
 */

function postId(result: PostWriteResult): string {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.id;
}

describe.each(databaseKinds)("search: only what the searcher may see (%s)", (kind) => {
  const database = useTestDatabase(kind, "all");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-search-"));
  /** Every item made, by the title it was given ("zebrafish <kind> <state>"), and whether visitors see it. */
  const items = new Map<string, boolean>();

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    const db = database.db;
    const storage = storageIn(dir);
    const post = async (state: string, change?: (id: string) => Promise<unknown>) => {
      const id = postId(await createPost(db, testAdmin, { title: `Zebrafish post ${state}`, body: "Stripes." }));
      await change?.(id);
    };
    const hour = 3_600_000;
    await post("published", (id) => setPostStatus(db, testAdmin, id, { status: "published" }));
    // Scheduled an hour ago for a minute ago: due, so visible although the scheduler has not run.
    await post("due", (id) =>
      setPostStatus(
        db,
        testAdmin,
        id,
        { status: "scheduled", publishAt: new Date(Date.now() - 60_000) },
        { now: new Date(Date.now() - hour) },
      ),
    );
    await post("draft");
    await post("scheduled", (id) =>
      setPostStatus(db, testAdmin, id, { status: "scheduled", publishAt: new Date(Date.now() + hour) }),
    );
    await post("unpublished", async (id) => {
      await setPostStatus(db, testAdmin, id, { status: "published" });
      await setPostStatus(db, testAdmin, id, { status: "draft" });
    });
    items.set("Zebrafish post published", true).set("Zebrafish post due", true);
    items.set("Zebrafish post draft", false).set("Zebrafish post scheduled", false);
    items.set("Zebrafish post unpublished", false);

    const photo = { width: 360, height: 240 };
    await createGalleryPicture(db, storage, { ...photo, title: "Zebrafish picture published" });
    await createGalleryPicture(db, storage, { ...photo, title: "Zebrafish picture hidden", published: false });
    const unready = await createGalleryPicture(db, storage, { ...photo, title: "Zebrafish picture unready" });
    // A picture whose sizes are not all made yet (as after an upload, before the queue has run).
    const row = await db.selectFrom("gallery_images").select("image_id").where("id", "=", unready).executeTakeFirst();
    await db
      .updateTable("images")
      .set({ ready: false })
      .where("id", "=", row?.image_id ?? "")
      .execute();
    items.set("Zebrafish picture published", true).set("Zebrafish picture hidden", false);
    items.set("Zebrafish picture unready", false);

    for (const active of [true, false]) {
      const state = active ? "active" : "inactive";
      idOfAccepted(
        await faqService.create(db, testAdmin, { question: `Zebrafish faq ${state}`, answer: "Stripes.", active }),
      );
      idOfAccepted(
        await videosService.create(db, testAdmin, {
          title: `Zebrafish video ${state}`,
          description: "Stripes.",
          embed_url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
          active,
        }),
      );
      idOfAccepted(
        await linksService.create(db, testAdmin, {
          title: `Zebrafish link ${state}`,
          url: "https://example.org/",
          icon: "github",
          active,
        }),
      );
      for (const what of ["faq", "video", "link"]) items.set(`Zebrafish ${what} ${state}`, active);
    }
  });

  const visible = () => [...items].filter(([, shown]) => shown).map(([title]) => title);

  it("gives a visitor the visible items only, and counts only them", async () => {
    for (const lang of ["en", "de"] as const) {
      const result = await searchSite(database.db, { lang, query: "zebrafish", page: 1 });
      expect(result.hits.map((hit) => hit.title).sort()).toEqual(visible().sort());
      expect(result.total).toBe(visible().length);
    }
  });

  it.each([
    ["post", "draft"],
    ["post", "scheduled"],
    ["post", "unpublished"],
    ["picture", "hidden"],
    ["picture", "unready"],
    ["faq", "inactive"],
    ["video", "inactive"],
    ["link", "inactive"],
  ])("never finds a %s that is %s, not even by its own words", async (what, state) => {
    const result = await searchSite(database.db, { lang: "en", query: `zebrafish ${what} ${state}`, page: 1 });
    expect(result).toMatchObject({ total: 0, hits: [] });
    const admin = await searchSite(database.db, {
      lang: "en",
      query: `zebrafish ${what} ${state}`,
      page: 1,
      audience: "admin",
    });
    expect(admin.hits.map((hit) => hit.title)).toEqual([`Zebrafish ${what} ${state}`]);
  });

  it("gives the admin every item, in every state", async () => {
    const result = await searchSite(database.db, { lang: "en", query: "zebrafish", page: 1, audience: "admin" });
    expect(result.hits.map((hit) => hit.title).sort()).toEqual([...items.keys()].sort());
    expect(result.total).toBe(items.size);
  });

  it("finds by the text beside the title (a post's body, a video's description) and marks it", async () => {
    const result = await searchSite(database.db, { lang: "en", query: "stripe", page: 1 });
    expect(result.hits.map((hit) => hit.title).sort()).toEqual(
      ["Zebrafish post published", "Zebrafish post due", "Zebrafish faq active", "Zebrafish video active"].sort(),
    );
    for (const hit of result.hits)
      expect(hit.snippet).toEqual([
        { text: "Stripes", match: true },
        { text: ".", match: false },
      ]);
  });

  it("gives each kind its address and a picture its thumbnail", async () => {
    const result = await searchSite(database.db, { lang: "en", query: "zebrafish", page: 1 });
    const byKind = new Map(result.hits.map((hit) => [hit.kind, hit]));
    expect(byKind.get("post")?.url).toMatch(/^\/blog\/zebrafish-post-/);
    expect(byKind.get("picture")?.url).toMatch(/^\/\?image=/);
    expect(byKind.get("picture")?.thumbnail?.src).toMatch(/^\/media\/images\/.+\.jpg$/);
    expect(byKind.get("faq")?.url).toMatch(/^\/faq#faq-/);
    expect(byKind.get("video")?.url).toMatch(/^\/videos#video-/);
    expect(byKind.get("link")?.url).toBe("https://example.org/");
  });

  it("gives a post its cover and a video its poster as thumbnail, read with the hit (issue 22)", async () => {
    const db = database.db;
    const picture = await db
      .selectFrom("gallery_images as g")
      .innerJoin("images as i", "i.id", "g.image_id")
      .select("i.id")
      .where("g.title", "=", "Zebrafish picture published")
      .executeTakeFirstOrThrow();
    await db.updateTable("posts").set({ cover_image_id: picture.id }).execute();
    await db.updateTable("videos").set({ poster_image_id: picture.id }).execute();
    const result = await searchSite(db, { lang: "en", query: "zebrafish", page: 1 });
    const thumbnails = new Map(result.hits.map((hit) => [hit.kind, hit.thumbnail?.src ?? null]));
    const pictureSrc = thumbnails.get("picture");
    expect(pictureSrc).toMatch(/^\/media\/images\/.+\.jpg$/);
    expect(thumbnails.get("post")).toBe(pictureSrc);
    expect(thumbnails.get("video")).toBe(pictureSrc);
    expect(thumbnails.get("faq")).toBeNull();
    expect(thumbnails.get("link")).toBeNull();
  });
});
