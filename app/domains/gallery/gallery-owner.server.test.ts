import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { whenImageQueueIdle } from "#app/domains/media/image-finishing.server.ts";
import { useGalleryTestStorage } from "#tests/support/gallery-factories.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { titleFromFileName } from "./gallery.ts";
import {
  applyGalleryBulkAction,
  GalleryNotFoundError,
  listGalleryCategories,
  listGalleryForAdmin,
  reorderGallery,
  updateGalleryTexts,
} from "./gallery-admin.server.ts";
import { listLatestPublishedGallery, listPublishedGallery } from "./gallery-public.server.ts";
import { galleryBulkSchema, galleryUploadSchema } from "./gallery-schema.ts";
import { createGalleryEntry } from "./gallery-upload.server.ts";

const actor = { id: "admin-1", email: "admin@example.test" };

describe("a new picture's title from its file name", () => {
  it.each([
    ["alpine-lake_02.jpg", "Alpine lake 02"],
    ["01-alpine-lake.jpg", "Alpine lake"],
    ["10 coffee still life.jpg", "Coffee still life"],
    ["001_harbour.png", "Harbour"],
    ["2024-05-01 beach walk.webp", "Beach walk"],
    ["07.jpg", "07"],
    ["2024-05-01.jpg", "2024 05 01"],
    ["IMG_4711.JPG", "IMG 4711"],
    ["IMG_0001.jpg", "IMG 0001"],
    ["route66.jpg", "Route66"],
    ["  sommer.abend--am_see.webp", "Sommer abend am see"],
    ["über den wolken.avif", "Über den wolken"],
    ["folder/sub\\night.png", "Night"],
    ["no-extension", "No extension"],
    [".jpg", ""],
  ])("%s → %s", (fileName, title) => {
    expect(titleFromFileName(fileName)).toBe(title);
  });

  it("keeps within the title's 200 characters", () => {
    expect(titleFromFileName(`${"a".repeat(300)}.jpg`)).toHaveLength(200);
  });
});

describe("the uploader's and the bulk action's input", () => {
  it("defaults an upload to hidden at the bottom, and refuses unknown choices", () => {
    expect(galleryUploadSchema.parse({})).toEqual({ publish: "later", placement: "bottom" });
    expect(galleryUploadSchema.safeParse({ publish: "yes" }).success).toBe(false);
    expect(galleryUploadSchema.safeParse({ placement: "middle" }).success).toBe(false);
    expect(galleryUploadSchema.safeParse({ after: "'; drop table" }).success).toBe(false);
  });

  it("takes a list of ids and one known action", () => {
    const ok = galleryBulkSchema.parse({ bulk: "publish", ids: "a1,b2", category: "" });
    expect(ok.ids).toEqual(["a1", "b2"]);
    expect(galleryBulkSchema.safeParse({ bulk: "publish", ids: "" }).success).toBe(false);
    expect(galleryBulkSchema.safeParse({ bulk: "explode", ids: "a1" }).success).toBe(false);
    expect(galleryBulkSchema.safeParse({ bulk: "category", ids: "a1", category: "x".repeat(81) }).success).toBe(false);
  });
});

