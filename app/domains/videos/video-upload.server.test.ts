import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { imageSources } from "#app/domains/media/image-display.ts";
import { sweepOrphanFiles } from "#app/domains/media/image-sweeps.server.ts";
import { createLocalStorage, type FileStorage } from "#app/domains/media/storage.server.ts";
import { type ReceivedUpload, recogniseMedia } from "#app/domains/media/upload.server.ts";
import { mp4Like, pngPicture } from "#tests/support/media-fixtures.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { createVideoFromUpload, replaceVideoPoster, type UploadOptions } from "./video-upload.server.ts";
import {
  listPublishedVideos,
  removeVideoPoster,
  sweepOrphanVideoFiles,
  VIDEO_FILE_PREFIX,
  videosService,
} from "./videos.server.ts";

const MP4_BYTES = mp4Like(2000);

describe.each(databaseKinds)("video uploads (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  let dir: string;
  let storage: FileStorage;
  let options: UploadOptions;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-video-upload-"));
    storage = createLocalStorage({ root: path.join(dir, "storage"), secret: "test" });
    options = { videoMaxBytes: 1024 * 1024, posterMaxBytes: 512 * 1024, storage };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** An upload as receiveUpload hands it over: temp files on disk plus the form's text fields. */
  function upload(fields: Record<string, string>, files: Record<string, Buffer>): ReceivedUpload {
    return {
      fields,
      files: Object.entries(files).map(([fieldName, bytes], index) => {
        const file = path.join(dir, `upload-${index}-${fieldName}`);
        fs.writeFileSync(file, bytes);
        return {
          fieldName,
          path: file,
          originalName: `${fieldName}.bin`,
          size: bytes.length,
          declaredType: "video/mp4",
          recognised: recogniseMedia(bytes),
        };
      }),
      cleanup: async () => {},
    };
  }

  const poster = () => pngPicture();
  const texts = { intent: "create", title: "Holiday", title_de: "Urlaub", active: "on" };

  /** What a refused upload must not leave: a row, a stored video file or a stored image. */
  async function expectNothingStored() {
    expect(await videosService.listAll(database.db)).toEqual([]);
    expect(await storage.list(VIDEO_FILE_PREFIX)).toEqual([]);
    expect(await storage.list("public/images/")).toEqual([]);
    expect(await database.db.selectFrom("images").select("id").execute()).toEqual([]);
    expect((await listAudit(database.db)).total).toBe(0);
  }

  it("stores an MP4 file and its poster and shows the video to visitors", async () => {
    const result = await createVideoFromUpload(
      database.db,
      testAdmin,
      upload(texts, { video: MP4_BYTES, poster: await poster() }),
      options,
    );

    expect(result).toMatchObject({ ok: true, target: "Holiday" });
    const [row] = await videosService.listAll(database.db);
    expect(row?.file_type).toBe("video/mp4");
    expect(row?.embed_url).toBeNull();
    expect(row?.file_key).toMatch(/^public\/videos\/[0-9a-f-]{36}\.mp4$/);
    expect((await storage.stat(row?.file_key ?? ""))?.size).toBe(MP4_BYTES.length);
    const [video] = await listPublishedVideos(database.db, "de");
    expect(video?.title).toBe("Urlaub");
    expect(video?.player).toEqual({ kind: "file", src: `/media/${row?.file_key?.slice(7)}`, type: "video/mp4" });
    expect(video?.poster ? imageSources(video.poster).fallback.src : "").toMatch(/^\/media\/images\//);
    expect((await listAudit(database.db, { action: "videos.create" })).total).toBe(1);
  });

  it("refuses a file that is not MP4 or WebM by its content, whatever its name and type claim", async () => {
    const fake = upload(texts, { video: Buffer.from("<html>not a video</html>") });
    expect(await createVideoFromUpload(database.db, testAdmin, fake, options)).toEqual({
      ok: false,
      reason: "not-video",
    });
    const image = upload(texts, { video: await poster() });
    expect(await createVideoFromUpload(database.db, testAdmin, image, options)).toEqual({
      ok: false,
      reason: "not-video",
    });
    await expectNothingStored();
  });

  it("refuses a missing file, an empty title, a poster that is no image or too large; nothing is stored", async () => {
    const cases = [
      [upload(texts, {}), "no-file"],
      [upload({ ...texts, title: " " }, { video: MP4_BYTES }), "invalid"],
      [upload(texts, { video: MP4_BYTES, poster: Buffer.from("GIF but not really") }), "not-image"],
      [upload(texts, { video: MP4_BYTES, poster: Buffer.alloc(600 * 1024, 1) }), "poster-too-large"],
      [upload(texts, { video: Buffer.concat([MP4_BYTES, Buffer.alloc(1024 * 1024)]) }), "video-too-large"],
    ] as const;
    for (const [received, reason] of cases) {
      expect(await createVideoFromUpload(database.db, testAdmin, received, options), reason).toMatchObject({
        ok: false,
        reason,
      });
    }
    await expectNothingStored();
  });

  it("replaces a video's poster and deletes the old one", async () => {
    const id = idOfAccepted(
      await videosService.create(database.db, testAdmin, {
        title: "Embed",
        embed_url: "https://youtu.be/dQw4w9WgXcQ",
        active: "on",
      }),
    );

    const first = await replaceVideoPoster(database.db, testAdmin, id, upload({}, { poster: await poster() }), options);
    const firstImage = (await videosService.find(database.db, id))?.poster_image_id;
    const second = await replaceVideoPoster(
      database.db,
      testAdmin,
      id,
      upload({}, { poster: await poster() }),
      options,
    );
    const secondImage = (await videosService.find(database.db, id))?.poster_image_id;

    expect([first.ok, second.ok]).toEqual([true, true]);
    expect(secondImage).not.toBe(firstImage);
    expect((await database.db.selectFrom("images").select("id").execute()).map((row) => row.id)).toEqual([secondImage]);
    expect((await storage.list(`public/images/${firstImage}/`)).length).toBe(0);
    expect((await storage.list(`public/images/${secondImage}/`)).length).toBeGreaterThan(0);
    expect((await listAudit(database.db, { action: "videos.poster" })).total).toBe(2);

    const missing = await replaceVideoPoster(
      database.db,
      testAdmin,
      "no-such-video",
      upload({}, { poster: await poster() }),
      options,
    );
    expect(missing).toEqual({ ok: false, reason: "not-found" });
    expect((await database.db.selectFrom("images").select("id").execute()).length).toBe(1);
  });

  it("gives a YouTube entry a poster, replaces it and removes it, cleaning the files each time", async () => {
    const id = idOfAccepted(
      await videosService.create(database.db, testAdmin, {
        title: "Alpine lake",
        embed_url: "https://youtu.be/dQw4w9WgXcQ",
        active: "on",
      }),
    );
    const posterOf = async () => (await videosService.find(database.db, id))?.poster_image_id ?? null;
    const imageFiles = async (imageId: string | null) => (await storage.list(`public/images/${imageId}/`)).length;

    // Stored through the image pipeline: several sizes and formats, shown to visitors with its dimensions.
    await replaceVideoPoster(database.db, testAdmin, id, upload({}, { poster: await poster() }), options);
    const first = await posterOf();
    expect(first).toBeTruthy();
    expect(await imageFiles(first)).toBeGreaterThan(1);
    const [shown] = await listPublishedVideos(database.db, "en");
    expect(shown?.player.kind).toBe("embed");
    expect(shown?.poster?.width).toBeGreaterThan(0);
    expect(shown?.poster?.height).toBeGreaterThan(0);
    expect(shown?.poster ? imageSources(shown.poster).fallback.src : "").toMatch(
      new RegExp(`^/media/images/${first}/`),
    );

    // The start-up sweep leaves a poster in use alone.
    expect(
      (await sweepOrphanFiles(database.db, { olderThanMs: 0, storage, now: Date.now() + 60_000 })).removed,
    ).toEqual([]);
    expect(await imageFiles(first)).toBeGreaterThan(1);

    await replaceVideoPoster(database.db, testAdmin, id, upload({}, { poster: await poster() }), options);
    const second = await posterOf();
    expect(second).not.toBe(first);
    expect(await imageFiles(first)).toBe(0);

    expect(await removeVideoPoster(database.db, testAdmin, id, storage)).toEqual({
      ok: true,
      id,
      target: "Alpine lake",
    });
    expect(await posterOf()).toBeNull();
    expect(await imageFiles(second)).toBe(0);
    expect(await storage.list("public/images/")).toEqual([]);
    expect(await storage.list("private/")).toEqual([]);
    expect(await database.db.selectFrom("images").select("id").execute()).toEqual([]);
    expect((await listPublishedVideos(database.db, "en"))[0]?.poster).toBeNull();
    const audit = await listAudit(database.db, { action: "videos.poster" });
    expect(audit.total).toBe(3);

    // Nothing left to remove, or no such video: refused, and nothing changes.
    expect(await removeVideoPoster(database.db, testAdmin, id, storage)).toEqual({
      ok: false,
      reason: "no-poster",
      target: "Alpine lake",
    });
    expect(await removeVideoPoster(database.db, testAdmin, "no-such-video", storage)).toEqual({
      ok: false,
      reason: "not-found",
    });
    expect((await listAudit(database.db, { action: "videos.poster" })).total).toBe(3);
  });

  it("sweeps video files no video names once they are old enough, keeping the others", async () => {
    await createVideoFromUpload(database.db, testAdmin, upload(texts, { video: MP4_BYTES }), options);
    const [kept] = await storage.list(VIDEO_FILE_PREFIX);
    await storage.save(`${VIDEO_FILE_PREFIX}left-behind.mp4`, MP4_BYTES);

    expect(await sweepOrphanVideoFiles(database.db, { olderThanMs: 60_000, storage })).toEqual([]);
    const removed = await sweepOrphanVideoFiles(database.db, {
      olderThanMs: 60_000,
      storage,
      now: Date.now() + 120_000,
    });

    expect(removed).toEqual([`${VIDEO_FILE_PREFIX}left-behind.mp4`]);
    expect((await storage.list(VIDEO_FILE_PREFIX)).map((file) => file.key)).toEqual([kept?.key]);
  });
});

