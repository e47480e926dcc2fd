import http from "node:http";
import { multipartBody } from "#tests/support/multipart.ts";
import { request, type ServerProcess } from "#tests/support/server-process.ts";
import { photoLikeJpeg } from "./photo-like-jpeg.ts";
import { unpin } from "./processes.ts";
import { imageIdOf, pictureIds } from "./seed-data.ts";

/*
 * The bench's upload figures (scripts/bench.ts): photos uploaded to the page-cached server as the admin screen sends
 * them, each timed to its answer and to the moment a visitor sees the picture (the gallery page a shared link to it
 * opens, which lists it once every size is ready). Last in the run, as it changes the gallery.
 */

/** GET as a browser-less visitor; fails on anything but 200. */
export async function fetchPage(url: string): Promise<string> {
  const response = await request(url);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return response.body;
}

/** One upload as the admin screen sends it; resolves with the status once the answer is complete. */
function upload(server: ServerProcess, cookie: string, photo: Buffer): Promise<number> {
  // Published at once, as the owner chooses in the uploader (new pictures are hidden otherwise).
  const { body, contentType } = multipartBody(
    [{ field: "file", filename: "photo-12mp.jpg", type: "image/jpeg", data: photo }],
    { publish: "now" },
  );
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      server.url("/admin/uploads/gallery"),
      {
        method: "POST",
        agent: false,
        headers: {
          "Content-Type": contentType,
          "Content-Length": String(body.length),
          // The CSRF check wants the site's own origin, as a browser sends it.
          Origin: server.origin,
          Cookie: cookie,
          Accept: "application/json",
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

export type UploadContext = {
  server: ServerProcess;
  adminCookie: string;
  sqliteFile: string;
  uploads: number;
  size: { width: number; height: number };
  record: (name: string, value: number) => void;
  problems: string[];
};

/** The uploads, recorded as "upload answered" and "upload visible" (seconds). */
export async function measureUploads(context: UploadContext): Promise<void> {
  const { server: cached, adminCookie, sqliteFile: cachedSqlite, record, problems, size } = context;
  const unpinned = unpin(cached.child.pid as number);
  console.log(
    `Uploading ${context.uploads} photo(s) of ${size.width}×${size.height}${unpinned ? " (server on every core now)" : ""}…`,
  );
  const photo = await photoLikeJpeg(size.width, size.height);
  for (let attempt = 1; attempt <= context.uploads; attempt++) {
    const before = pictureIds(cachedSqlite);
    const start = performance.now();
    const status = await upload(cached, adminCookie, photo);
    const answered = performance.now() - start;
    if (status !== 200) {
      problems.push(`Upload ${attempt} answered ${status}`);
      break;
    }
    const pictureId = [...pictureIds(cachedSqlite)].find((id) => !before.has(id));
    if (!pictureId) {
      problems.push(`Upload ${attempt}: no new picture in the database`);
      break;
    }
    const marker = `/media/images/${imageIdOf(cachedSqlite, pictureId)}/`;
    let visible = Number.NaN;
    while (performance.now() - start < 60_000) {
      if ((await fetchPage(cached.url(`/?image=${pictureId}`))).includes(marker)) {
        visible = performance.now() - start;
        break;
      }
      // Every 50 ms: each look is a page render in the process that is making the sizes.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (Number.isNaN(visible)) problems.push(`Upload ${attempt}: the picture was not visible after 60 s`);
    record("upload answered", answered / 1000);
    if (!Number.isNaN(visible)) record("upload visible", visible / 1000);
  }
  console.log(`Photo: ${(photo.length / 1024 / 1024).toFixed(1)} MB JPEG`);
}
