import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import { createLocalStorage, type FileStorage, mediaSigningSecret } from "#app/domains/media/storage.server.ts";
import {
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
} from "#tests/support/admin-server.ts";
import type { CreatedUser } from "#tests/support/factories.ts";
import { createGalleryPicture, storageIn, testPhoto } from "#tests/support/gallery-factories.ts";
import { postMultipart } from "#tests/support/multipart.ts";
import {
  type HttpResponse,
  postForm,
  request,
  type ServerProcess,
  TEST_AUTH_SECRET,
} from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/** A multipart upload as the admin screen's XMLHttpRequest sends it (one file, binary body). */
function postFile(
  server: ServerProcess,
  pathname: string,
  file: { name: string; data: Buffer; type: string },
  cookie?: string,
  fields?: Record<string, string>,
): Promise<HttpResponse> {
  const part = { field: "file", filename: file.name, type: file.type, data: file.data };
  return postMultipart(server, pathname, [part], { cookie, accept: "application/json", fields });
}

describe.each(databaseKinds)("the gallery over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let storage: FileStorage;
  let admin: CreatedUser;
  let adminCookie: string;
  let userCookie: string;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    storage = storageIn(database.location.dataDir);
    ({ admin, adminCookie, memberCookie: userCookie } = await signedInAdminAndMember(database));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  /** Sends a JPEG test photo of that size to the gallery's upload route, as `cookie`'s holder or a visitor. */
  async function uploadTestPhoto(
    name: string,
    width: number,
    height: number,
    cookie?: string,
    fields?: Record<string, string>,
  ) {
    const data = await testPhoto({ width, height });
    return postFile(server, "/admin/uploads/gallery", { name, data, type: "image/jpeg" }, cookie, fields);
  }

  /** Everything an admin action could change: the gallery rows, the image rows, the audit log and the files. */
  async function snapshot() {
    const [gallery, images, audit, files] = await Promise.all([
      database.db.selectFrom("gallery_images").selectAll().orderBy("id").execute(),
      database.db.selectFrom("images").select(["id", "variants", "watermark"]).orderBy("id").execute(),
      database.db.selectFrom("audit_log").select("id").execute(),
      Promise.all([storage.list("public/", { limit: 10_000 }), storage.list("private/", { limit: 10_000 })]),
    ]);
    return {
      gallery,
      images,
      audit: audit.length,
      files: files
        .flat()
        .map((file) => file.key)
        .sort(),
    };
  }

  let first: string;
  let second: string;
  beforeEach(async () => {
    // Two pictures at the start of each test, whatever the last one did.
    for (const row of await database.db.selectFrom("gallery_images").select("id").execute()) {
      await database.db.deleteFrom("gallery_images").where("id", "=", row.id).execute();
    }
    first = await createGalleryPicture(database.db, storage, { title: "First", category: "City", hue: 10 });
    second = await createGalleryPicture(database.db, storage, { title: "Second", category: "Nature", hue: 120 });
  });

  const actions = (): Record<string, string>[] => [
    {
      intent: "update",
      id: first,
      title: "Changed",
      title_de: "",
      description: "",
      description_de: "",
      category: "",
      category_de: "",
    },
    { intent: "unpublish", id: first, name: "First" },
    { intent: "publish", id: first, name: "First" },
    { intent: "delete", id: first, name: "First" },
    { intent: "reorder", ids: `${second},${first}` },
  ];

  it("sends visitors to sign-in and changes nothing", async () => {
    const before = await snapshot();
    const page = await request(server.url("/admin/gallery"));
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe("/auth?redirectTo=%2Fadmin%2Fgallery");
    for (const fields of actions()) {
      const response = await postForm(server, "/admin/gallery", fields);
      expect(response.status, fields.intent).toBe(302);
      expect(response.headers.location, fields.intent).toMatch(/^\/auth\?redirectTo=/);
    }
    const upload = await uploadTestPhoto("photo.jpg", 400, 300);
    expect(upload.status).toBe(302);
    expect(upload.headers.location).toMatch(/^\/auth\?redirectTo=/);
    expect(await snapshot()).toEqual(before);
  });

  it("answers signed-in non-admins with 403 and changes nothing", async () => {
    const before = await snapshot();
    const page = await request(server.url("/admin/gallery"), { headers: { Cookie: userCookie } });
    expect(page.status).toBe(403);
    for (const fields of actions()) {
      const response = await postForm(server, "/admin/gallery", fields, { cookie: userCookie });
      expect(response.status, fields.intent).toBe(403);
    }
    const upload = await uploadTestPhoto("photo.jpg", 400, 300, userCookie);
    expect(upload.status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it("lets an admin see unpublished pictures, edit, hide, publish, reorder and delete, each audited", async () => {
    const page = await request(server.url("/admin/gallery"), { headers: { Cookie: adminCookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain("First");
    expect(page.body).toContain("Second");

    const auditBefore = (await snapshot()).audit;
    const update = await postForm(
      server,
      "/admin/gallery",
      {
        intent: "update",
        id: first,
        title: "Bridge",
        title_de: "Brücke",
        description: "At dusk",
        description_de: "In der Dämmerung",
        category: "Architecture",
        category_de: "Architektur",
      },
      { cookie: adminCookie },
    );
    expect(update.status).toBe(200);
    const updated = await database.db
      .selectFrom("gallery_images")
      .selectAll()
      .where("id", "=", first)
      .executeTakeFirstOrThrow();
    expect(updated).toMatchObject({
      title: "Bridge",
      title_de: "Brücke",
      category: "Architecture",
      category_de: "Architektur",
    });

    const invalid = await postForm(
      server,
      "/admin/gallery",
      {
        intent: "update",
        id: first,
        title: "x".repeat(201),
        title_de: "",
        description: "",
        description_de: "",
        category: "",
        category_de: "",
      },
      { cookie: adminCookie },
    );
    expect(invalid.status).toBe(400);

    expect(
      (await postForm(server, "/admin/gallery", { intent: "unpublish", id: first }, { cookie: adminCookie })).status,
    ).toBe(200);
    // Hidden: not on the public page, still in the admin list.
    expect((await request(server.url("/"))).body).not.toContain("Bridge");
    expect((await request(server.url("/admin/gallery"), { headers: { Cookie: adminCookie } })).body).toContain(
      "Bridge",
    );
    expect(
      (await postForm(server, "/admin/gallery", { intent: "publish", id: first }, { cookie: adminCookie })).status,
    ).toBe(200);
    expect((await request(server.url("/"))).body).toContain("Bridge");

    const reorder = await postForm(
      server,
      "/admin/gallery",
      { intent: "reorder", ids: `${second},${first}` },
      { cookie: adminCookie },
    );
    expect(reorder.status).toBe(200);
    const order = await database.db.selectFrom("gallery_images").select("id").orderBy("sort_order").execute();
    expect(order.map((row) => row.id)).toEqual([second, first]);
    const stale = await postForm(server, "/admin/gallery", { intent: "reorder", ids: first }, { cookie: adminCookie });
    expect(stale.status).toBe(409);

    const imageId = updated.image_id;
    const image = await database.db
      .selectFrom("images")
      .selectAll()
      .where("id", "=", imageId)
      .executeTakeFirstOrThrow();
    const keys = [image.original_key, ...parseVariants(image.variants).map((variant) => variant.key)];
    const deleted = await postForm(
      server,
      "/admin/gallery",
      { intent: "delete", id: first, name: "Bridge" },
      { cookie: adminCookie },
    );
    expect(deleted.status).toBe(200);
    expect(await database.db.selectFrom("gallery_images").select("id").where("id", "=", first).execute()).toEqual([]);
    expect(await database.db.selectFrom("images").select("id").where("id", "=", imageId).execute()).toEqual([]);
    for (const key of keys) expect(await storage.stat(key), key).toBeNull();
    const missing = await postForm(server, "/admin/gallery", { intent: "delete", id: first }, { cookie: adminCookie });
    expect(missing.status).toBe(404);

    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_email"])
      .orderBy("id")
      .offset(auditBefore)
      .limit(100)
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual([
      "gallery.update",
      "gallery.unpublish",
      "gallery.publish",
      "gallery.reorder",
      "gallery.delete",
    ]);
    expect(audit.every((entry) => entry.actor_email === admin.email)).toBe(true);
  });

  it("refuses texts with control characters or line breaks in one-line fields, per field in the admin's language, changing nothing", async () => {
    const before = await snapshot();
    const texts = {
      title: "Bridge\u0000",
      title_de: "Brücke\nneu",
      description: "At dusk\u0085",
      description_de: "Zeile eins\nZeile zwei",
      category: "Archi\u001btecture",
      category_de: "",
    };
    // As the admin screen's fetcher sends it: a data request, answered with the ActionResult.
    for (const [lang, expected] of [
      ["en", ["Please check the highlighted fields.", "invisible control characters", "takes a single line"]],
      ["de", ["Bitte prüfen Sie die markierten Felder.", "unsichtbare Steuerzeichen", "nur eine Zeile"]],
    ] as const) {
      const response = await postForm(
        server,
        `/admin/gallery.data?lang=${lang}`,
        { intent: "update", id: first, ...texts },
        { cookie: adminCookie },
      );
      expect(response.status).toBe(400);
      for (const text of expected) expect(response.body, lang).toContain(text);
      for (const field of ["title", "title_de", "description", "category"])
        expect(response.body).toContain(`"${field}"`);
      expect(response.body).not.toContain('"description_de"');
    }
    expect(await snapshot()).toEqual(before);

    // A picture id that cannot be one is unknown, like any other: 404, nothing changed.
    const badId = await postForm(
      server,
      "/admin/gallery",
      { intent: "update", id: "a\u0000b", ...texts, title: "Fine" },
      { cookie: adminCookie },
    );
    expect(badId.status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it("accepts an admin's image upload: processed, stored, listed and audited", async () => {
    const before = await snapshot();
    const response = await uploadTestPhoto("holiday.jpg", 900, 600, adminCookie, { publish: "now" });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      ok: true,
      message: "holiday.jpg was added to the gallery.",
      id: expect.any(String),
    });
    const after = await snapshot();
    expect(after.gallery).toHaveLength(before.gallery.length + 1);
    expect(after.images).toHaveLength(before.images.length + 1);
    expect(after.files.length).toBeGreaterThan(before.files.length);
    const audit = await database.db.selectFrom("audit_log").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: "gallery.create", new_value: "holiday.jpg", actor_email: admin.email });

    // The other sizes are made right after the answer: visitors see the picture once they all exist, so
    // reload the public page until then, as a visitor would.
    const created = after.gallery.find((row) => !before.gallery.some((old) => old.id === row.id));
    if (!created) throw new Error("no new gallery row");
    // Titled after its file name (in English only: the German title is the owner's to write), and published as the
    // uploader asked.
    expect(created).toMatchObject({ title: "Holiday", title_de: "" });
    expect(Boolean(created.published)).toBe(true);
    const imageRow = () =>
      database.db.selectFrom("images").selectAll().where("id", "=", created.image_id).executeTakeFirstOrThrow();
    await expect
      .poll(async () => (await request(server.url("/"))).body.includes(`/media/images/${created.image_id}/`), {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(true);
    const image = await imageRow();
    expect(Boolean(image.ready)).toBe(true);
    const variants = parseVariants(image.variants);
    expect([...new Set(variants.map((variant) => variant.width))]).toEqual([320, 640, 900]);
    for (const variant of variants) expect(await storage.stat(variant.key), variant.key).not.toBeNull();
  });

  it("refuses a non-image upload with a clear message, leaving no row and no file", async () => {
    const before = await snapshot();
    for (const file of [
      { name: "holiday.svg", data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), type: "image/svg+xml" },
      { name: "notes.jpg", data: Buffer.from("plain text pretending to be a photo"), type: "image/jpeg" },
    ]) {
      const response = await postFile(server, "/admin/uploads/gallery", file, adminCookie);
      expect(response.status, file.name).toBe(415);
      expect(JSON.parse(response.body), file.name).toEqual({
        ok: false,
        message: `${file.name}: not a supported image`,
      });
    }
    const noFile = await postFile(
      server,
      "/admin/uploads/gallery",
      { name: "", data: Buffer.alloc(0), type: "application/octet-stream" },
      adminCookie,
    );
    expect(noFile.status).toBe(400);
    expect(await snapshot()).toEqual(before);
    // And no temp file is left either.
    const uploads = path.join(database.location.dataDir, "tmp", "uploads");
    expect(fs.existsSync(uploads) ? fs.readdirSync(uploads) : []).toEqual([]);
  });

  it("serves stored files with long caching, nosniff, and byte ranges (206)", async () => {
    const image = await database.db.selectFrom("images").selectAll().limit(1).executeTakeFirstOrThrow();
    const variant = parseVariants(image.variants).find((entry) => entry.format === "avif");
    if (!variant) throw new Error("no AVIF variant");
    const url = server.url(`/media/${variant.key.slice("public/".length)}`);
    const size = (await storage.stat(variant.key))?.size ?? 0;

    const whole = await request(url);
    expect(whole.status).toBe(200);
    expect(whole.headers["content-type"]).toBe("image/avif");
    expect(whole.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(whole.headers["x-content-type-options"]).toBe("nosniff");
    expect(whole.headers["accept-ranges"]).toBe("bytes");

    const partial = await request(url, { headers: { Range: "bytes=10-19" } });
    expect(partial.status).toBe(206);
    expect(partial.headers["content-range"]).toBe(`bytes 10-19/${size}`);
    expect(partial.headers["content-length"]).toBe("10");
    const beyond = await request(url, { headers: { Range: `bytes=${size + 10}-` } });
    expect(beyond.status).toBe(416);

    expect((await request(server.url("/media/images/nothing-here.avif"))).status).toBe(404);
    // The private originals are not public.
    expect((await request(server.url(`/media/${image.original_key}`))).status).toBe(404);
  });

  it("serves private files only by a valid, unexpired signed URL", async () => {
    const image = await database.db.selectFrom("images").selectAll().limit(1).executeTakeFirstOrThrow();
    const signing = createLocalStorage({
      root: path.join(database.location.dataDir, "storage"),
      secret: mediaSigningSecret(TEST_AUTH_SECRET),
    });
    const signed = signing.signedUrl(image.original_key, 60);
    const ok = await request(server.url(signed));
    expect(ok.status).toBe(200);
    expect(ok.headers["content-type"]).toBe("image/jpeg");
    expect(ok.headers["cache-control"]).toBe("private, no-store");
    // One character of the signature changed (to another character, whatever it was).
    const tampered = signed.replace(/sig=(.)/, (_match, first: string) => `sig=${first === "A" ? "B" : "A"}`);
    expect(tampered).not.toBe(signed);
    expect((await request(server.url(tampered))).status).toBe(403);
    expect((await request(server.url(signed.replace(/expires=\d+/, "expires=1000")))).status).toBe(403);
    expect((await request(server.url(`/media-private/${image.original_key.slice("private/".length)}`))).status).toBe(
      403,
    );
    const wrongSecret = createLocalStorage({ root: "/nonexistent", secret: "another" }).signedUrl(
      image.original_key,
      60,
    );
    expect((await request(server.url(wrongSecret))).status).toBe(403);
  });

  it("server-renders the grid's first picture to be fetched first: preloaded (AVIF set) and fetchpriority high", async () => {
    const response = await request(server.url("/"));
    expect(response.status).toBe(200);
    const head = response.body.slice(0, response.body.indexOf("</head>"));
    const preload = head.match(/<link rel="preload"[^>]*>/)?.[0] ?? "";
    expect(preload).toContain('as="image"');
    expect(preload).toContain('type="image/avif"');
    // HTML attribute names are case-insensitive (React writes them as the props are spelt).
    expect(preload).toMatch(/fetchpriority="high"/i);
    const preloaded = preload.match(/imagesrcset="([^"]+)"/i)?.[1] ?? "";
    // The same set the first picture's AVIF source offers, and every file of it is there.
    const firstAvif = response.body.match(/<source type="image\/avif" srcset="([^"]+)"/i)?.[1] ?? "";
    expect(preloaded).not.toBe("");
    expect(preloaded).toBe(firstAvif);
    for (const entry of preloaded.split(", ")) {
      expect((await request(server.url(entry.split(" ")[0] ?? ""))).status).toBe(200);
    }
    // The sizes of the picture's own source (its place in the justified rows), so the browser fetches one file.
    const preloadSizes = preload.match(/imagesizes="([^"]+)"/i)?.[1] ?? "";
    expect(preloadSizes).not.toBe("");
    expect(preloadSizes).toBe(response.body.match(/<source type="image\/avif" srcset="[^"]+" sizes="([^"]+)"/i)?.[1]);
    const images = [...response.body.matchAll(/<img [^>]*>/g)].map((match) => match[0]);
    expect(images[0]).toMatch(/fetchpriority="high"/i);
    expect(images.slice(1).some((image) => /fetchpriority/i.test(image))).toBe(false);
    // A shared picture's page shows the lightbox's picture first: the grid's is not preloaded there.
    const shared = await request(server.url(`/?image=${second}`));
    expect(shared.body.slice(0, shared.body.indexOf("</head>"))).not.toMatch(/<link rel="preload"[^>]*as="image"/);
  });

  it("renders a picture's Markdown description in the lightbox and gives the head its plain text", async () => {
    const id = await createGalleryPicture(database.db, storage, {
      title: "Described",
      description: "Shot in **morning** light, by [the lake](/links).",
    });
    let response = await request(server.url(`/?image=${id}`));
    for (let tries = 0; tries < 50 && !response.body.includes("<title>Described · "); tries += 1) {
      // Another process's commit reaches the server's caches a moment later on PostgreSQL.
      await new Promise((resolve) => setTimeout(resolve, 100));
      response = await request(server.url(`/?image=${id}`));
    }
    expect(response.status).toBe(200);
    const head = response.body.slice(0, response.body.indexOf("</head>"));
    const plain = "Shot in morning light, by the lake.";
    expect(head).toContain(`<meta name="description" content="${plain}"/>`);
    expect(head).toContain(`<meta property="og:description" content="${plain}"/>`);
    expect(head).toContain(`"description":"${plain}"`);
    const dialog = response.body.slice(response.body.indexOf("<dialog"), response.body.indexOf("</dialog>"));
    expect(dialog).toContain("<strong>morning</strong>");
    expect(dialog).toContain('<a href="/links">the lake</a>');
    // The Markdown marks reach a visitor nowhere: not in the page, not in its data.
    expect(response.body).not.toContain("**morning**");
  });

  it("server-renders a shared picture's URL with that picture as the share image", async () => {
    const response = await request(server.url(`/?image=${second}`));
    expect(response.status).toBe(200);
    const head = response.body.slice(0, response.body.indexOf("</head>"));
    const ogImage = head.match(/<meta property="og:image" content="([^"]+)"/)?.[1] ?? "";
    expect(ogImage).toMatch(new RegExp(`^${server.origin}/media/images/[0-9a-f-]+/\\d+-[0-9a-f]{16}\\.jpg$`));
    expect((await request(ogImage)).status).toBe(200);
    expect(head).toContain("<title>Second · ");
    // The lightbox is in the HTML, open, without JavaScript.
    expect(response.body).toMatch(
      /<dialog[^>]*open=""[^>]*aria-labelledby="lightbox-title"|<dialog[^>]*aria-labelledby="lightbox-title"[^>]*open=""/,
    );
  });
});
