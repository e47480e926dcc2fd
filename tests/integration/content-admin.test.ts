import { randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { linksService } from "#app/domains/links/links.server.ts";
import { storeImage } from "#app/domains/media/image-pipeline.server.ts";
import { createLocalStorage } from "#app/domains/media/storage.server.ts";
import { videosService } from "#app/domains/videos/videos.server.ts";
import {
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
} from "#tests/support/admin-server.ts";
import { mp4Like, pngPicture } from "#tests/support/media-fixtures.ts";
import { type HttpResponse, postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import { idOfAccepted } from "#tests/support/service-actor.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

const seedActor = { id: "seed", email: "seed@example.test" };

/** Each admin screen with a valid new item, a valid change, and the item's name in the HTML. */
const screens = [
  {
    path: "/admin/links",
    table: "links",
    service: linksService,
    fields: (title: string) => ({ title, url: "https://example.com/", icon: "globe", active: "on" }),
  },
  {
    path: "/admin/faq",
    table: "faq_entries",
    service: faqService,
    fields: (title: string) => ({ question: title, answer: "An answer.", active: "on" }),
  },
  {
    path: "/admin/videos",
    table: "videos",
    service: videosService,
    fields: (title: string) => ({ title, embed_url: "https://youtu.be/dQw4w9WgXcQ", active: "on" }),
  },
] as const;

describe.each(databaseKinds)("content admin and public pages over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;
  let memberCookie: string;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    ({ adminCookie, memberCookie } = await signedInAdminAndMember(database));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  /** Everything an admin action could change: the three tables and the audit log. */
  async function snapshot() {
    return {
      links: await database.db.selectFrom("links").selectAll().orderBy("id").execute(),
      faq: await database.db.selectFrom("faq_entries").selectAll().orderBy("id").execute(),
      videos: await database.db.selectFrom("videos").selectAll().orderBy("id").execute(),
      audit: await database.db.selectFrom("audit_log").selectAll().orderBy("id").execute(),
    };
  }

  describe.each(screens)("$path", ({ path, table, service, fields }) => {
    beforeEach(async () => {
      await database.db.deleteFrom(table).execute();
    });

    /** Every intent of the screen, against two existing items. */
    async function intents(): Promise<Array<() => Promise<Record<string, string>>>> {
      const firstId = idOfAccepted(await service.create(database.db, seedActor, fields(`First ${path}`)));
      const secondId = idOfAccepted(await service.create(database.db, seedActor, fields(`Second ${path}`)));
      // The order names every row as it is when the form is sent (a stale list is refused).
      const reversed = async () =>
        (await service.listAll(database.db))
          .map((row) => row.id)
          .reverse()
          .join(",");
      return [
        async () => ({ intent: "create", ...fields("Created over HTTP") }),
        async () => ({ intent: "update", id: firstId, ...fields("Updated over HTTP") }),
        async () => ({ intent: "toggle", id: firstId, active: "false" }),
        async () => ({ intent: "reorder", ids: await reversed() }),
        async () => ({ intent: "delete", id: secondId }),
      ];
    }

    it("refuses visitors: a redirect to sign-in, nothing changed", async () => {
      for (const makeForm of await intents()) {
        const form = await makeForm();
        const before = await snapshot();
        const response = await postForm(server, path, form);
        expect(response.status, form.intent).toBe(302);
        expect(response.headers.location).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
        expect(await snapshot(), form.intent).toEqual(before);
      }
      expect((await request(server.url(path))).status).toBe(302);
    });

    it("refuses signed-in non-admins with 403, nothing changed", async () => {
      for (const makeForm of await intents()) {
        const form = await makeForm();
        const before = await snapshot();
        const response = await postForm(server, path, form, { cookie: memberCookie });
        expect(response.status, form.intent).toBe(403);
        expect(await snapshot(), form.intent).toEqual(before);
      }
      expect((await request(server.url(path), { headers: { Cookie: memberCookie } })).status).toBe(403);
    });

    it("accepts every action of an admin and records each in the audit log", async () => {
      const forms = await intents();
      const auditBefore = (await snapshot()).audit.length;
      let updatedId = "";
      for (const makeForm of forms) {
        const form = await makeForm();
        if (form.intent === "update") updatedId = form.id ?? "";
        const response = await postForm(server, path, form, { cookie: adminCookie });
        expect(response.status, `${form.intent}: ${response.body.slice(0, 300)}`).toBe(200);
      }
      const rows = await service.listAll(database.db);
      const names = rows.map((row) => ("title" in row ? row.title : "question" in row ? row.question : ""));
      expect(names).toContain("Created over HTTP");
      expect(names).toContain("Updated over HTTP");
      expect(names).not.toContain(`Second ${path}`);
      const updated = rows.find((row) => row.id === updatedId);
      expect(updated?.active === true || updated?.active === 1).toBe(false);
      const audit = (await snapshot()).audit.slice(auditBefore).map((entry) => entry.action);
      expect(audit.map((action) => action.split(".")[1])).toEqual([
        "create",
        "update",
        "deactivate",
        "reorder",
        "delete",
      ]);
    });

    it("answers an admin's invalid input with 400 and changes nothing", async () => {
      const before = await snapshot();
      const forms: Record<string, string>[] = [
        { ...fields(""), intent: "create" },
        fields("No intent"),
        { intent: "delete" },
        { intent: "delete", id: "no-such-item" },
        { intent: "reorder", ids: "a,b" },
      ];
      for (const form of forms) {
        const response: HttpResponse = await postForm(server, path, form, { cookie: adminCookie });
        expect(response.status, JSON.stringify(form)).toBe(400);
      }
      expect(await snapshot()).toEqual(before);
    });

    it("answers a NUL byte in a text or an id with 400 and a message, changing nothing", async () => {
      const itemId = idOfAccepted(await service.create(database.db, seedActor, fields(`Kept ${path}`)));
      const before = await snapshot();
      const forms: Record<string, string>[] = [
        { ...fields("Bad\u0000title"), intent: "create" },
        { ...fields("Bad\u0000title"), intent: "update", id: itemId },
        { ...fields("Fine"), intent: "update", id: `${itemId}\u0000` },
        { intent: "delete", id: "\u0000" },
        { intent: "toggle", id: `${itemId}\u0000`, active: "false" },
        { intent: "reorder", ids: `${itemId},\u0000` },
      ];
      for (const form of forms) {
        const response = await postForm(server, path, form, { cookie: adminCookie });
        expect(response.status, JSON.stringify(form)).toBe(400);
        expect(response.body, JSON.stringify(form)).toMatch(/Nothing was saved|control characters|not understood/);
      }
      expect(await snapshot()).toEqual(before);
    });

    it("shows an admin the screen", async () => {
      const response = await request(server.url(path), { headers: { Cookie: adminCookie } });
      expect(response.status).toBe(200);
    });

    it("names an item's state with the gallery's words: Published or Hidden, in English and German", async () => {
      await service.create(database.db, seedActor, fields("Out there"));
      await service.create(database.db, seedActor, { ...fields("Kept back"), active: "" });
      for (const [lang, published, hidden, publish, hide] of [
        ["en", "Published", "Hidden", "Publish", "Hide"],
        ["de", "Veröffentlicht", "Verborgen", "Veröffentlichen", "Verbergen"],
      ] as const) {
        const html = (await request(server.url(path), { headers: { Cookie: `${adminCookie}; lang=${lang}` } })).body;
        const visible = html.slice(0, html.indexOf("<script"));
        // A badge per item, the add forms' checkbox, and the toggle of each row naming what it does.
        expect((visible.match(new RegExp(`>${published}<`, "g")) ?? []).length, lang).toBeGreaterThanOrEqual(2);
        expect(visible.match(new RegExp(`>${hidden}<`, "g")) ?? [], lang).toHaveLength(1);
        expect(visible, lang).toContain(`>${publish}<`);
        expect(visible, lang).toContain(`>${hide}<`);
        expect(visible, lang).not.toMatch(/>(Active|Inactive|Aktiv|Inaktiv|Show|Anzeigen)</);
      }
    });
  });

  it("refuses a javascript: link and an unknown video host from an admin", async () => {
    const before = await snapshot();
    const link = await postForm(
      server,
      "/admin/links",
      { intent: "create", title: "Bad", url: "javascript:alert(1)", active: "on" },
      { cookie: adminCookie },
    );
    const video = await postForm(
      server,
      "/admin/videos",
      { intent: "create", title: "Bad", embed_url: "https://dailymotion.com/video/x7tgad0", active: "on" },
      { cookie: adminCookie },
    );
    expect([link.status, video.status]).toEqual([400, 400]);
    expect(await snapshot()).toEqual(before);
  });

  it("accepts mailto: and tel: links from an admin and shows them on /links as links that stay in the page", async () => {
    await database.db.deleteFrom("links").execute();
    for (const [title, url, icon] of [
      ["Write to me", "mailto:lena@example.com", "mail"],
      ["Call me", "tel:+49 (30) 123-456", "phone"],
    ] as const) {
      const response = await postForm(
        server,
        "/admin/links",
        { intent: "create", title, url, icon, active: "on" },
        { cookie: adminCookie },
      );
      expect(response.status, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
    }
    expect((await linksService.listAll(database.db)).map((row) => row.url)).toEqual([
      "mailto:lena@example.com",
      "tel:+49 (30) 123-456",
    ]);

    const html = (await request(server.url("/links"))).body;
    const anchors = html.match(/<a [^>]*href="(?:mailto|tel):[^"]*"[^>]*>/g) ?? [];
    expect(anchors).toHaveLength(2);
    expect(anchors[0]).toContain('href="mailto:lena@example.com"');
    // RFC 3966 has no spaces in a telephone URI; the page drops them, the admin keeps what was typed.
    expect(anchors[1]).toContain('href="tel:+49(30)123-456"');
    // A mail program or the phone opens: nothing to open in a new tab, no "opens in a new tab" for them.
    for (const anchor of anchors) expect(anchor).not.toContain("target=");
    expect(html).not.toContain(">(opens in a new tab)<");
  });

  it("answers an address without https:// with the completed one offered, which the page's own form sends", async () => {
    await database.db.deleteFrom("links").execute();
    const before = await snapshot();
    // The form as a browser without JavaScript posts it: the page answers, with what was typed and the offer.
    const typed = { intent: "create", title: "My shop", url: "shop.example.com/new?x=1", icon: "globe", active: "on" };
    const refused = await postForm(server, "/admin/links", typed, { cookie: adminCookie });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain("This address lacks its beginning. Did you mean https://shop.example.com/new?x=1?");
    expect(refused.body).toMatch(/<input[^>]*name="url"[^>]*value="shop.example.com\/new\?x=1"/);
    expect(refused.body).toMatch(/<input[^>]*name="title"[^>]*value="My shop"/);
    const button = refused.body.match(/<button[^>]*type="submit"[^>]*name="url"[^>]*>[^<]*<\/button>/)?.[0] ?? "";
    expect(button).toContain('value="https://shop.example.com/new?x=1"');
    expect(button).toContain(">Use https://shop.example.com/new?x=1<");
    expect(await snapshot()).toEqual(before);

    // That button sends the form with its value last: the completed address is what is stored.
    const accepted = await postForm(
      server,
      "/admin/links",
      { ...typed, url: "https://shop.example.com/new?x=1" },
      { cookie: adminCookie },
    );
    expect(accepted.status).toBe(200);
    expect((await linksService.listAll(database.db)).map((row) => row.url)).toEqual([
      "https://shop.example.com/new?x=1",
    ]);

    // The same for a video's address, in German.
    const video = await postForm(
      server,
      "/admin/videos",
      { intent: "create", title: "Clip", embed_url: "youtu.be/dQw4w9WgXcQ", active: "on" },
      { cookie: `${adminCookie}; lang=de` },
    );
    expect(video.status).toBe(400);
    expect(video.body).toContain("Dieser Adresse fehlt der Anfang. Meinten Sie https://youtu.be/dQw4w9WgXcQ?");
  });

  it("refuses link addresses that are neither web, mail nor telephone addresses, changing nothing", async () => {
    const before = await snapshot();
    for (const url of [
      "javascript:alert(1)",
      "data:text/html,<b>x</b>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "mailto:",
      "mailto:not-an-address",
      "mailto:a@example.com?bcc=everyone@example.com",
      "mailto:javascript:alert(1)",
      "tel:",
      "tel:call-me",
      "tel:+49 30 123;ext=javascript:alert(1)",
    ]) {
      const response = await postForm(
        server,
        "/admin/links",
        { intent: "create", title: "Bad", url, active: "on" },
        { cookie: adminCookie },
      );
      expect(response.status, url).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
  });

  describe("video uploads", () => {
    const UPLOAD = "/admin/uploads/videos";
    const mp4 = mp4Like(100_000);

    function send(fields: Record<string, string>, files: Record<string, Buffer>, cookie?: string) {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      for (const [name, bytes] of Object.entries(files))
        form.append(name, new Blob([new Uint8Array(bytes)]), `${name}.mp4`);
      const headers: Record<string, string> = { Origin: server.origin };
      if (cookie) headers.Cookie = cookie;
      return fetch(server.url(UPLOAD), { method: "POST", body: form, headers, redirect: "manual" });
    }

    const deleteVideoAsAdmin = (id: string) =>
      postForm(server, "/admin/videos", { intent: "delete", id }, { cookie: adminCookie });

    /** The uploaded video files on the server's disk. */
    const storedVideos = () => {
      const directory = path.join(database.location.dataDir, "storage", "public", "videos");
      return fs.existsSync(directory) ? fs.readdirSync(directory) : [];
    };

    beforeEach(async () => {
      await database.db.deleteFrom("videos").execute();
    });

    it("refuses visitors and non-admins and stores nothing", async () => {
      const fields = { intent: "create", title: "Sneaky", active: "on" };
      const visitor = await send(fields, { video: mp4 });
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent(UPLOAD)}`);
      const member = await send(fields, { video: mp4 }, memberCookie);
      expect(member.status).toBe(403);
      expect(await videosService.listAll(database.db)).toEqual([]);
      expect(storedVideos()).toEqual([]);
    });

    it("answers a poster upload for an id with a NUL byte with 400 and stores nothing", async () => {
      const response = await send({ intent: "poster", id: "x\u0000" }, { poster: await pngPicture() }, adminCookie);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toBeTruthy();
      expect(await videosService.listAll(database.db)).toEqual([]);
    });

    it("refuses a file that is not MP4 or WebM with a clear message, leaving no row and no file", async () => {
      const response = await send(
        { intent: "create", title: "Not a video", active: "on" },
        { video: Buffer.from("#!/bin/sh\necho hello\n") },
        adminCookie,
      );
      expect(response.status).toBe(415);
      // The message goes on the file field too, where a screen reader finds it.
      expect(await response.json()).toEqual({
        ok: false,
        message: "This file is not an MP4 or WebM video. Nothing was saved.",
        fieldErrors: { video: "This file is not an MP4 or WebM video. Nothing was saved." },
      });
      expect(await videosService.listAll(database.db)).toEqual([]);
      expect(storedVideos()).toEqual([]);
    });

    it("names the refused file field: no video, a poster that is no image, a poster upload without a file", async () => {
      const existingId = idOfAccepted(
        await videosService.create(database.db, seedActor, {
          title: "Embedded",
          embed_url: "https://youtu.be/dQw4w9WgXcQ",
          active: "on",
        }),
      );
      const cases = [
        [{ intent: "create", title: "No file", active: "on" }, {}, "video"],
        [
          { intent: "create", title: "Bad poster", active: "on" },
          { video: mp4, poster: Buffer.from("no image") },
          "poster",
        ],
        [{ intent: "poster", id: existingId }, {}, "poster"],
        [{ intent: "poster", id: existingId }, { poster: Buffer.from("no image") }, "poster"],
      ] as const;
      for (const [fields, files, field] of cases) {
        const response = await send(fields, files, adminCookie);
        const body = (await response.json()) as { ok: boolean; message: string; fieldErrors?: Record<string, string> };
        expect(body.ok, JSON.stringify(fields)).toBe(false);
        expect(body.fieldErrors, JSON.stringify(fields)).toEqual({ [field]: body.message });
      }
      expect(storedVideos()).toEqual([]);
    });

    it("stores an admin's video and poster, serves them (the video with ranges), and deletes both with the video", async () => {
      const poster = await pngPicture();
      const response = await send(
        { intent: "create", title: "Uploaded", active: "on" },
        { video: mp4, poster },
        adminCookie,
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ ok: true, message: "“Uploaded” was added." });
      const [row] = await videosService.listAll(database.db);
      expect(storedVideos()).toHaveLength(1);
      expect(row?.poster_image_id).toBeTruthy();

      const page = (await request(server.url("/videos"))).body;
      const src = page.match(/<source src="([^"]+)" type="video\/mp4"/)?.[1] ?? "";
      expect(src).toMatch(/^\/media\/videos\/.+\.mp4$/);
      const video = page.match(/<video[^>]*>/)?.[0] ?? "";
      expect(video).toContain('preload="metadata"');
      const posterSrc = video.match(/poster="([^"]+)"/)?.[1] ?? "";
      expect(posterSrc).toMatch(/^\/media\/images\//);
      expect((await request(server.url(posterSrc))).status).toBe(200);
      const partial = await request(server.url(src), { headers: { Range: "bytes=100-199" } });
      expect(partial.status).toBe(206);
      expect(partial.headers["content-range"]).toBe(`bytes 100-199/${mp4.length}`);
      expect(partial.headers["content-type"]).toBe("video/mp4");

      const deleted = await deleteVideoAsAdmin(row?.id ?? "");
      expect(deleted.status).toBe(200);
      expect(storedVideos()).toEqual([]);
      expect((await request(server.url(src))).status).toBe(404);
      expect((await request(server.url(posterSrc))).status).toBe(404);
      expect(await database.db.selectFrom("images").select("id").execute()).toEqual([]);
    });
    it("removes a YouTube entry's poster for an admin only, and says so when there is none to remove", async () => {
      const id = idOfAccepted(
        await videosService.create(database.db, seedActor, {
          title: "Lake",
          embed_url: "https://youtu.be/dQw4w9WgXcQ",
          active: "on",
        }),
      );
      expect((await send({ intent: "poster", id }, { poster: await pngPicture() }, adminCookie)).status).toBe(200);
      const posterId = (await videosService.find(database.db, id))?.poster_image_id;
      expect(posterId).toBeTruthy();
      expect((await request(server.url("/videos"))).body).toContain(`/media/images/${posterId}/`);

      const member = await send({ intent: "removePoster", id }, {}, memberCookie);
      expect(member.status).toBe(403);
      expect((await videosService.find(database.db, id))?.poster_image_id).toBe(posterId);

      const removed = await send({ intent: "removePoster", id }, {}, adminCookie);
      expect(removed.status).toBe(200);
      expect(await removed.json()).toMatchObject({ ok: true, message: "The poster of “Lake” was removed." });
      expect((await videosService.find(database.db, id))?.poster_image_id).toBeNull();
      expect(await database.db.selectFrom("images").select("id").execute()).toEqual([]);
      const page = (await request(server.url("/videos"))).body;
      expect(page).not.toContain("/media/images/");

      const again = await send({ intent: "removePoster", id }, {}, adminCookie);
      expect(again.status).toBe(400);
      expect(await again.json()).toEqual({ ok: false, message: "“Lake” has no poster to remove." });
    });

    it("keeps nothing of an upload the browser cancels halfway: no temp file, no video file, no row", async () => {
      const tempDir = path.join(database.location.dataDir, "tmp", "uploads");
      const tempFiles = () => (fs.existsSync(tempDir) ? fs.readdirSync(tempDir) : []);
      const boundary = "----vitrine-cancelled-upload";
      const head = Buffer.from(
        [
          `--${boundary}`,
          'Content-Disposition: form-data; name="intent"',
          "",
          "create",
          `--${boundary}`,
          'Content-Disposition: form-data; name="title"',
          "",
          "Cancelled",
          `--${boundary}`,
          'Content-Disposition: form-data; name="video"; filename="big.mp4"',
          "Content-Type: video/mp4",
          "",
          "",
        ].join("\r\n"),
      );
      // Announced as 20 MB; a quarter of it is sent, then the connection is dropped, as XMLHttpRequest.abort() does.
      const announced = 20 * 1024 * 1024;
      const socket = net.connect(server.port, "127.0.0.1");
      const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
      socket.on("error", () => {});
      socket.write(
        [
          `POST ${UPLOAD} HTTP/1.1`,
          `Host: 127.0.0.1:${server.port}`,
          `Origin: ${server.origin}`,
          `Cookie: ${adminCookie}`,
          `Content-Type: multipart/form-data; boundary=${boundary}`,
          `Content-Length: ${announced}`,
          "",
          "",
        ].join("\r\n"),
      );
      socket.write(head);
      socket.write(Buffer.concat([mp4, Buffer.alloc(5 * 1024 * 1024, 7)]));
      // The server has begun writing the file to its temp folder…
      await expect.poll(() => tempFiles().length, { timeout: 10_000 }).toBe(1);
      // …and the browser cancels.
      socket.destroy();
      await closed;

      await expect.poll(() => tempFiles(), { timeout: 10_000 }).toEqual([]);
      expect(storedVideos()).toEqual([]);
      expect(await videosService.listAll(database.db)).toEqual([]);
      // The server goes on answering.
      const after = await send({ intent: "create", title: "After", active: "on" }, { video: mp4 }, adminCookie);
      expect(after.status).toBe(200);
      expect(storedVideos()).toHaveLength(1);
    });

    /** Makes a stored file impossible to remove: a directory with content stands where the file was. */
    const blockRemoval = (key: string) => {
      const file = path.join(database.location.dataDir, "storage", key);
      fs.rmSync(file, { force: true });
      fs.mkdirSync(file, { recursive: true });
      fs.writeFileSync(path.join(file, "keep"), "x");
      return () => fs.rmSync(file, { recursive: true, force: true });
    };

    it("answers a committed delete with success even when its files cannot be removed", async () => {
      const created = await send({ intent: "create", title: "Stuck files", active: "on" }, { video: mp4 }, adminCookie);
      expect(created.status).toBe(200);
      const [row] = await videosService.listAll(database.db);
      const unblock = blockRemoval(row?.file_key ?? "");
      try {
        const deleted = await deleteVideoAsAdmin(row?.id ?? "");
        expect(deleted.status).toBe(200);
        expect(deleted.body).toContain("was deleted");
        expect(await videosService.listAll(database.db)).toEqual([]);
      } finally {
        unblock();
      }
    });

    it("answers a poster replacement with success even when the old poster's files cannot be removed", async () => {
      const created = await send(
        { intent: "create", title: "Old poster", active: "on" },
        { video: mp4, poster: await pngPicture() },
        adminCookie,
      );
      expect(created.status).toBe(200);
      const [row] = await videosService.listAll(database.db);
      const oldPoster = await database.db
        .selectFrom("images")
        .select(["id", "original_key"])
        .where("id", "=", row?.poster_image_id ?? "")
        .executeTakeFirstOrThrow();
      const unblock = blockRemoval(oldPoster.original_key);
      try {
        const replaced = await send(
          { intent: "poster", id: row?.id ?? "" },
          { poster: await pngPicture() },
          adminCookie,
        );
        expect(replaced.status).toBe(200);
        const [after] = await videosService.listAll(database.db);
        expect(after?.poster_image_id).not.toBe(oldPoster.id);
      } finally {
        unblock();
      }
    });
  });

  describe("public pages", () => {
    beforeAll(async () => {
      for (const table of ["links", "faq_entries", "videos"] as const) await database.db.deleteFrom(table).execute();
      for (const name of ["Beta", "Hidden", "Alpha"]) {
        const active = name === "Hidden" ? "" : "on";
        await linksService.create(database.db, seedActor, {
          title: `Link ${name}`,
          url: `https://example.com/${name}`,
          icon: "github",
          active,
        });
        await faqService.create(database.db, seedActor, {
          question: `Question ${name}?`,
          answer: `Answer ${name} </script><b>`,
          active,
        });
        await videosService.create(database.db, seedActor, {
          title: `Video ${name}`,
          embed_url: "https://youtu.be/dQw4w9WgXcQ",
          active,
        });
      }
    });

    /** The page shows `first` before `second`, and not `hidden`. */
    function expectShownInOrder(html: string, [first, second]: [string, string], hidden: string) {
      const firstAt = html.indexOf(first);
      expect(firstAt).toBeGreaterThan(0);
      expect(html.indexOf(second)).toBeGreaterThan(firstAt);
      expect(html).not.toContain(hidden);
    }

    it("/links lists the active links in order, opening safely", async () => {
      const html = (await request(server.url("/links"))).body;
      expectShownInOrder(html, ["Link Beta", "Link Alpha"], "Link Hidden");
      expect(html).toMatch(/<a [^>]*href="https:\/\/example.com\/Beta"[^>]*rel="noopener noreferrer"/);
    });

    it("/faq shows the active entries in order with FAQPage data in the server HTML", async () => {
      const html = (await request(server.url("/faq"))).body;
      expectShownInOrder(html, ["Question Beta?", "Question Alpha?"], "Question Hidden?");
      expect(html).toContain("<details");
      const json = html.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/)?.[1] ?? "";
      const data = JSON.parse(json);
      expect(data["@type"]).toBe("FAQPage");
      expect(data.mainEntity.map((q: { name: string }) => q.name)).toEqual(["Question Beta?", "Question Alpha?"]);
      expect(json).not.toContain("<");
    });

    it("/videos shows the active videos in order without loading anything from the host", async () => {
      const html = (await request(server.url("/videos"))).body;
      expectShownInOrder(html, ["Video Beta", "Video Alpha"], "Video Hidden");
      expect(html).not.toContain("<iframe");
      expect(html).not.toMatch(/src="https?:\/\/[^"]*(youtube|ytimg|vimeo)/);
    });

    it("/home shows the latest published pictures, the active links and the latest active video", async () => {
      const storage = createLocalStorage({ root: path.join(database.location.dataDir, "storage"), secret: "unused" });
      const pictures: Record<string, string> = {};
      for (const [title, published] of [
        ["Picture old", true],
        ["Picture hidden", false],
        ["Picture new", true],
      ] as const) {
        const file = path.join(database.location.dataDir, `${title}.png`);
        fs.writeFileSync(file, await pngPicture(400, 300));
        const imageId = await storeImage(database.db, file, { storage });
        const id = randomUUID();
        pictures[title] = id;
        const now = new Date(Date.now() + Object.keys(pictures).length * 1000);
        await database.db
          .insertInto("gallery_images")
          .values({
            id,
            image_id: imageId,
            title,
            title_de: "",
            description: "",
            description_de: "",
            category: "",
            category_de: "",
            sort_order: 0,
            published,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }

      const html = (await request(server.url("/home"))).body;
      expectShownInOrder(
        html,
        [`href="/?image=${pictures["Picture new"]}"`, `href="/?image=${pictures["Picture old"]}"`],
        "Picture hidden",
      );
      expect(html).toMatch(/<img[^>]*alt="Picture new"/);
      const src = html.match(/<img[^>]*alt="Picture new"[^>]*>/)?.[0].match(/src="([^"]+)"/)?.[1] ?? "";
      expect((await request(server.url(src))).status).toBe(200);
      expect(html).toContain("Link Beta");
      expect(html).not.toContain("Link Hidden");
      // The latest active video (Alpha was created last), not the first in display order (Beta).
      expect(html).toContain("Video Alpha");
      expect(html).not.toContain("Video Beta");
      expect(html).not.toContain("Video Hidden");
    });
  });
});
