import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import { createS3Client } from "#app/domains/media/s3-storage.server.ts";
import { createUrlSigner, mediaSigningSecret } from "#app/domains/media/storage.server.ts";
import { signedInAdminAndMember, stopServerAndDatabase } from "#tests/support/admin-server.ts";
import { testPhoto } from "#tests/support/gallery-factories.ts";
import { mp4Like, pngPicture } from "#tests/support/media-fixtures.ts";
import { postMultipart } from "#tests/support/multipart.ts";
import { bucketEnv, type CountingRelay, startCountingRelay } from "#tests/support/s3-relay.ts";
import { startS3Server, type TestS3Server } from "#tests/support/s3rver-process.ts";
import { request, type ServerProcess, startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * The whole server with its files in a bucket (STORAGE_URL on s3rver): uploads through the real routes, every
 * file served back through the site with the same headers, ranges and ETags as from the disk, nothing on the disk.
 * Between the server and s3rver sits a byte-counting relay, to see that a range asks the bucket for that range only.
 */

/** The folder in the bucket (bucketEnv's default). */
const PREFIX = "site";
const IMMUTABLE = "public, max-age=31536000, immutable";

type Bytes = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One GET (or HEAD) on its own connection, the body as bytes. */
function fetchBytes(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Bytes> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** Every file under a folder (relative paths), hidden ones included. */
function filesUnder(directory: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)));
}