// Other connections must never see a poster's row without its video: PostgreSQL serves many at once.
describe.each(databaseKinds.filter((kind) => kind === "postgres"))("an uploaded video's rows (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-video-rows-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("appear together: no poster row is visible before its video's row", async () => {
    const storage = createLocalStorage({ root: path.join(dir, "storage"), secret: "test" });
    const files = { video: MP4_BYTES, poster: await pngPicture() };
    const upload: ReceivedUpload = {
      fields: { intent: "create", title: "Together", active: "on" },
      files: Object.entries(files).map(([fieldName, bytes]) => {
        const file = path.join(dir, fieldName);
        fs.writeFileSync(file, bytes);
        const recognised = recogniseMedia(bytes);
        return {
          fieldName,
          path: file,
          originalName: fieldName,
          size: bytes.length,
          declaredType: "video/mp4",
          recognised,
        };
      }),
      cleanup: async () => {},
    };
    // The video's insert takes a moment, so a poster row committed before it would be seen meanwhile.
    await sql`CREATE FUNCTION slow_video_insert() RETURNS trigger AS $$
      BEGIN PERFORM pg_sleep(0.8); RETURN NEW; END $$ LANGUAGE plpgsql`.execute(database.db);
    await sql`CREATE TRIGGER slow_video_insert BEFORE INSERT ON videos
      FOR EACH ROW EXECUTE FUNCTION slow_video_insert()`.execute(database.db);

    let finished = false;
    const pending = createVideoFromUpload(database.db, testAdmin, upload, {
      videoMaxBytes: 1024 * 1024,
      posterMaxBytes: 512 * 1024,
      storage,
    }).finally(() => {
      finished = true;
    });
    const seen: { images: number; videos: number }[] = [];
    while (!finished) {
      const images = (await database.db.selectFrom("images").select("id").execute()).length;
      const videos = (await database.db.selectFrom("videos").select("id").execute()).length;
      seen.push({ images, videos });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    expect(await pending).toMatchObject({ ok: true });
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.filter(({ images, videos }) => images > videos)).toEqual([]);
    expect((await database.db.selectFrom("images").select("id").execute()).length).toBe(1);
  });
});
