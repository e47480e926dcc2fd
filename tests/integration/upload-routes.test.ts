import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadLimitsOf } from "#app/lib/upload-limit.ts";
import { adminRoutes } from "#tests/support/admin-routes.ts";
import {
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
} from "#tests/support/admin-server.ts";
import { mp4Like, noisyPhoto } from "#tests/support/media-fixtures.ts";
import { type FilePart, postMultipart } from "#tests/support/multipart.ts";
import { ROOT, type ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

const MEGABYTE = 1024 * 1024;

/** Every route of the route table whose module declares upload limits in its `handle` (upload-limit.ts). */
async function uploadRoutes(): Promise<{ path: string; file: string }[]> {
  const found: { path: string; file: string }[] = [];
  for (const route of adminRoutes()) {
    const module = (await import(/* @vite-ignore */ path.join(ROOT, "app", route.file))) as { handle?: unknown };
    if (uploadLimitsOf(module.handle)) found.push(route);
  }
  return found;
}

/**
 * How each upload route is sent a photo as its screen sends it. A new upload route fails the test below until it
 * is added here, so that it is tested with a large photo too.
 */
function photoRequest(routePath: string, photo: Buffer): { files: FilePart[]; fields?: Record<string, string> } {
  const jpeg = (field: string): FilePart => ({ field, filename: "IMG_2041.jpg", type: "image/jpeg", data: photo });
  switch (routePath) {
    case "/admin/uploads/gallery":
    case "/admin/uploads/posts":
    case "/admin/uploads/site/logo":
      return { files: [jpeg("file")] };
    case "/admin/uploads/videos":
      return {
        files: [{ field: "video", filename: "clip.mp4", type: "video/mp4", data: mp4Like(4096) }, jpeg("poster")],
        fields: { intent: "create", title: "Clip with a large poster", active: "on" },
      };
    default:
      throw new Error(`No way to send a photo to ${routePath}: add it to photoRequest in upload-routes.test.ts`);
  }
}

describe("upload routes declare their limit where they stream the file", () => {
  it("every route module that receives an upload declares its limits in its handle", async () => {
    const declared = new Set((await uploadRoutes()).map((route) => route.file));
    const receiving = fs
      .readdirSync(path.join(ROOT, "app/routes"))
      // Route modules only: a sibling .server.ts helps its route receive (`receivePicture`), the route declares.
      .filter((name) => /\.tsx?$/.test(name) && !name.includes(".test.") && !name.includes(".server."))
      // Streaming a body: directly, through the admin contract's `withUpload`, or the pictures' `receivePicture`.
      .filter((name) =>
        /\b(receiveUpload|withUpload|receivePicture)\(/.test(
          fs.readFileSync(path.join(ROOT, "app/routes", name), "utf8"),
        ),
      )
      .map((name) => `routes/${name}`);
    expect(receiving.length).toBeGreaterThanOrEqual(4);
    for (const file of receiving) expect(declared, `${file} receives an upload but declares no limits`).toContain(file);
  });
});

describe.each(databaseKinds)("a 3 MB photo through every upload route (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;
  let photo: Buffer;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    ({ adminCookie } = await signedInAdminAndMember(database));
    photo = await noisyPhoto(2100, 1400);
  });

  afterAll(() => stopServerAndDatabase(server, database));

  it("is taken by each of them (the editor's cover and inline pictures included)", async () => {
    expect(photo.length).toBeGreaterThan(3 * MEGABYTE);
    const routes = await uploadRoutes();
    expect(routes.map((route) => route.path)).toContain("/admin/uploads/posts");
    for (const route of routes) {
      const { files, fields } = photoRequest(route.path, photo);
      const response = await postMultipart(server, route.path, files, {
        cookie: adminCookie,
        accept: "application/json",
        fields,
      });
      expect(response.status, `${route.path}: ${response.body}`).toBe(200);
      expect(JSON.parse(response.body)).toMatchObject({ ok: true });
    }
  }, 180_000); // four pictures through the whole pipeline, on a machine that may be busy
});

describe("a file over the limit is refused with the reason, in the admin's language", () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;
  let photo: Buffer;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase("sqlite", { UPLOAD_MAX_MB: "2" }));
    ({ adminCookie } = await signedInAdminAndMember(database));
    // Over the 2 MB limit, under what the edge lets through (the files at their limits plus 1 MB of form), so it is
    // the route streaming it that refuses it, with the file's name.
    photo = await noisyPhoto(1500, 1100);
  });

  afterAll(() => stopServerAndDatabase(server, database));

  it.each([
    ["en", /too large.*2 MB|larger than.*2 MB/i],
    ["de", /(zu groß|größer).*2 MB/i],
  ])("by every picture upload route (%s)", async (lang, reason) => {
    expect(photo.length).toBeGreaterThan(2 * MEGABYTE);
    expect(photo.length).toBeLessThan(3 * MEGABYTE);
    for (const route of ["/admin/uploads/gallery", "/admin/uploads/posts", "/admin/uploads/site/logo"]) {
      const response = await postMultipart(server, route, photoRequest(route, photo).files, {
        cookie: `${adminCookie}; lang=${lang}`,
        accept: "application/json",
      });
      expect(response.status, route).toBe(413);
      const body = JSON.parse(response.body) as { ok: boolean; message: string };
      expect(body.ok).toBe(false);
      expect(body.message, route).toMatch(reason);
    }
  });

  it("and well past it, before the body is read", async () => {
    const huge = Buffer.alloc(6 * MEGABYTE, 1);
    const response = await postMultipart(
      server,
      "/admin/uploads/posts",
      [{ field: "file", filename: "huge.jpg", type: "image/jpeg", data: huge }],
      { cookie: `${adminCookie}; lang=de`, accept: "application/json" },
    );
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({
      ok: false,
      message: "Die Datei ist zu groß (höchstens 2 MB). Es wurde nichts gespeichert.",
    });
  });
});
