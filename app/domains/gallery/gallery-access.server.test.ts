import { describe, expect, it } from "vitest";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import { sweepOrphanFiles } from "#app/domains/media/image-sweeps.server.ts";
import { refreshWatermarks } from "#app/domains/media/image-watermarks.server.ts";
import { useGalleryTestStorage } from "#tests/support/gallery-factories.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { setPictureAccess } from "./gallery-access.server.ts";

/*
 * A restricted picture's files stay in its member folder through what else rewrites or sweeps files: a redraw of
 * the watermark, the sweep of unreferenced files. The matrix over HTTP is tests/integration/picture-access-http.test.ts.
 */
describe.each(databaseKinds)("a restricted picture's files (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const db = () => database.db;
  const gallery = useGalleryTestStorage(db);

  async function restricted() {
    const id = await gallery.add({ title: "Shore", published: true, width: 1400, height: 900 });
    expect((await setPictureAccess(db(), gallery.storage, testAdmin, id, { visibility: "members" })).ok).toBe(true);
    const row = await db()
      .selectFrom("gallery_images as g")
      .innerJoin("images as i", "i.id", "g.image_id")
      .select(["i.id", "i.variants", "i.private_folder"])
      .where("g.id", "=", id)
      .executeTakeFirstOrThrow();
    return row;
  }
  const keysOf = async (imageId: string) => {
    const row = await db().selectFrom("images").select("variants").where("id", "=", imageId).executeTakeFirstOrThrow();
    return parseVariants(row.variants).map((variant) => variant.key);
  };

  it("keeps its redrawn sizes in its member folder, none under public names", async () => {
    const image = await restricted();
    const redrawn = await refreshWatermarks(
      db(),
      { watermark_enabled: "true", watermark_text: "Ours" },
      { storage: gallery.storage },
    );
    expect(redrawn).toEqual({ updated: 1, failed: 0 });
    const keys = await keysOf(image.id);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const key of keys) {
      expect(key.startsWith(`private/members/${image.private_folder}/`), key).toBe(true);
      expect(await gallery.storage.stat(key), key).not.toBeNull();
    }
    expect(await gallery.storage.list(`public/images/${image.id}/`)).toEqual([]);
  });

  it("is kept by the sweep of unreferenced files, which takes what no image names in a member folder", async () => {
    const image = await restricted();
    const stray = `private/members/${"0".repeat(48)}/320-00.avif`;
    await gallery.storage.save(stray, Buffer.from("left by an interrupted move"));
    const later = { olderThanMs: 60 * 60_000, storage: gallery.storage, now: Date.now() + 2 * 60 * 60_000 };
    expect((await sweepOrphanFiles(db(), later)).removed).toEqual([stray]);
    for (const key of await keysOf(image.id)) expect(await gallery.storage.stat(key), key).not.toBeNull();
  });
});
