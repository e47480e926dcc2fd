import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
} from "#tests/support/admin-server.ts";
import { expectErrorLog } from "#tests/support/error-logs.ts";
import { mp4Like, pngPicture } from "#tests/support/media-fixtures.ts";
import { postMultipart } from "#tests/support/multipart.ts";
import { skipUnlessAvailable } from "#tests/support/required-suites.ts";
import type { ServerProcess } from "#tests/support/server-process.ts";
import { canMount, mountTmpfs, unmount } from "#tests/support/small-disk.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/**
 * A full disk and a read-only one are real here: a tiny tmpfs, and a read-only bind mount, mounted over the
 * server's upload and storage folders. That needs root (and a kernel that lets it mount); elsewhere the tests
 * are skipped.
 */
const mounted: string[] = [];
afterEach(() => {
  for (const target of mounted.splice(0).reverse()) unmount(target);
});

/** A disk of `bytes` (rounded up to whole pages) over `target`; what was in the folder is hidden meanwhile. */
function mountFullDisk(target: string, bytes: number) {
  mountTmpfs(target, bytes);
  mounted.push(target);
}

/** The folder, as it is, but read-only. */
function mountReadOnly(target: string) {
  fs.mkdirSync(target, { recursive: true });
  execFileSync("mount", ["--bind", target, target]);
  mounted.push(target);
  execFileSync("mount", ["-o", "remount,bind,ro", target]);
}

/** Every file under a folder (relative paths), hidden ones included. */
function filesUnder(directory: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** A photo that does not compress (random pixels), so its size is known to exceed a small disk. */
function noisyPhoto(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < pixels.length; index++) pixels[index] = (index * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

describe.skipIf(skipUnlessAvailable(canMount(), "root and a kernel that lets it mount a tmpfs")).each(databaseKinds)(
  "uploads when the server's disk refuses them (%s)",
  (kind) => {
    let database: TestDatabase;
    let server: ServerProcess;
    let adminCookie: string;
    let storageDir: string;
    let uploadsDir: string;
    // Every test here makes the server refuse an upload, which it logs as an error for the owner to see.
    expectErrorLog("Upload refused: the server's storage is");

    beforeAll(async () => {
      ({ database, server } = await startServerOnFreshDatabase(kind));
      ({ adminCookie } = await signedInAdminAndMember(database));
      storageDir = path.join(database.location.dataDir, "storage");
      uploadsDir = path.join(database.location.dataDir, "tmp", "uploads");
    });
    afterAll(() => stopServerAndDatabase(server, database));

    /** What an upload could leave behind: rows, audit entries, stored files, temp files. */
    async function snapshot() {
      const [images, gallery, videos, audit, settings] = await Promise.all([
        database.db.selectFrom("images").select("id").execute(),
        database.db.selectFrom("gallery_images").select("id").execute(),
        database.db.selectFrom("videos").select("id").execute(),
        database.db.selectFrom("audit_log").select("id").execute(),
        database.db.selectFrom("site_settings").selectAll().orderBy("key").execute(),
      ]);
      return { images, gallery, videos, audit, settings, stored: filesUnder(storageDir), temp: filesUnder(uploadsDir) };
    }

    function uploadPicture(data: Buffer, lang = "en") {
      const part = { field: "file", filename: "holiday.jpg", type: "image/jpeg", data };
      return postMultipart(server, "/admin/uploads/gallery", [part], {
        cookie: `${adminCookie}; lang=${lang}`,
        accept: "application/json",
      });
    }

    /** The log lines written while `action` ran, but for the one line every request gets. */
    async function loggedDuring(action: () => Promise<unknown>): Promise<string[]> {
      // Lines logged before the action may still be on their way out (the log writes in batches): let them arrive.
      const before = { stdout: (await server.writtenStdout()).length, stderr: server.stderr.length };
      await action();
      return `${(await server.writtenStdout()).slice(before.stdout)}\n${server.stderr.slice(before.stderr)}`
        .split("\n")
        .filter((line) => line.trim() !== "" && !line.includes('"msg":"request"'));
    }

    it("says the storage is full, in the admin's language, when the upload itself does not fit", async () => {
      // Far larger than the disk: the server is still receiving it when the disk is full, and must answer anyway.
      const photo = await noisyPhoto(1600, 1200);
      expect(photo.length).toBeGreaterThan(1024 * 1024);
      const before = await snapshot();
      mountFullDisk(uploadsDir, 64 * 1024);

      let english: Awaited<ReturnType<typeof uploadPicture>> | undefined;
      const lines = await loggedDuring(async () => {
        english = await uploadPicture(photo);
      });
      expect(english?.status, lines.join("\n")).toBe(507);
      expect(JSON.parse(english?.body ?? "")).toEqual({
        ok: false,
        message: expect.stringContaining("storage is full"),
      });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/storage is full.*ENOSPC/);

      const german = await uploadPicture(photo, "de");
      expect(german.status).toBe(507);
      expect(JSON.parse(german.body).message).toContain("Speicher des Servers ist voll");

      expect(await snapshot()).toEqual(before);
    });

    it("says the storage is full when the picture's files do not fit, and keeps none of them", async () => {
      const photo = await noisyPhoto(800, 600);
      const before = await snapshot();
      // Room for the original, not for the sizes made from it: the files already written go again.
      mountFullDisk(storageDir, photo.length + 4096);

      const response = await uploadPicture(photo);
      expect(response.status).toBe(507);
      expect(JSON.parse(response.body).message).toContain("storage is full");
      expect(filesUnder(storageDir)).toEqual([]);
      expect(await snapshot()).toEqual({ ...before, stored: [] });
    });

    it("says the storage is read-only, for a picture, a site logo and a video", async () => {
      const photo = await noisyPhoto(400, 300);
      const before = await snapshot();
      mountReadOnly(storageDir);

      let picture: Awaited<ReturnType<typeof uploadPicture>> | undefined;
      const lines = await loggedDuring(async () => {
        picture = await uploadPicture(photo);
      });
      expect(picture?.status, lines.join("\n")).toBe(503);
      expect(JSON.parse(picture?.body ?? "").message).toContain("cannot write to its storage");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/storage is read-only.*EROFS/);

      const german = await uploadPicture(photo, "de");
      expect(JSON.parse(german.body).message).toContain("kann nicht in seinen Speicher schreiben");

      const logo = await postMultipart(
        server,
        "/admin/uploads/site/logo",
        [{ field: "file", filename: "logo.png", type: "image/png", data: await pngPicture(300, 100) }],
        { cookie: adminCookie, accept: "application/json" },
      );
      expect(logo.status).toBe(503);
      expect(JSON.parse(logo.body)).toEqual({
        ok: false,
        message: expect.stringContaining("cannot write to its storage"),
      });

      const video = await postMultipart(
        server,
        "/admin/uploads/videos",
        [
          { field: "video", filename: "clip.mp4", type: "video/mp4", data: mp4Like(64 * 1024) },
          { field: "poster", filename: "poster.png", type: "image/png", data: await pngPicture(640, 360) },
        ],
        {
          cookie: adminCookie,
          accept: "application/json",
          fields: { intent: "create", title: "Clip", title_de: "Clip" },
        },
      );
      expect(video.status).toBe(503);
      expect(JSON.parse(video.body)).toMatchObject({
        ok: false,
        message: expect.stringContaining("cannot write to its storage"),
      });

      expect(await snapshot()).toEqual(before);
    });
  },
);
