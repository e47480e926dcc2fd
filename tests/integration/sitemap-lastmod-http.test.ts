import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAudit } from "#app/domains/audit/audit.server.ts";
import { setPictureAccess } from "#app/domains/gallery/gallery-access.server.ts";
import { deleteGalleryEntry, updateGalleryTexts } from "#app/domains/gallery/gallery-admin.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { setVideoAccess } from "#app/domains/videos/video-access.server.ts";
import { startServerOnFreshDatabase, stopServerAndDatabase } from "#tests/support/admin-server.ts";
import { createUser, insertFaqRow } from "#tests/support/factories.ts";
import { createGalleryPicture, factoryActor, galleryTexts, storageIn } from "#tests/support/gallery-factories.ts";
import { parseSitemap } from "#tests/support/seo.ts";
import { request, type ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";
import { createUploadedVideo } from "#tests/support/video-factories.ts";

/*
 * Issue 42, item 1: a page's `<lastmod>` in the sitemap is the last change of what that page shows a visitor. A
 * change to a Family-only picture or video, edited or deleted, moved the gallery's and the start page's dates while
 * the pages were byte for byte the same for a visitor: the sitemap told that something hidden had changed.
 */

const WATCHED = ["/", "/?lang=de", "/home", "/home?lang=de", "/videos", "/videos?lang=de"];

describe.each(databaseKinds)("the sitemap's last changes are a visitor's (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let storage: FileStorage;
  let family: string;
  let faqId: string;
  let probes = 0;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    const db = database.db;
    await createUser(db, { admin: true });
    storage = storageIn(database.location.dataDir);
    family = crypto.randomUUID();
    await db.insertInto("member_groups").values({ id: family, name: "Family", created_at: new Date() }).execute();
    faqId = await insertFaqRow(db, { question: "Probe 0", active: true });
    await createUploadedVideo(db, storage, { title: "A video for everyone" });
  }, 120_000);

  afterAll(() => stopServerAndDatabase(server, database));

  const restrict = async (set: typeof setPictureAccess | typeof setVideoAccess, id: string) => {
    const result = await set(database.db, storage, factoryActor, id, { visibility: "groups", group_ids: family });
    expect(result.ok, JSON.stringify(result)).toBe(true);
  };

  /** Each page's `<lastmod>`, and the FAQ's, once the server has seen the test's writes. */
  async function lastmods(): Promise<Record<string, string | undefined>> {
    // A write visitors see on another page, after the test's own: once the sitemap shows it, the server has seen
    // every write before it (a kept sitemap is otherwise the same before and after a write it must not show).
    probes += 1;
    const before = (await readSitemap())["/faq"];
    await new Promise((resolve) => setTimeout(resolve, 15));
    await database.db
      .updateTable("faq_entries")
      .set({ question: `Probe ${probes}`, updated_at: new Date() })
      .where("id", "=", faqId)
      .execute();
    for (let attempt = 0; attempt < 100; attempt++) {
      const pages = await readSitemap();
      if (pages["/faq"] !== before) return pages;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the server never showed the probe's change");
  }

  async function readSitemap(): Promise<Record<string, string | undefined>> {
    const response = await request(server.url("/sitemap.xml"));
    expect(response.status).toBe(200);
    return Object.fromEntries(
      parseSitemap(response.body).map((url) => [url.loc.slice(server.origin.length), url.lastmod]),
    );
  }

  const watched = (pages: Record<string, string | undefined>) => WATCHED.map((path) => [path, pages[path]]);

  it("stays when only a Family-only picture or video is edited or deleted, and moves when a visitor's is", async () => {
    const db = database.db;
    const hiddenPicture = await createGalleryPicture(db, storage, { title: "Family picnic", published: true });
    await restrict(setPictureAccess, hiddenPicture);
    const hiddenVideo = await createUploadedVideo(db, storage, { title: "Family video" });
    await restrict(setVideoAccess, hiddenVideo);
    const open = await createGalleryPicture(db, storage, { title: "Harbour", published: true });
    const start = await lastmods();
    for (const [path, lastmod] of watched(start)) expect(lastmod, path).toBeDefined();

    // The admin edits the Family picture's description, as the picture's editor does (with its audit entry).
    await new Promise((resolve) => setTimeout(resolve, 15));
    await updateGalleryTexts(
      db,
      factoryActor,
      hiddenPicture,
      galleryTexts({ title: "Family picnic", description: "Grandma's cake." }),
    );
    // And the Family video's title.
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("videos")
        .set({ title: "Family video, cut", updated_at: new Date() })
        .where("id", "=", hiddenVideo)
        .execute();
      await recordAudit(trx, factoryActor, { action: "videos.update", target: "Family video, cut" });
    });
    expect(watched(await lastmods())).toEqual(watched(start));

    // Deleted, they are still nothing a visitor saw.
    await deleteGalleryEntry(db, factoryActor, hiddenPicture, storage);
    await db.deleteFrom("videos").where("id", "=", hiddenVideo).execute();
    expect(watched(await lastmods())).toEqual(watched(start));

    // A picture visitors see, edited: the gallery and the start page move, the videos' page does not.
    await updateGalleryTexts(db, factoryActor, open, galleryTexts({ title: "Harbour at dusk" }));
    const edited = await lastmods();
    for (const path of ["/", "/?lang=de", "/home", "/home?lang=de"]) {
      expect(edited[path], path).not.toBe(start[path]);
      expect(String(edited[path]) > String(start[path]), path).toBe(true);
    }
    expect(edited["/videos"]).toBe(start["/videos"]);

    // Made Family-only, it goes from the visitors' gallery: that is a change they see.
    await restrict(setPictureAccess, open);
    const restricted = await lastmods();
    expect(String(restricted["/"]) > String(edited["/"])).toBe(true);
    expect(String(restricted["/home"]) > String(edited["/home"])).toBe(true);
  });
});
