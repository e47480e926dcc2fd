import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { ReorderError } from "#app/db/ordering.server.ts";
import { type ImageDisplay, imageSources } from "#app/domains/media/image-display.ts";
import { whenImageQueueIdle } from "#app/domains/media/image-finishing.server.ts";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { ERROR_LEVEL, loggedLines } from "#tests/support/error-logs.ts";
import { testPhoto, useGalleryTestStorage } from "#tests/support/gallery-factories.ts";
import { holdImageQueue } from "#tests/support/image-queue.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { GALLERY_PAGE_SIZE } from "./gallery.ts";
import {
  deleteGalleryEntry,
  GalleryNotFoundError,
  listGalleryForAdmin,
  reorderGallery,
  setGalleryPublished,
  updateGalleryTexts,
} from "./gallery-admin.server.ts";
import { listPublishedGallery } from "./gallery-public.server.ts";
import { galleryTextsSchema } from "./gallery-schema.ts";
import { createGalleryEntry } from "./gallery-upload.server.ts";

const actor = { id: "admin-1", email: "admin@example.test" };

describe.each(databaseKinds)("the gallery service (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const files = useGalleryTestStorage(() => database.db);
  const add = files.add;
  const auditActions = async () =>
    (await database.db.selectFrom("audit_log").select("action").orderBy("id").execute()).map((row) => row.action);

  it("lists only published pictures, in display order, with German texts falling back to English", async () => {
    const a = await add({
      title: "Harbour",
      title_de: "Hafen",
      description: "Boats",
      category: "City",
      category_de: "Stadt",
    });
    await add({ title: "Hidden", published: false });
    const c = await add({ title: "Lake", description: "Still", category: "Nature" });

    const english = await listPublishedGallery(database.db, { lang: "en" });
    expect(english.items.map((item) => item.title)).toEqual(["Harbour", "Lake"]);
    expect(english.total).toBe(2);
    const german = await listPublishedGallery(database.db, { lang: "de" });
    expect(german.items.map((item) => [item.title, item.description, item.category])).toEqual([
      ["Hafen", "Boats", "Stadt"],
      ["Lake", "Still", "Nature"],
    ]);
    expect(german.items[0]?.image).toMatchObject({ width: 360, height: 240 });
    expect(imageSources(german.items[0]?.image as ImageDisplay).sources.avif).toMatch(/^\/media\/images\//);

    await reorderGallery(database.db, actor, [
      c,
      a,
      ...(await database.db.selectFrom("gallery_images").select("id").where("title", "=", "Hidden").execute()).map(
        (row) => row.id,
      ),
    ]);
    expect((await listPublishedGallery(database.db, { lang: "en" })).items.map((item) => item.id)).toEqual([c, a]);
    // Recorded by the moved picture's title and its places, not by the ids.
    const moved = await database.db
      .selectFrom("audit_log")
      .select(["target", "old_value", "new_value"])
      .where("action", "=", "gallery.reorder")
      .executeTakeFirstOrThrow();
    expect(moved).toEqual({ target: "Lake", old_value: "3/3", new_value: "1/3" });
  });

  it("offers the categories in the visitor's language and filters by the English one", async () => {
    await add({ title: "One", category: "Nature", category_de: "Natur" });
    await add({ title: "Two", category: "City", category_de: "Stadt" });
    await add({ title: "Three", category: "Nature", category_de: "Natur" });
    await add({ title: "Four" });
    await add({ title: "Secret", category: "Private", published: false });

    const german = await listPublishedGallery(database.db, { lang: "de", category: "Nature" });
    expect(german.categories).toEqual([
      { key: "Nature", label: "Natur" },
      { key: "City", label: "Stadt" },
    ]);
    expect(german.category).toBe("Nature");
    expect(german.items.map((item) => item.title)).toEqual(["One", "Three"]);
    // An unknown (or unpublished-only) category shows everything rather than nothing.
    const unknown = await listPublishedGallery(database.db, { lang: "en", category: "Private" });
    expect(unknown.category).toBeNull();
    expect(unknown.total).toBe(4);
  });

  it("pages the pictures and opens a shared picture on its own page", async () => {
    const ids: string[] = [];
    for (let index = 0; index < GALLERY_PAGE_SIZE + 3; index++) ids.push(await add({ title: `P${index + 1}` }));

    const first = await listPublishedGallery(database.db, { lang: "en" });
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: GALLERY_PAGE_SIZE + 3 });
    expect(first.items).toHaveLength(GALLERY_PAGE_SIZE);
    const second = await listPublishedGallery(database.db, { lang: "en", page: 2 });
    expect(second.items.map((item) => item.title)).toEqual([`P25`, `P26`, `P27`]);
    expect((await listPublishedGallery(database.db, { lang: "en", page: 99 })).page).toBe(2);

    const shared = await listPublishedGallery(database.db, { lang: "en", imageId: ids[25] });
    expect(shared.page).toBe(2);
    expect(shared.openId).toBe(ids[25]);
    expect(shared.items.map((item) => item.id)).toContain(ids[25]);

    await setGalleryPublished(database.db, actor, ids[25] ?? "", false);
    const hidden = await listPublishedGallery(database.db, { lang: "en", imageId: ids[25] });
    expect(hidden.openId).toBeNull();
    expect(hidden.page).toBe(1);
  });

  it("lists every picture for the admin, unpublished too, with both languages", async () => {
    await add({ title: "Shown", title_de: "Gezeigt" });
    await add({ title: "Hidden", published: false });
    const items = await listGalleryForAdmin(database.db);
    expect(items.map((item) => [item.title, item.titleDe, item.published])).toEqual([
      ["Shown", "Gezeigt", true],
      ["Hidden", "", false],
    ]);
  });

  it("records every write in the audit log, and refuses unknown pictures", async () => {
    const file = path.join(files.dir, "upload.jpg");
    fs.writeFileSync(file, files.photo);
    const id = await createGalleryEntry(database.db, actor, file, {
      originalName: "upload.jpg",
      watermark: "",
      storage: files.storage,
    });
    await updateGalleryTexts(database.db, actor, id, {
      title: "New",
      title_de: "Neu",
      description: "",
      description_de: "",
      category: "",
      category_de: "",
      alt: "",
      alt_de: "",
    });
    await setGalleryPublished(database.db, actor, id, false);
    await reorderGallery(database.db, actor, [id]);
    await expect(reorderGallery(database.db, actor, [id, "missing"])).rejects.toBeInstanceOf(ReorderError);
    await deleteGalleryEntry(database.db, actor, id, files.storage);
    expect(await auditActions()).toEqual([
      "gallery.create",
      "gallery.update",
      "gallery.unpublish",
      "gallery.reorder",
      "gallery.delete",
    ]);
    const update = await database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "gallery.update")
      .executeTakeFirstOrThrow();
    expect(update).toMatchObject({ actor_email: actor.email, target: "New" });
    expect(JSON.parse(update.new_value ?? "{}")).toMatchObject({ title: "New", title_de: "Neu" });
    // The deleted picture is named by its title and texts, never by its image's id.
    const deleted = await database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "gallery.delete")
      .executeTakeFirstOrThrow();
    expect(deleted).toMatchObject({ target: "New" });
    expect(JSON.parse(deleted.old_value ?? "{}")).toEqual({ title: "New", description: "", category: "" });

    await expect(setGalleryPublished(database.db, actor, id, true)).rejects.toBeInstanceOf(GalleryNotFoundError);
    await expect(deleteGalleryEntry(database.db, actor, id, files.storage)).rejects.toBeInstanceOf(
      GalleryNotFoundError,
    );
    expect((await auditActions()).length).toBe(5);
  });

  it("deletes the picture's rows and every stored file", async () => {
    const id = await add({ title: "Gone" });
    const row = await database.db
      .selectFrom("gallery_images")
      .select("image_id")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const image = await database.db
      .selectFrom("images")
      .selectAll()
      .where("id", "=", row.image_id)
      .executeTakeFirstOrThrow();
    const keys = [image.original_key, ...parseVariants(image.variants).map((variant) => variant.key)];
    for (const key of keys) expect(await files.storage.stat(key), key).not.toBeNull();
    await deleteGalleryEntry(database.db, actor, id, files.storage);
    expect(await database.db.selectFrom("images").select("id").execute()).toEqual([]);
    for (const key of keys) expect(await files.storage.stat(key), key).toBeNull();
  });

  it("removes the stored image again when the gallery row cannot be written", async () => {
    const file = path.join(files.dir, "upload.jpg");
    fs.writeFileSync(file, files.photo);
    // A refused audit write (the table is gone) aborts the transaction after the image was stored.
    await database.db.schema.dropTable("audit_log").execute();
    await expect(
      createGalleryEntry(database.db, actor, file, {
        originalName: "upload.jpg",
        watermark: "",
        storage: files.storage,
      }),
    ).rejects.toThrow();
    expect(await database.db.selectFrom("images").select("id").execute()).toEqual([]);
    expect(await database.db.selectFrom("gallery_images").select("id").execute()).toEqual([]);
    expect([...(await files.storage.list("public/")), ...(await files.storage.list("private/"))]).toEqual([]);
  });

  describe("an upload answered before all its sizes exist", () => {
    let large: Buffer;
    beforeEach(async () => {
      large ??= await testPhoto({ width: 1600, height: 1000 });
    });
    const upload = (options: { storage?: FileStorage } = {}) => {
      const file = path.join(files.dir, `upload-${Math.random()}.jpg`);
      fs.writeFileSync(file, large);
      return createGalleryEntry(database.db, actor, file, {
        originalName: "upload.jpg",
        watermark: "",
        storage: options.storage ?? files.storage,
        published: true,
      });
    };
    const imageOf = async (pictureId: string) =>
      database.db
        .selectFrom("gallery_images as g")
        .innerJoin("images as i", "i.id", "g.image_id")
        .select(["i.id", "i.ready", "i.variants", "i.original_key", "i.placeholder"])
        .where("g.id", "=", pictureId)
        .executeTakeFirstOrThrow();
    const filesUnder = async (prefix: string) => (await files.storage.list(prefix, { limit: 1000 })).map((f) => f.key);

    it("is hidden from visitors with its first size only, then ready and shown with every size", async () => {
      // Held back, so that what the upload answers with can be seen before the rest is made.
      const { release, done: gate } = holdImageQueue();
      const id = await upload();
      const pending = await imageOf(id);
      expect(Boolean(pending.ready)).toBe(false);
      expect(await files.storage.stat(pending.original_key)).not.toBeNull();
      const first = parseVariants(pending.variants);
      expect(first.map((variant) => [variant.width, variant.format])).toEqual([
        [320, "avif"],
        [320, "webp"],
        [320, "jpeg"],
      ]);
      for (const variant of first) expect(await files.storage.stat(variant.key), variant.key).not.toBeNull();
      expect(pending.placeholder).toMatch(/^data:image\/webp;base64,/);
      expect((await listPublishedGallery(database.db, { lang: "en" })).items).toEqual([]);
      // The admin sees it at once, with its thumbnail.
      const [listed] = await listGalleryForAdmin(database.db);
      expect(listed?.id).toBe(id);
      expect(listed ? imageSources(listed.image).fallback.src : "").toContain(first[2]?.key.slice("public/".length));

      release();
      await gate;
      await whenImageQueueIdle();
      const finished = await imageOf(id);
      expect(Boolean(finished.ready)).toBe(true);
      const variants = parseVariants(finished.variants);
      expect([...new Set(variants.map((variant) => variant.width))]).toEqual([320, 640, 960, 1280, 1600]);
      expect(variants).toHaveLength(5 * 3);
      for (const variant of variants) {
        const stored = await sharp(await fs.promises.readFile(path.join(files.dir, "storage", variant.key))).metadata();
        expect([stored.width, stored.height], variant.key).toEqual([variant.width, variant.height]);
      }
      // Exactly the files the row names, and the original.
      expect((await filesUnder(`public/images/${finished.id}/`)).sort()).toEqual(
        variants.map((variant) => variant.key).sort(),
      );
      expect((await listPublishedGallery(database.db, { lang: "en" })).items.map((item) => item.id)).toEqual([id]);
    });

    it("can be deleted while its sizes are being made: no file is left, and nothing fails", async () => {
      // A storage that holds the background work at its first file, to delete the picture right then.
      let hold = false;
      let reached = () => {};
      const reachedSave = new Promise<void>((resolve) => (reached = resolve));
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const holding: FileStorage = {
        ...files.storage,
        async save(key, data, options) {
          if (hold && key.startsWith("public/images/")) {
            hold = false;
            reached();
            await released;
          }
          return files.storage.save(key, data, options);
        },
      };
      const id = await upload({ storage: holding });
      hold = true;
      await reachedSave;
      await deleteGalleryEntry(database.db, actor, id, files.storage);
      release();
      await whenImageQueueIdle();

      // And deleted before its work even started.
      const { release: open, done: gate } = holdImageQueue();
      const queued = await upload();
      await deleteGalleryEntry(database.db, actor, queued, files.storage);
      open();
      await gate;
      await whenImageQueueIdle();

      // A failed background job is logged through the app's logger (finishImageInBackground), not the console.
      expect(loggedLines(ERROR_LEVEL).map((line) => line.record.msg)).toEqual([]);
      expect(await database.db.selectFrom("images").select("id").execute()).toEqual([]);
      expect([...(await filesUnder("public/")), ...(await filesUnder("private/"))]).toEqual([]);
    });
  });

  it("checks the texts: lengths, and a German category needs the English one", () => {
    const valid = { title: " A ", title_de: "", description: "", description_de: "", category: "", category_de: "" };
    expect(galleryTextsSchema.parse(valid).title).toBe("A");
    expect(galleryTextsSchema.safeParse({ ...valid, title: "x".repeat(201) }).success).toBe(false);
    const germanOnly = galleryTextsSchema.safeParse({ ...valid, category_de: "Natur" });
    expect(germanOnly.success).toBe(false);
    expect(germanOnly.error?.issues[0]?.path).toEqual(["category"]);
  });
});