describe.each(databaseKinds)("the whole server with its files in an S3 bucket (%s)", (kind) => {
  let s3: TestS3Server;
  let relay: CountingRelay;
  let client: S3Client;
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;
  let galleryId = "";
  let imageId = "";
  let videoKey = "";
  let video: Buffer;

  beforeAll(async () => {
    s3 = await startS3Server();
    relay = await startCountingRelay(Number(new URL(s3.endpoint).port));
    client = createS3Client(s3.location());
    database = await createTestDatabase(kind);
    server = await startServer({
      dataDir: database.location.dataDir,
      databaseUrl: database.location.databaseUrl,
      authSecret: TEST_AUTH_SECRET,
      env: bucketEnv(s3.bucket, relay.endpoint),
    });
    ({ adminCookie } = await signedInAdminAndMember(database));
  });

  afterAll(async () => {
    await stopServerAndDatabase(server, database);
    client?.destroy();
    await relay?.close();
    await s3?.stop();
  });

  /** The bytes of an object in the bucket, read around the site. */
  async function objectBytes(key: string): Promise<Buffer> {
    const answer = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `${PREFIX}/${key}` }));
    return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
  }

  const mediaUrl = (key: string) => server.url(`/media/${key.slice("public/".length)}`);

  it("takes a gallery picture and a video through the upload routes and makes every size", async () => {
    const photo = await testPhoto({ width: 1600, height: 1066, label: "bucket" });
    const picture = await postMultipart(
      server,
      "/admin/uploads/gallery",
      [{ field: "file", filename: "harbour.jpg", type: "image/jpeg", data: photo }],
      { cookie: adminCookie, accept: "application/json", fields: { publish: "now" } },
    );
    expect(picture.status, picture.body).toBe(200);
    galleryId = (JSON.parse(picture.body) as { id: string }).id;

    // Over the 5 MB of one part: the driver sends it as a multipart upload.
    video = mp4Like(6 * 1024 * 1024 + 12_345);
    const uploaded = await postMultipart(
      server,
      "/admin/uploads/videos",
      [
        { field: "video", filename: "clip.mp4", type: "video/mp4", data: video },
        { field: "poster", filename: "poster.png", type: "image/png", data: await pngPicture(640, 360) },
      ],
      { cookie: adminCookie, accept: "application/json", fields: { intent: "create", title: "Clip", active: "on" } },
    );
    expect(uploaded.status, uploaded.body).toBe(200);

    const row = await database.db
      .selectFrom("gallery_images")
      .select("image_id")
      .where("id", "=", galleryId)
      .executeTakeFirstOrThrow();
    imageId = row.image_id;
    // Visitors see the picture once every size exists: the gallery lists it then.
    await expect
      .poll(async () => (await request(server.url("/"))).body.includes(`/media/images/${imageId}/`), {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(true);
    const image = await database.db
      .selectFrom("images")
      .selectAll()
      .where("id", "=", imageId)
      .executeTakeFirstOrThrow();
    expect(Boolean(image.ready)).toBe(true);
    const widths = [...new Set(parseVariants(image.variants).map((variant) => variant.width))];
    expect(widths).toEqual([320, 640, 960, 1280, 1600]);
    videoKey = (await database.db.selectFrom("videos").select("file_key").executeTakeFirstOrThrow()).file_key ?? "";
    expect(videoKey).toMatch(/^public\/videos\/[0-9a-f-]+\.mp4$/);
  }, 120_000);

  it("keeps every file in the bucket and none under DATA_DIR/storage", async () => {
    const images = await database.db.selectFrom("images").select(["original_key", "variants"]).execute();
    expect(images).toHaveLength(2); // the picture and the video's poster
    const expected = [
      videoKey,
      ...images.flatMap((image) => [image.original_key, ...parseVariants(image.variants).map((v) => v.key)]),
    ].sort();
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${PREFIX}/` }));
    const inBucket = (listed.Contents ?? []).map((object) => (object.Key ?? "").slice(PREFIX.length + 1)).sort();
    expect(inBucket).toEqual(expected);
    expect((await objectBytes(videoKey)).equals(video)).toBe(true);
    expect(filesUnder(path.join(database.location.dataDir, "storage"))).toEqual([]);
  });

  it("serves every size and format of the picture from the bucket, cacheable forever, with a working ETag", async () => {
    const image = await database.db
      .selectFrom("images")
      .selectAll()
      .where("id", "=", imageId)
      .executeTakeFirstOrThrow();
    const variants = parseVariants(image.variants);
    expect(new Set(variants.map((variant) => variant.format))).toEqual(new Set(["avif", "webp", "jpeg"]));
    for (const variant of variants) {
      const url = mediaUrl(variant.key);
      const whole = await fetchBytes(url);
      expect(whole.status, variant.key).toBe(200);
      expect(whole.body.equals(await objectBytes(variant.key)), variant.key).toBe(true);
      expect(whole.headers["content-type"]).toBe(`image/${variant.format}`);
      expect(whole.headers["content-length"]).toBe(String(whole.body.length));
      expect(whole.headers["cache-control"]).toBe(IMMUTABLE);
      expect(whole.headers["x-content-type-options"]).toBe("nosniff");
      const etag = whole.headers.etag ?? "";
      expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      const again = await fetchBytes(url, { "If-None-Match": etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers["cache-control"]).toBe(IMMUTABLE);
    }
    // And the very candidates the gallery page offers a browser.
    const page = (await request(server.url("/"))).body;
    const candidates = [...page.matchAll(/srcset="([^"]+)"/gi)].flatMap((match) =>
      (match[1] ?? "").split(", ").map((entry) => entry.split(" ")[0] ?? ""),
    );
    const offered = new Set(candidates.filter((candidate) => candidate.includes(imageId)));
    // Each format in the widths a grid cell may need, every one of them a size of the picture.
    expect(new Set([...offered].map((candidate) => candidate.slice(candidate.lastIndexOf(".") + 1)))).toEqual(
      new Set(["avif", "webp", "jpg"]),
    );
    expect(
      [...offered].every((candidate) => variants.some((variant) => mediaUrl(variant.key).endsWith(candidate))),
    ).toBe(true);
    for (const candidate of new Set(candidates)) {
      expect((await fetchBytes(server.url(candidate.replaceAll("&amp;", "&")))).status, candidate).toBe(200);
    }
  });

  it("serves the video's ranges from ranged reads of the bucket: 206, Content-Range and the right bytes", async () => {
    const url = mediaUrl(videoKey);
    const size = video.length;
    const before = relay.received();
    const whole = await fetchBytes(url);
    expect(relay.received() - before).toBeGreaterThanOrEqual(size);
    expect(whole.status).toBe(200);
    expect(whole.headers["content-type"]).toBe("video/mp4");
    expect(whole.headers["accept-ranges"]).toBe("bytes");
    expect(whole.headers["cache-control"]).toBe(IMMUTABLE);
    expect(whole.body.equals(video)).toBe(true);
    const etag = whole.headers.etag ?? "";

    const cases: [string, number, number][] = [
      ["bytes=0-0", 0, 0],
      ["bytes=1000-1999", 1000, 1999],
      // Across the first part's end of the multipart upload.
      [`bytes=${5 * 1024 * 1024 - 10}-${5 * 1024 * 1024 + 9}`, 5 * 1024 * 1024 - 10, 5 * 1024 * 1024 + 9],
      ["bytes=-500", size - 500, size - 1],
      [`bytes=${size - 100}-`, size - 100, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const sent = relay.received();
      const partial = await fetchBytes(url, { Range: range });
      expect(partial.status, range).toBe(206);
      expect(partial.headers["content-range"], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(partial.headers["content-length"], range).toBe(String(end - start + 1));
      expect(partial.body.equals(video.subarray(start, end + 1)), range).toBe(true);
      // The bucket was asked for the range, not the file: a few kilobytes of headers and the asked bytes. (Not for
      // 0-0, which s3rver widens to the whole object; the driver cuts it, but what was in flight had come.)
      if (end > 0) expect(relay.received() - sent, range).toBeLessThan(64 * 1024);
    }
    const resumed = await fetchBytes(url, { Range: "bytes=10-19", "If-Range": etag });
    expect(resumed.status).toBe(206);
    const changed = await fetchBytes(url, { Range: "bytes=10-19", "If-Range": '"something-else"' });
    expect(changed.status).toBe(200);
    expect(changed.body.length).toBe(size);
    const beyond = await fetchBytes(url, { Range: `bytes=${size}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers["content-range"]).toBe(`bytes */${size}`);
    const head = await fetchBytes(url, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(size));
    expect(head.body.length).toBe(0);
    expect((await fetchBytes(url, { "If-None-Match": etag })).status).toBe(304);
  });

  it("never lets a visitor reach the private original, nor shows an address of it or of the bucket", async () => {
    const image = await database.db
      .selectFrom("images")
      .selectAll()
      .where("id", "=", imageId)
      .executeTakeFirstOrThrow();
    const original = image.original_key;
    expect(original).toMatch(/^private\/originals\//);
    const rest = original.slice("private/".length);
    for (const address of [
      `/media/${rest}`,
      `/media/${original}`,
      `/media/..%2F${original}`,
      `/media/%2e%2e/${original}`,
      `/media-private/${rest}`,
      `/media-private/${rest}?expires=9999999999&sig=forged`,
    ]) {
      const answer = await fetchBytes(server.url(address));
      expect([403, 404], address).toContain(answer.status);
      // Not even a refusal may be kept by a shared cache.
      expect(answer.headers["cache-control"], address).toMatch(/no-store/);
      expect(answer.headers["cache-control"], address).not.toMatch(/public/);
    }
    // The site's own signed link (which no page hands out) is served through the site, for its holder only.
    const signed = createUrlSigner(mediaSigningSecret(TEST_AUTH_SECRET)).signedUrl(original, 60);
    const byLink = await fetchBytes(server.url(signed));
    expect(byLink.status).toBe(200);
    expect(byLink.headers["cache-control"]).toBe("private, no-store");
    expect(byLink.body.equals(await objectBytes(original))).toBe(true);

    const bucketHost = new URL(relay.endpoint).host;
    const showingMedia = ["/", `/?image=${galleryId}`, "/videos"];
    for (const page of [...showingMedia, "/home", "/sitemap.xml", "/blog/feed.xml"]) {
      const body = (await request(server.url(page))).body;
      if (showingMedia.includes(page)) expect(body, page).toContain("/media/");
      for (const forbidden of ["originals/", "/media-private/", bucketHost, s3.endpoint, "X-Amz-", s3.bucket]) {
        expect(body.includes(forbidden), `${page} holds ${forbidden}`).toBe(false);
      }
    }
  });

  it("gives the same ETag on another instance on the same bucket, which answers 304 to the first's", async () => {
    const second = await startServer({
      dataDir: database.location.dataDir,
      databaseUrl: database.location.databaseUrl,
      authSecret: TEST_AUTH_SECRET,
      env: bucketEnv(s3.bucket, s3.endpoint),
    });
    try {
      const image = await database.db
        .selectFrom("images")
        .selectAll()
        .where("id", "=", imageId)
        .executeTakeFirstOrThrow();
      for (const key of [videoKey, ...parseVariants(image.variants).map((variant) => variant.key)]) {
        const path = `/media/${key.slice("public/".length)}`;
        const first = await fetchBytes(server.url(path), {}, "HEAD");
        const other = await fetchBytes(second.url(path), {}, "HEAD");
        expect(other.headers.etag, key).toBe(first.headers.etag);
        expect(other.headers["last-modified"], key).toBe(first.headers["last-modified"]);
        const revalidated = await fetchBytes(second.url(path), { "If-None-Match": first.headers.etag ?? "" });
        expect(revalidated.status, key).toBe(304);
      }
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 60_000);
  it("answers a file removed from the bucket behind the site's back with a plain 404, never a broken answer", async () => {
    const image = await database.db
      .selectFrom("images")
      .selectAll()
      .where("id", "=", imageId)
      .executeTakeFirstOrThrow();
    const variant = parseVariants(image.variants)[0];
    if (!variant) throw new Error("no variant");
    // Served once, so that the site knows its size and date, then removed around the site.
    expect((await fetchBytes(mediaUrl(variant.key))).status).toBe(200);
    await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `${PREFIX}/${variant.key}` }));
    const gone = await fetchBytes(mediaUrl(variant.key));
    expect(gone.status).toBe(404);
    expect(gone.body.toString()).toBe("Not found");
    // Not the removed file's length (the answer would never end).
    expect([undefined, "9"]).toContain(gone.headers["content-length"]);
    expect(gone.headers["cache-control"]).toBe("no-store");
    expect(gone.headers.etag).toBeUndefined();
    expect(gone.headers["content-range"]).toBeUndefined();
  });
});
