import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { testPhoto, useGalleryTestStorage } from "#tests/support/gallery-factories.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { createPost, setPostStatus, updatePost } from "./post-admin.server.ts";
import { imageIdsOfPost, mayReadPostFolder, placeAllPostImages } from "./post-image-places.server.ts";
import { storePostImage } from "./post-images.server.ts";

const ID_A = "0b5c2a64-3f0e-4c1a-9d2e-5a6b7c8d9e0f";
const ID_B = "1c6d3b75-4a1f-4d2b-8e3f-6b7c8d9e0f1a";

describe("the pictures a post shows", () => {
  it("are its cover and every picture its text names in either language, once each", () => {
    const post = {
      cover_image_id: ID_A,
      body: `![Lake](image:${ID_B})\n\n![Again](image:${ID_B} "title")`,
      body_de: `![See](image:${ID_A}) and [a link](https://example.test/image:nothing)`,
    };
    expect(imageIdsOfPost(post).toSorted()).toEqual([ID_A, ID_B].toSorted());
    expect(imageIdsOfPost({ cover_image_id: null, body: "image:not-an-id", body_de: "" })).toEqual([]);
  });
});

describe.each(databaseKinds)("placing posts' pictures (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const db = () => database.db;
  const files = useGalleryTestStorage(db);

  const picture = async (name: string) => {
    const file = path.join(files.dir, name);
    fs.writeFileSync(file, await testPhoto({ width: 700, height: 500, label: name }));
    return (await storePostImage(db(), testAdmin, file, { originalName: name, watermark: "", storage: files.storage }))
      .id;
  };
  const placeOf = async (imageId: string) => {
    const row = await db()
      .selectFrom("images")
      .select(["variants", "private_folder"])
      .where("id", "=", imageId)
      .executeTakeFirstOrThrow();
    const keys = parseVariants(row.variants).map((variant) => variant.key);
    const present = await Promise.all(keys.map(async (key) => (await files.storage.stat(key)) !== null));
    expect(present.every(Boolean), "every size where the row says").toBe(true);
    return { folder: row.private_folder, keys };
  };

  it("moves what a restricted post shows (as an upgrade or a save cut short left it), once, and back", async () => {
    const [cover, inline] = [await picture("cover.jpg"), await picture("inline.jpg")];
    const before = await placeOf(cover);
    expect(before.folder).toBeNull();
    // Written without the editor's placing, as posts were before it existed.
    const made = await createPost(db(), testAdmin, {
      title: "For members",
      cover_image_id: cover,
      body: `![Boat](image:${inline})`,
      visibility: "members",
    });
    if (!made.ok) throw new Error("refused");
    expect(await placeAllPostImages(db(), files.storage)).toBe(2);
    const after = await placeOf(cover);
    expect(after.folder).toMatch(/^[0-9a-f]{48}$/);
    expect(after.keys.every((key) => key.startsWith(`private/members/${after.folder}/`))).toBe(true);
    // The public names are gone, every size of them.
    for (const key of before.keys) expect(await files.storage.stat(key)).toBeNull();
    expect((await placeOf(inline)).folder).toMatch(/^[0-9a-f]{48}$/);
    expect(await placeAllPostImages(db(), files.storage)).toBe(0);

    // Its readers may read the folder once the post is out; a visitor never; nobody while it is a draft.
    const member = { kind: "member" as const, userId: (await createUser(db())).id, groupIds: [] };
    const folder = after.folder ?? "";
    expect(await mayReadPostFolder(db(), member, folder)).toBe(false);
    await setPostStatus(db(), testAdmin, made.id, { status: "published" });
    expect(await mayReadPostFolder(db(), member, folder)).toBe(true);
    expect(await mayReadPostFolder(db(), { kind: "visitor" }, folder)).toBe(false);
    expect(await mayReadPostFolder(db(), member, "0".repeat(48))).toBe(false);
    // A picture the post no longer shows is no longer its readers' at once (what shows what is kept per change).
    const inlineFolder = (await placeOf(inline)).folder ?? "";
    expect(await mayReadPostFolder(db(), member, inlineFolder)).toBe(true);
    const without = { title: "For members", cover_image_id: cover, body: "No picture", visibility: "members" };
    expect((await updatePost(db(), testAdmin, made.id, without)).ok).toBe(true);
    expect(await mayReadPostFolder(db(), member, inlineFolder)).toBe(false);
    expect(await mayReadPostFolder(db(), member, folder)).toBe(true);

    // For everyone again: public names, the member folder empty.
    const saved = await updatePost(db(), testAdmin, made.id, {
      title: "For members",
      cover_image_id: cover,
      body: `![Boat](image:${inline})`,
      visibility: "everyone",
    });
    expect(saved.ok).toBe(true);
    expect(await placeAllPostImages(db(), files.storage)).toBe(2);
    expect(await placeOf(cover)).toEqual({ folder: null, keys: before.keys });
    for (const key of after.keys) expect(await files.storage.stat(key)).toBeNull();
  });
});
