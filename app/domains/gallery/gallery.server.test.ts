import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ReorderError } from "#app/db/ordering.server.ts";
import { parseVariants } from "#app/domains/media/images.server.ts";
import { createLocalStorage, type FileStorage } from "#app/domains/media/storage.server.ts";
import { createGalleryPicture, testPhoto } from "#tests/support/gallery-factories.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import {
  createGalleryEntry,
  deleteGalleryEntry,
  GalleryNotFoundError,
  listAdminGallery,
  listPublishedGallery,
  reorderGallery,
  setGalleryPublished,
  updateGalleryTexts,
} from "./gallery.server.ts";
import { GALLERY_PAGE_SIZE } from "./gallery.ts";
import { galleryTextsSchema } from "./gallery-schemas.ts";

const actor = { id: "admin-1", email: "admin@example.test" };

describe.each(databaseKinds)("the gallery service (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  let dir: string;
  let storage: FileStorage;
  // Small pictures: these tests are about the lists, not the pixels.
  let photo: Buffer;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-gallery-"));
    storage = createLocalStorage({ root: path.join(dir, "storage"), secret: "s" });
    photo ??= await testPhoto({ width: 360, height: 240 });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const add = (options: Parameters<typeof createGalleryPicture>[2] = {}) =>
    createGalleryPicture(database.db, storage, { photo, ...options });
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
    expect(german.items[0]?.image.sources.avif).toMatch(/^\/media\/images\//);

    await reorderGallery(database.db, actor, [
      c,
      a,
      ...(await database.db.selectFrom("gallery_images").select("id").where("title", "=", "Hidden").execute()).map(
        (row) => row.id,
      ),
    ]);
    expect((await listPublishedGallery(database.db, { lang: "en" })).items.map((item) => item.id)).toEqual([c, a]);
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
    const items = await listAdminGallery(database.db);
    expect(items.map((item) => [item.title, item.titleDe, item.published])).toEqual([
      ["Shown", "Gezeigt", true],
      ["Hidden", "", false],
    ]);
  });

  it("records every write in the audit log, and refuses unknown pictures", async () => {
    const file = path.join(dir, "upload.jpg");
    fs.writeFileSync(file, photo);
    const id = await createGalleryEntry(database.db, actor, file, {
      originalName: "upload.jpg",
      watermark: "",
      storage,
    });
    await updateGalleryTexts(database.db, actor, id, {
      title: "New",
      title_de: "Neu",
      description: "",
      description_de: "",
      category: "",
      category_de: "",
    });
    await setGalleryPublished(database.db, actor, id, false);
    await reorderGallery(database.db, actor, [id]);
    await expect(reorderGallery(database.db, actor, [id, "missing"])).rejects.toBeInstanceOf(ReorderError);
    await deleteGalleryEntry(database.db, actor, id, storage);
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

    await expect(setGalleryPublished(database.db, actor, id, true)).rejects.toBeInstanceOf(GalleryNotFoundError);
    await expect(deleteGalleryEntry(database.db, actor, id, storage)).rejects.toBeInstanceOf(GalleryNotFoundError);
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
    for (const key of keys) expect(await storage.stat(key), key).not.toBeNull();
    await deleteGalleryEntry(database.db, actor, id, storage);
    expect(await database.db.selectFrom("images").select("id").execute()).toEqual([]);
    for (const key of keys) expect(await storage.stat(key), key).toBeNull();
  });

  it("removes the stored image again when the gallery row cannot be written", async () => {
    const file = path.join(dir, "upload.jpg");
    fs.writeFileSync(file, photo);
    // A refused audit write (the table is gone) aborts the transaction after the image was stored.
    await database.db.schema.dropTable("audit_log").execute();
    await expect(
      createGalleryEntry(database.db, actor, file, { originalName: "upload.jpg", watermark: "", storage }),
    ).rejects.toThrow();
    expect(await database.db.selectFrom("images").select("id").execute()).toEqual([]);
    expect(await database.db.selectFrom("gallery_images").select("id").execute()).toEqual([]);
    expect([...(await storage.list("public/")), ...(await storage.list("private/"))]).toEqual([]);
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