describe.each(databaseKinds)("the owner's gallery tools (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const files = useGalleryTestStorage(() => database.db);
  const add = files.add;
  const upload = async (
    originalName: string,
    options: Partial<Parameters<typeof createGalleryEntry>[3]> = {},
  ): Promise<string> => {
    const file = path.join(files.dir, `upload-${Math.random()}.jpg`);
    fs.writeFileSync(file, files.photo);
    const id = await createGalleryEntry(database.db, actor, file, {
      originalName,
      watermark: "",
      storage: files.storage,
      ...options,
    });
    await whenImageQueueIdle();
    return id;
  };
  const adminTitles = async () => (await listGalleryForAdmin(database.db)).map((item) => item.title);
  const audit = async () =>
    (await database.db.selectFrom("audit_log").select(["action", "target"]).orderBy("id").execute()).map(
      (row) => `${row.action} ${row.target}`,
    );

  it("titles an upload after its file name in English only and keeps it hidden unless asked to publish", async () => {
    await upload("alpine-lake_02.jpg");
    await upload("10 coffee still life.png", { published: true });
    const items = await listGalleryForAdmin(database.db);
    expect(items.map((item) => [item.title, item.titleDe, item.published])).toEqual([
      ["Alpine lake 02", "", false],
      ["Coffee still life", "", true],
    ]);
    const visible = await listPublishedGallery(database.db, { lang: "de" });
    expect(visible.items.map((item) => item.title)).toEqual(["Coffee still life"]);

    // The owner writes only the English title: German visitors see it, not the file's name.
    const coffee = items[1];
    if (!coffee) throw new Error("no second picture");
    await updateGalleryTexts(database.db, actor, coffee.id, {
      title: "Coffee, late afternoon",
      title_de: "",
      description: "",
      description_de: "",
      category: "",
      category_de: "",
      alt: "",
      alt_de: "",
    });
    const german = await listPublishedGallery(database.db, { lang: "de" });
    expect(german.items.map((item) => [item.title, item.alt])).toEqual([
      ["Coffee, late afternoon", "Coffee, late afternoon"],
    ]);
  });

  it("puts new pictures at the bottom or the top, and a batch at the top keeps its order", async () => {
    await upload("old-one.jpg");
    await upload("old-two.jpg");
    await upload("last.jpg", { placement: "bottom" });
    const first = await upload("batch-a.jpg", { placement: "top" });
    const second = await upload("batch-b.jpg", { placement: "top", after: first });
    await upload("batch-c.jpg", { placement: "top", after: second });
    expect(await adminTitles()).toEqual(["Batch a", "Batch b", "Batch c", "Old one", "Old two", "Last"]);
    // A later upload to the top (a new batch) comes before them all; one naming a deleted picture goes first too.
    await upload("newest.jpg", { placement: "top" });
    await upload("orphan.jpg", { placement: "top", after: "no-such-picture" });
    expect((await adminTitles()).slice(0, 3)).toEqual(["Orphan", "Newest", "Batch a"]);
  });

  it("gives visitors the alt text in their language, German falling back to English, else the title", async () => {
    await add({ title: "Lake", title_de: "See", alt: "A still lake below snowy peaks", alt_de: "Ein stiller See" });
    await add({ title: "Harbour", title_de: "Hafen", alt: "Boats in a harbour at dawn" });
    await add({ title: "Bridge", title_de: "Brücke" });
    await add({ title: "" });
    const alts = async (lang: "en" | "de") =>
      (await listPublishedGallery(database.db, { lang })).items.map((item) => item.alt);
    expect(await alts("en")).toEqual(["A still lake below snowy peaks", "Boats in a harbour at dawn", "Bridge", ""]);
    expect(await alts("de")).toEqual(["Ein stiller See", "Boats in a harbour at dawn", "Brücke", ""]);
    const latest = await listLatestPublishedGallery(database.db, { lang: "de", limit: 6 });
    expect(latest.map((item) => item.alt)).toEqual(["", "Brücke", "Boats in a harbour at dawn", "Ein stiller See"]);
    const admin = await listGalleryForAdmin(database.db);
    expect(admin[0]).toMatchObject({ alt: "A still lake below snowy peaks", altDe: "Ein stiller See" });
  });

  it("publishes, hides, sets the category of and deletes several pictures at once, one audit entry each", async () => {
    const lake = await add({ title: "Lake", published: false });
    const harbour = await add({ title: "Harbour", published: false });
    const bridge = await add({ title: "Bridge", category: "City", category_de: "Stadt" });
    const before = (await audit()).length;

    const names = await applyGalleryBulkAction(
      database.db,
      actor,
      { action: "publish", ids: [lake, harbour] },
      files.storage,
    );
    expect(names.sort()).toEqual(["Harbour", "Lake"]);
    expect((await listPublishedGallery(database.db, { lang: "en" })).total).toBe(3);

    await applyGalleryBulkAction(database.db, actor, { action: "hide", ids: [harbour, bridge] }, files.storage);
    expect((await listPublishedGallery(database.db, { lang: "en" })).items.map((item) => item.title)).toEqual(["Lake"]);

    // An existing category brings its German label along.
    await applyGalleryBulkAction(
      database.db,
      actor,
      { action: "category", ids: [lake, harbour], category: "City" },
      files.storage,
    );
    const items = await listGalleryForAdmin(database.db);
    expect(items.map((item) => [item.title, item.category, item.categoryDe])).toEqual([
      ["Lake", "City", "Stadt"],
      ["Harbour", "City", "Stadt"],
      ["Bridge", "City", "Stadt"],
    ]);
    expect(await listGalleryCategories(database.db)).toEqual([{ en: "City", de: "Stadt" }]);

    await applyGalleryBulkAction(database.db, actor, { action: "delete", ids: [lake, bridge] }, files.storage);
    expect(await adminTitles()).toEqual(["Harbour"]);
    expect(await database.db.selectFrom("images").select("id").execute()).toHaveLength(1);

    const entries = (await audit()).slice(before);
    expect(entries).toEqual(
      expect.arrayContaining([
        "gallery.publish Lake",
        "gallery.publish Harbour",
        "gallery.unpublish Harbour",
        "gallery.unpublish Bridge",
        "gallery.update Lake",
        "gallery.update Harbour",
        "gallery.delete Lake",
        "gallery.delete Bridge",
      ]),
    );
    expect(entries).toHaveLength(8);
  });

  it("changes nothing at all when one of the pictures no longer exists", async () => {
    const lake = await add({ title: "Lake", published: false });
    const harbour = await add({ title: "Harbour", published: false });
    // Sorted last: the pictures before it are written before the missing one is found, then rolled back.
    const missing = "zzzzzzzz-0000-0000-0000-000000000000";
    const auditBefore = await audit();
    const filesBefore = [...(await files.storage.list("public/")), ...(await files.storage.list("private/"))].sort();

    for (const action of ["publish", "category", "delete"] as const) {
      await expect(
        applyGalleryBulkAction(
          database.db,
          actor,
          { action, ids: [lake, harbour, missing], category: "Sea" },
          files.storage,
        ),
      ).rejects.toBeInstanceOf(GalleryNotFoundError);
    }
    const items = await listGalleryForAdmin(database.db);
    expect(items.map((item) => [item.title, item.published, item.category])).toEqual([
      ["Lake", false, ""],
      ["Harbour", false, ""],
    ]);
    expect(await audit()).toEqual(auditBefore);
    expect([...(await files.storage.list("public/")), ...(await files.storage.list("private/"))].sort()).toEqual(
      filesBefore,
    );
  });

  it("moves a picture to the top or the bottom, and visitors see that order", async () => {
    const a = await add({ title: "A" });
    const b = await add({ title: "B" });
    const c = await add({ title: "C" });
    // What the list's "move to the top" of C and then "move to the bottom" of A send.
    await reorderGallery(database.db, actor, [c, a, b]);
    expect(await adminTitles()).toEqual(["C", "A", "B"]);
    await reorderGallery(database.db, actor, [c, b, a]);
    expect((await listPublishedGallery(database.db, { lang: "en" })).items.map((item) => item.title)).toEqual([
      "C",
      "B",
      "A",
    ]);
  });
});
