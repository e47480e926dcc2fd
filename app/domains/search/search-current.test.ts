import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/database.server.ts";
import { createBackup } from "#app/domains/backup/backup.server.ts";
import { restoreBackup } from "#app/domains/backup/restore.server.ts";
import { localized } from "#app/domains/content/content.server.ts";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { deleteGalleryEntry, updateGalleryTexts } from "#app/domains/gallery/gallery-admin.server.ts";
import { linksService } from "#app/domains/links/links.server.ts";
import { createPost, deletePost, setPostStatus, updatePost } from "#app/domains/posts/post-admin.server.ts";
import { localizedText, reindexAll } from "#app/domains/search-index/search-index.server.ts";
import { videosService } from "#app/domains/videos/videos.server.ts";
import { createEmptyTarget } from "#tests/support/backup-dump.ts";
import { galleryTexts, storageIn, useGalleryTestStorage } from "#tests/support/gallery-factories.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { searchSite } from "./search.server.ts";

/*
 * Issue 22: the index is written in the transaction of every change of what it indexes, so a create is found, an
 * update found by its new words only, and a delete no longer found, at once; `reindexAll` rebuilds it all.
 */

describe.each(databaseKinds)("search: always current (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const files = useGalleryTestStorage(() => database.db);

  /** The titles a visitor finds for a query. */
  async function found(query: string, lang: "en" | "de" = "en"): Promise<string[]> {
    return (await searchSite(database.db, { lang, query, page: 1 })).hits.map((hit) => hit.title);
  }

  it("a post", async () => {
    const db = database.db;
    const created = await createPost(db, testAdmin, { title: "Walrus diary", body: "About **tusks**.", tags: "sea" });
    if (!created.ok) throw new Error("refused");
    await setPostStatus(db, testAdmin, created.id, { status: "published" });
    expect(await found("walrus")).toEqual(["Walrus diary"]);
    expect(await found("tusk")).toEqual(["Walrus diary"]);
    expect(await found("sea")).toEqual(["Walrus diary"]);
    await updatePost(db, testAdmin, created.id, {
      title: "Narwhal diary",
      title_de: "Narwal-Tagebuch",
      body: "Horns.",
    });
    expect(await found("walrus")).toEqual([]);
    expect(await found("tusk")).toEqual([]);
    expect(await found("narwhal")).toEqual(["Narwhal diary"]);
    expect(await found("Tagebuch", "de")).toEqual(["Narwal-Tagebuch"]);
    await deletePost(db, testAdmin, created.id);
    expect(await found("narwhal")).toEqual([]);
  });

  it("a picture", async () => {
    const db = database.db;
    const id = await files.add({ title: "Heron at dawn" });
    expect(await found("heron")).toEqual(["Heron at dawn"]);
    await updateGalleryTexts(
      db,
      testAdmin,
      id,
      galleryTexts({ title: "Egret at dusk", alt: "A white bird", category: "Birds" }),
    );
    expect(await found("heron")).toEqual([]);
    expect(await found("egret")).toEqual(["Egret at dusk"]);
    expect(await found("bird")).toEqual(["Egret at dusk"]);
    await deleteGalleryEntry(db, testAdmin, id, files.storage);
    expect(await found("egret")).toEqual([]);
  });

  it("a question, a video and a link", async () => {
    const db = database.db;
    const { storage } = files;
    const faq = idOfAccepted(
      await faqService.create(db, testAdmin, { question: "Do you sell prints?", answer: "Yes.", active: true }),
    );
    const video = idOfAccepted(
      await videosService.create(db, testAdmin, {
        title: "Glacier timelapse",
        description: "Ice.",
        embed_url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
        active: true,
      }),
    );
    const link = idOfAccepted(
      await linksService.create(db, testAdmin, {
        title: "Portfolio",
        url: "https://photos.example.net/",
        active: true,
      }),
    );
    expect(await found("prints")).toEqual(["Do you sell prints?"]);
    expect(await found("glacier")).toEqual(["Glacier timelapse"]);
    // A link is found by its title and by the host it points to.
    expect(await found("photos example")).toEqual(["Portfolio"]);

    await faqService.update(db, testAdmin, faq, { question: "Do you sell posters?", answer: "No.", active: true });
    await videosService.update(db, testAdmin, video, {
      title: "Volcano timelapse",
      description: "Fire.",
      embed_url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
      active: true,
    });
    await linksService.update(db, testAdmin, link, { title: "Gallery", url: "https://art.example.net/", active: true });
    expect(await found("prints")).toEqual([]);
    expect(await found("poster")).toEqual(["Do you sell posters?"]);
    expect(await found("glacier")).toEqual([]);
    expect(await found("volcano")).toEqual(["Volcano timelapse"]);
    expect(await found("photos")).toEqual([]);
    expect(await found("art")).toEqual(["Gallery"]);

    await faqService.remove(db, testAdmin, faq, storage);
    await videosService.remove(db, testAdmin, video, storage);
    await linksService.remove(db, testAdmin, link, storage);
    expect(await found("poster")).toEqual([]);
    expect(await found("volcano")).toEqual([]);
    expect(await found("gallery")).toEqual([]);
  });

  it("a refused change leaves the index as it was", async () => {
    const db = database.db;
    const id = idOfAccepted(
      await faqService.create(db, testAdmin, { question: "Opening hours?", answer: "Always.", active: true }),
    );
    // A refused update (no question) writes nothing, the index included.
    const refused = await faqService.update(db, testAdmin, id, { question: "", answer: "Never.", active: true });
    expect(refused.ok).toBe(false);
    expect(await found("always")).toEqual(["Opening hours?"]);
  });

  it("rebuilds everything with reindexAll", async () => {
    const db = database.db;
    idOfAccepted(await faqService.create(db, testAdmin, { question: "Lighthouse?", answer: "Tall.", active: true }));
    await db.deleteFrom("search_documents").execute();
    expect(await found("lighthouse")).toEqual([]);
    expect(await reindexAll(db)).toEqual({ post: 0, picture: 0, faq: 1, video: 0, link: 0 });
    expect(await found("lighthouse")).toEqual(["Lighthouse?"]);
    // Twice in a row changes nothing.
    await reindexAll(db);
    expect(await found("lighthouse")).toEqual(["Lighthouse?"]);
  });

  it("leaves the rebuilt index as fast to read as it can be", async () => {
    const db = database.db;
    // Each save is its own transaction, and so its own piece of the index (FTS5's segments; PostgreSQL's rows in
    // the order they were written).
    for (const question of ["Heron?", "Egret?", "Stork?", "Crane?"]) {
      idOfAccepted(await faqService.create(db, testAdmin, { question, answer: "A bird.", active: true }));
    }
    await reindexAll(db);
    if (kind === "sqlite") {
      // Merged into one piece, without the deleted rows' markers: FTS5's `optimize` then finds nothing to rewrite.
      const blocks = sql<{ id: number; block: Uint8Array }>`SELECT id, block FROM search_fts_data ORDER BY id`;
      const before = (await blocks.execute(db)).rows;
      await sql`INSERT INTO search_fts (search_fts) VALUES ('optimize')`.execute(db);
      expect((await blocks.execute(db)).rows).toEqual(before);
    } else {
      // The rows on disk in the order of their ids, as a site that grew has them (the planner's costs follow it).
      const { rows } = await sql<{ id: string }>`SELECT id::text AS id FROM search_documents ORDER BY ctid`.execute(db);
      expect(rows.length).toBe(8);
      expect(rows.map((row) => row.id)).toEqual(
        rows.map((row) => row.id).toSorted((a, b) => Number(BigInt(a) - BigInt(b)) || 0),
      );
    }
    expect(await found("bird")).toHaveLength(4);
  });

  it("is in no backup, and a restore rebuilds it", async () => {
    const db = database.db;
    idOfAccepted(await faqService.create(db, testAdmin, { question: "Kingfisher?", answer: "Blue.", active: true }));
    const archive = path.join(files.dir, `search-${kind}.tar.gz`);
    const dataDir = database.location.dataDir;
    const backup = await createBackup({ database, dataDir, storage: storageIn(dataDir) }, archive);
    expect(Object.keys(backup.manifest.counts.rows)).toContain("faq_entries");
    expect(Object.keys(backup.manifest.counts.rows).filter((table) => table.startsWith("search_"))).toEqual([]);
    const target = await createEmptyTarget(kind);
    try {
      await restoreBackup(archive, target);
      const restored = openDatabase(
        target.databaseUrl
          ? { databaseUrl: target.databaseUrl }
          : { sqliteFile: path.join(target.dataDir, "vitrine.sqlite") },
      );
      try {
        const result = await searchSite(restored.db, { lang: "en", query: "kingfisher", page: 1 });
        expect(result.hits.map((hit) => hit.title)).toEqual(["Kingfisher?"]);
      } finally {
        await restored.close();
      }
    } finally {
      await target.destroy();
    }
  });
});

describe("the index's language fallback", () => {
  it("is the pages' own (localized in content.server.ts)", () => {
    for (const [english, german] of [
      ["Lake", "See"],
      ["Lake", ""],
      ["Lake", "  "],
      ["", "See"],
    ] as const) {
      for (const lang of ["en", "de"] as const) {
        expect(localizedText(english, german, lang)).toBe(localized(english, german, lang));
      }
    }
  });
});
