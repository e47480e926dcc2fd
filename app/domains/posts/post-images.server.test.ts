import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ImageError, variantWidths } from "#app/domains/media/image-encode.server.ts";
import { storeImage } from "#app/domains/media/image-pipeline.server.ts";
import { refreshWatermarks } from "#app/domains/media/image-watermarks.server.ts";
import { createLocalStorage, type FileStorage } from "#app/domains/media/storage.server.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { createPost } from "./post-admin.server.ts";
import { storePostImage } from "./post-images.server.ts";

describe.each(databaseKinds)("pictures of blog posts (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  let dir: string;
  let storage: FileStorage;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "post-images-"));
    storage = createLocalStorage({ root: path.join(dir, "storage"), secret: "s".repeat(32) });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const upload = async (name: string, data?: Buffer) => {
    const file = path.join(dir, name);
    const bytes =
      data ??
      (await sharp({ create: { width: 1400, height: 800, channels: 3, background: "#4a7a9c" } })
        .jpeg()
        .toBuffer());
    fs.writeFileSync(file, bytes);
    return file;
  };
  const rowOf = (id: string) =>
    database.db.selectFrom("images").select(["watermark", "ready"]).where("id", "=", id).executeTakeFirstOrThrow();

  it("stores an upload through the pipeline, every size at once, and audits it with the file's name", async () => {
    const stored = await storePostImage(database.db, testAdmin, await upload("a.jpg"), {
      originalName: "lake.jpg",
      watermark: "© Me",
      storage,
    });
    expect(await rowOf(stored.id)).toMatchObject({ watermark: "© Me" });
    expect(Boolean((await rowOf(stored.id)).ready)).toBe(true);
    expect(stored.image).toMatchObject({ id: stored.id, width: 1400, height: 800 });
    // Every width at once (the gallery makes all but the first later): the editor shows it, visitors may soon.
    expect(stored.image.variants.map(([width]) => width)).toEqual(variantWidths(1400));
    const audit = await database.db.selectFrom("audit_log").select(["action", "target"]).execute();
    expect(audit).toEqual([{ action: "posts.image-upload", target: "lake.jpg" }]);
  });

  it("refuses what is not a picture and keeps nothing", async () => {
    await expect(
      storePostImage(database.db, testAdmin, await upload("x.jpg", Buffer.from("<svg></svg>")), {
        originalName: "x.svg",
        watermark: "",
        storage,
      }),
    ).rejects.toBeInstanceOf(ImageError);
    expect(await database.db.selectFrom("images").selectAll().execute()).toEqual([]);
    expect(await database.db.selectFrom("audit_log").selectAll().execute()).toEqual([]);
  });

  it("redraws the watermark of covers and pictures in a post's text, as for the gallery; posters stay clean", async () => {
    const options = { watermark: "", storage };
    const cover = await storePostImage(database.db, testAdmin, await upload("c.jpg"), {
      ...options,
      originalName: "c",
    });
    const inline = await storePostImage(database.db, testAdmin, await upload("i.jpg"), {
      ...options,
      originalName: "i",
    });
    const inlineDe = await storePostImage(database.db, testAdmin, await upload("d.jpg"), {
      ...options,
      originalName: "d",
    });
    const poster = await storeImage(database.db, await upload("p.jpg"), { storage });
    const post = await createPost(database.db, testAdmin, {
      title: "With pictures",
      body: `Text\n\n![inline](image:${inline.id})\n`,
      body_de: `![de](image:${inlineDe.id})`,
      cover_image_id: cover.id,
    });
    expect(post.ok).toBe(true);
    expect(
      await refreshWatermarks(database.db, { watermark_enabled: "true", watermark_text: "Mine" }, { storage }),
    ).toEqual({ updated: 3, failed: 0 });
    for (const id of [cover.id, inline.id, inlineDe.id]) expect((await rowOf(id)).watermark).toBe("Mine");
    expect((await rowOf(poster)).watermark).toBe("");
  });
});
