import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPostForAdmin } from "#app/domains/posts/post-admin.server.ts";
import {
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
  visibleText,
} from "#tests/support/admin-server.ts";
import { testPhoto } from "#tests/support/gallery-factories.ts";
import { postMultipart } from "#tests/support/multipart.ts";
import { postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/** The Posts screen over HTTP, as a browser without JavaScript and as the editor's scripts use it (issue 12). */
describe.each(databaseKinds)("the admin Posts screen over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;
  let memberCookie: string;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    ({ adminCookie, memberCookie } = await signedInAdminAndMember(database));
  });
  afterAll(() => stopServerAndDatabase(server, database));

  const upload = async (cookie: string, data: Buffer, name = "lake.jpg") =>
    postMultipart(server, "/admin/uploads/posts", [{ field: "file", filename: name, type: "image/jpeg", data }], {
      cookie,
      accept: "application/json",
    });
  const counts = async () => ({
    images: (await database.db.selectFrom("images").select("id").execute()).length,
    posts: (await database.db.selectFrom("posts").select("id").execute()).length,
    audit: (await database.db.selectFrom("audit_log").select("id").execute()).length,
  });

  it("takes a picture through the pipeline and answers its id; refuses what is not one, keeping nothing", async () => {
    const answer = await upload(adminCookie, await testPhoto({ width: 900, height: 600 }));
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body) as { ok: boolean; id: string; image: { width: number; variants: unknown[] } };
    expect(body).toMatchObject({ ok: true, image: { width: 900 } });
    expect(body.image.variants.length).toBeGreaterThan(1);
    const before = await counts();
    const refused = await upload(adminCookie, Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), "x.svg");
    expect(refused.status).toBe(415);
    expect(JSON.parse(refused.body).message).toBe("x.svg: not a supported image");
    expect(await counts()).toEqual(before);
    // A member: refused before anything is read.
    expect((await upload(memberCookie, await testPhoto({ width: 400, height: 300 }))).status).toBe(403);
    expect(await counts()).toEqual(before);

    // The preview renders the picture the editor put in the text, as the public pages will.
    const preview = await postForm(
      server,
      "/admin/posts/preview",
      { source: `## Hi\n\n![A lake](image:${body.id})`, lang: "en" },
      { cookie: adminCookie },
    );
    expect(preview.status).toBe(200);
    const { html } = JSON.parse(preview.body) as { html: string };
    expect(html).toContain("<picture");
    expect(html).toMatch(/<img[^>]+alt="A lake"/);
    expect((await postForm(server, "/admin/posts/preview", { source: "x" }, { cookie: memberCookie })).status).toBe(
      403,
    );
  });

  it("works without JavaScript: a new post, its field errors in German, schedule, the list's filter", async () => {
    const refused = await postForm(
      server,
      "/admin/posts/new?lang=de",
      { intent: "save", title: "", slug: "Kein Slug!" },
      { cookie: adminCookie },
    );
    expect(refused.status).toBe(400);
    expect(visibleText(refused.body)).toContain("Nicht gespeichert. Prüfen Sie die markierten Felder.");
    // What was typed is still there.
    expect(refused.body).toContain('value="Kein Slug!"');

    const created = await postForm(
      server,
      "/admin/posts/new",
      { intent: "save", title: "Without scripts", tags: "plain" },
      { cookie: adminCookie },
    );
    expect(created.status).toBe(303);
    const location = created.headers.location ?? "";
    expect(location).toMatch(/^\/admin\/posts\/[0-9a-f-]{36}\?done=save$/);
    const id = location.split("/").pop()?.split("?")[0] ?? "";
    const page = await request(server.url(location), { headers: { Cookie: adminCookie } });
    expect(visibleText(page.body)).toContain("Saved.");

    // No browser zone without JavaScript: the picker's time is read as UTC.
    const scheduled = await postForm(
      server,
      `/admin/posts/${id}`,
      { intent: "schedule", title: "Without scripts", publish_local: "2099-05-01T08:30", time_zone: "" },
      { cookie: adminCookie },
    );
    expect(scheduled.status).toBe(200);
    expect(await getPostForAdmin(database.db, id)).toMatchObject({
      status: "scheduled",
      publishAt: "2099-05-01T08:30:00.000Z",
    });

    const list = await request(server.url("/admin/posts?status=scheduled&q=without"), {
      headers: { Cookie: adminCookie },
    });
    expect(visibleText(list.body)).toContain("Without scripts");
    const none = await request(server.url("/admin/posts?status=draft&q=without"), { headers: { Cookie: adminCookie } });
    expect(visibleText(none.body)).toContain("No post matches this filter.");
  });

  it("autosaves a draft as JSON; a member's autosave or save is refused and changes nothing", async () => {
    const first = await postForm(
      server,
      "/admin/posts/autosave",
      { post_id: "", title: "Auto" },
      { cookie: adminCookie },
    );
    expect(first.status).toBe(200);
    const { id } = JSON.parse(first.body) as { id: string };
    const again = await postForm(
      server,
      "/admin/posts/autosave",
      { post_id: id, title: "Auto", body: "More" },
      { cookie: adminCookie },
    );
    expect(JSON.parse(again.body)).toMatchObject({ ok: true, id });
    expect((await getPostForAdmin(database.db, id))?.body).toBe("More");
    const before = await counts();
    for (const [path, fields] of [
      ["/admin/posts/autosave", { post_id: id, title: "Taken over" }],
      [`/admin/posts/${id}`, { intent: "delete" }],
      ["/admin/posts/new", { intent: "publish", title: "Taken over" }],
    ] as const) {
      expect((await postForm(server, path, fields, { cookie: memberCookie })).status).toBe(403);
    }
    expect(await counts()).toEqual(before);
    expect((await request(server.url(`/admin/posts/${id}`), { headers: { Cookie: memberCookie } })).status).toBe(403);
    expect((await request(server.url("/admin/posts/no-such-post"), { headers: { Cookie: adminCookie } })).status).toBe(
      404,
    );
  });
});
