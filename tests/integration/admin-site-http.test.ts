import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findInviteCode } from "#app/domains/invites/invites.server.ts";
import { enqueueJob } from "#app/domains/jobs/job-queue.server.ts";
import { createLocalStorage, mediaSigningSecret } from "#app/domains/media/storage.server.ts";
import { settingDefaults } from "#app/domains/settings/settings-defaults.ts";
import { SETTING_LIMITS } from "#app/domains/settings/settings-form.ts";
import { adminRoutes, dataPathOf as dataPath } from "#tests/support/admin-routes.ts";
import {
  cookieFor,
  expectSentToSignIn,
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
  visibleText,
} from "#tests/support/admin-server.ts";
import { type CreatedUser, createInvite, createUser, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { createGalleryPicture } from "#tests/support/gallery-factories.ts";
import { type FilePart, postMultipart } from "#tests/support/multipart.ts";
import { postForm, request, type ServerProcess, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

function linkTags(html: string): string[] {
  return html.slice(0, html.indexOf("</head>")).match(/<link[^>]*>/g) ?? [];
}

async function pngPart(width: number, height: number, color: string): Promise<FilePart> {
  const data = await sharp({ create: { width, height, channels: 4, background: color } })
    .png()
    .toBuffer();
  return { field: "file", filename: "picture.png", type: "image/png", data };
}

function titleOf(html: string): string | undefined {
  return html.slice(0, html.indexOf("</head>")).match(/<title>([^<]*)<\/title>/)?.[1];
}

const READ_PATHS = [
  "/admin/settings",
  "/admin/invites",
  "/admin/users",
  "/admin/groups",
  "/admin/audit",
  "/admin/audit?area=settings",
  "/admin/outbox",
  "/admin/posts",
  "/admin/posts?status=draft&q=walk",
  "/admin/posts/new",
];

/**
 * Every admin route of app/routes.ts (and its `.data` request where it has a page) and the screens above: a guard
 * forgotten on a new route fails here.
 */
const GUARDED_PATHS = [
  ...new Set([
    ...adminRoutes().flatMap((route) => (route.page ? [route.path, dataPath(route.path)] : [route.path])),
    ...READ_PATHS.flatMap((path) => [path, dataPath(path)]),
  ]),
];

describe.each(databaseKinds)("the admin site screens over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let owner: CreatedUser;
  let ownerCookie: string;
  let memberCookie: string;

  /** Everything an admin write in these screens can change. */
  const snapshot = async () => ({
    settings: await database.db.selectFrom("site_settings").selectAll().orderBy("key").execute(),
    invites: await database.db.selectFrom("invite_codes").select(["code", "is_used", "note"]).orderBy("code").execute(),
    roles: await database.db.selectFrom("user_roles").select(["user_id", "role"]).orderBy("user_id").execute(),
    users: await database.db.selectFrom("user").select("id").orderBy("id").execute(),
    groups: await database.db.selectFrom("member_groups").select(["id", "name"]).orderBy("id").execute(),
    memberships: await database.db
      .selectFrom("user_groups")
      .selectAll()
      .orderBy("user_id")
      .orderBy("group_id")
      .execute(),
    sessions: await database.db.selectFrom("session").select("id").orderBy("id").execute(),
    audit: await database.db.selectFrom("audit_log").select("id").orderBy("id").execute(),
    // Failed ones only: the server's own worker moves the others meanwhile (recurring sweeps).
    failedJobs: await database.db
      .selectFrom("jobs")
      .select(["id", "attempts", "last_error"])
      .where("state", "=", "failed")
      .orderBy("id")
      .execute(),
    siteFiles: fs.existsSync(siteDir()) ? fs.readdirSync(siteDir()).sort() : [],
  });
  const siteDir = () => path.join(database.location.dataDir, "storage", "public", "site");

  /** A form post as the owner (an admin), as the screens' forms send it. */
  const postAsOwner = (path: string, fields: Record<string, string>) =>
    postForm(server, path, fields, { cookie: ownerCookie });
  const getWithCookie = (path: string, cookie: string) => request(server.url(path), { headers: { Cookie: cookie } });
  /** The text the owner reads on the page. */
  const ownerSees = async (path: string) => visibleText((await getWithCookie(path, ownerCookie)).body);

  beforeAll(async () => {
    // Small, so that an oversize upload is cheap to send.
    ({ database, server } = await startServerOnFreshDatabase(kind, { UPLOAD_MAX_MB: "1" }));
    ({ admin: owner, adminCookie: ownerCookie, memberCookie } = await signedInAdminAndMember(database));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  describe("who may read", () => {
    it.each(GUARDED_PATHS)("%s: visitors sign in first", async (path) => {
      expectSentToSignIn(await request(server.url(path)));
    });

    it.each(GUARDED_PATHS)("%s: a non-admin gets 403", async (path) => {
      const response = await getWithCookie(path, memberCookie);
      expect(response.status).toBe(403);
      expect(response.body).not.toContain(owner.email);
    });

    it.each(READ_PATHS.flatMap((path) => [path, dataPath(path)]))("%s: an admin is served", async (path) => {
      const response = await getWithCookie(path, ownerCookie);
      expect(response.status).toBe(200);
    });

    it("shows an admin each screen's content in the HTML", async () => {
      expect(await ownerSees("/admin/settings")).toContain("Site identity");
      expect(await ownerSees("/admin/users")).toContain(owner.email);
      expect(await ownerSees("/admin/invites")).toContain("Create codes");
      expect(await ownerSees("/admin/groups")).toContain("Create group");
      expect(await ownerSees("/admin/audit")).toContain("Every change made in the admin area");
    });
  });

  describe("who may write", () => {
    /** Every write of these screens, with fields that an admin's request would get through. */
    const writes = (): { path: string; fields: Record<string, string> }[] => [
      { path: "/admin/settings", fields: { intent: "save", site_name: "Taken over" } },
      { path: "/admin/invites", fields: { intent: "create", count: "5", note: "" } },
      { path: "/admin/invites", fields: { intent: "delete", code: spareCode } },
      { path: "/admin/invites", fields: { intent: "send", email: "taken-over@example.test", language: "en" } },
      { path: "/admin/outbox", fields: { intent: "dismiss-failures" } },
      { path: "/admin/users", fields: { intent: "grantAdmin", userId: victim.id } },
      { path: "/admin/users", fields: { intent: "revokeAdmin", userId: owner.id, confirmSelf: "yes" } },
      { path: "/admin/users", fields: { intent: "signOut", userId: owner.id } },
      { path: "/admin/users", fields: { intent: "delete", userId: owner.id, confirmSelf: "yes" } },
      { path: "/admin/users", fields: { intent: "setGroups", userId: victim.id, [`group.${groupId}`]: "on" } },
      { path: "/admin/groups", fields: { intent: "create", name: "Taken over" } },
      { path: "/admin/groups", fields: { intent: "rename", groupId, name: "Taken over" } },
      { path: "/admin/groups", fields: { intent: "addMember", groupId, userId: victim.id } },
      { path: "/admin/groups", fields: { intent: "removeMember", groupId, userId: owner.id } },
      { path: "/admin/groups", fields: { intent: "delete", groupId } },
      { path: "/admin/markdown-preview", fields: { source: "**hi**" } },
      { path: "/admin/jobs", fields: { intent: "retry", id: failedJobId } },
      { path: "/admin/jobs", fields: { intent: "dismiss", id: failedJobId } },
    ];
    /** The resource routes: no `.data` request of their own. */
    const resourceRoutes = ["/admin/markdown-preview", "/admin/jobs"];
    let victim: CreatedUser;
    let spareCode: string;
    let failedJobId: string;
    let groupId: string;

    beforeAll(async () => {
      victim = await createUser(database.db);
      // A group with the owner in it: what a taken-over request would rename, empty or delete.
      groupId = "a3c1f0de-5b7e-4c2a-9d8f-0e1f2a3b4c5d";
      await database.db
        .insertInto("member_groups")
        .values({ id: groupId, name: "Family", created_at: new Date() })
        .execute();
      await database.db.insertInto("user_groups").values({ user_id: owner.id, group_id: groupId }).execute();
      spareCode = await createInvite(database.db);
      // Failed for good, with a kind no worker runs: only an admin's answer could move it.
      failedJobId = (await enqueueJob(database.db, { kind: "test.failed-for-good" })) as string;
      await database.db
        .updateTable("jobs")
        .set({ state: "failed", attempts: 5, last_error: "gave up", finished_at: new Date() })
        .where("id", "=", failedJobId)
        .execute();
    });

    it("refuses visitors and non-admins, as documents and as data requests, and nothing changes", async () => {
      const before = await snapshot();
      for (const { path, fields } of writes()) {
        for (const target of resourceRoutes.includes(path) ? [path] : [path, `${path}.data`]) {
          const asVisitor = await postForm(server, target, fields);
          expectSentToSignIn(asVisitor);
          const asMember = await postForm(server, target, fields, { cookie: memberCookie });
          expect(asMember.status, `member ${target} ${fields.intent}`).toBe(403);
        }
      }
      expect(await snapshot()).toEqual(before);
    });

    it("refuses a write from another site even with an admin's cookie", async () => {
      const before = await snapshot();
      const response = await postForm(
        server,
        "/admin/settings",
        { intent: "save", site_name: "Cross-site" },
        { cookie: ownerCookie, origin: "https://evil.example" },
      );
      expect(response.status).toBe(403);
      expect(await snapshot()).toEqual(before);
    });

    it("renders a Markdown preview for an admin by the public pages' rules", async () => {
      const response = await postAsOwner("/admin/markdown-preview", {
        source: "**bold** <script>alert(1)</script> [x](javascript:alert(1)) [ok](https://example.com)",
      });
      expect(response.status).toBe(200);
      const { html } = JSON.parse(response.body) as { html: string };
      expect(html).toContain("<strong>bold</strong>");
      expect(html).not.toContain("<script");
      expect(html).not.toContain('href="javascript:');
      expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer">ok</a>');

      const tooLong = await postAsOwner("/admin/markdown-preview", { source: "x".repeat(SETTING_LIMITS.markdown + 1) });
      expect(tooLong.status).toBe(400);
    });

    it("accepts an admin's data request (as the screens send them)", async () => {
      const response = await postAsOwner("/admin/invites.data", { intent: "create", count: "2", note: "data request" });
      expect(response.status).toBe(200);
      expect(response.body).toContain("Invite codes created: 2.");
      const rows = await database.db
        .selectFrom("invite_codes")
        .select("code")
        .where("note", "=", "data request")
        .execute();
      expect(rows).toHaveLength(2);
    });
  });

  describe("settings", () => {
    const save = (fields: Record<string, string>) => postAsOwner("/admin/settings", { intent: "save", ...fields });

    it("saves, says so, records the change, and the public pages show it on their next load", async () => {
      const response = await save({
        site_name: "Jo's Photographs",
        footer_copyright_de: "© 2026 Jo – alle Rechte vorbehalten",
        meta_description: "Mountains and lakes",
      });

      expect(response.status).toBe(200);
      expect(visibleText(response.body)).toContain("Saved. Settings changed: 3.");
      // The page answering the post (no JavaScript) already shows what was saved: form, header and title.
      expect(response.body).toContain('value="Jo&#x27;s Photographs"');
      expect(titleOf(response.body)).toBe("Site settings · Jo&#x27;s Photographs");
      const home = (await request(server.url("/"))).body;
      expect(titleOf(home)).toBe("Jo&#x27;s Photographs");
      expect(home).toContain('<meta name="description" content="Mountains and lakes"/>');
      const german = visibleText((await request(server.url("/?lang=de"))).body);
      expect(german).toContain("© 2026 Jo – alle Rechte vorbehalten");
      const audit = await database.db
        .selectFrom("audit_log")
        .select(["action", "target", "old_value", "new_value", "actor_email"])
        .where("target", "=", "site_name")
        .execute();
      expect(audit).toEqual([
        {
          action: "settings.update",
          target: "site_name",
          old_value: settingDefaults.site_name,
          new_value: "Jo's Photographs",
          actor_email: owner.email,
        },
      ]);
    });

    it.each([
      ["a bad URL", { site_logo_url: "not a url" }, "site_logo_url", "Not an address that can be used"],
      [
        "a javascript: URL",
        { meta_og_image: "javascript:alert(1)" },
        "meta_og_image",
        "Not an address that can be used",
      ],
      [
        // Refused, with the completed address offered to the owner (never stored as typed).
        "a protocol-relative URL",
        { watermark_url: "//evil.example/" },
        "watermark_url",
        "This address lacks its beginning. Did you mean https://evil.example/?",
      ],
      [
        "another site's logo (the Content-Security-Policy would block it)",
        { site_logo_url: "https://cdn.example/logo.png" },
        "site_logo_url",
        "images from other sites are blocked for visitors",
      ],
      [
        "another site's favicon",
        { site_favicon_url: "https://cdn.example/favicon.ico" },
        "site_favicon_url",
        "images from other sites are blocked for visitors",
      ],
      ["an oversize title", { site_name: "x".repeat(201) }, "site_name", "Too long: at most 200 characters."],
      [
        "an oversize Markdown text",
        { imprint_content: "x".repeat(SETTING_LIMITS.markdown + 1) },
        "imprint_content",
        "Too long: at most 20000 characters.",
      ],
      [
        "a watermark flag other than true/false",
        { watermark_enabled: "yes" },
        "watermark_enabled",
        "Must be on or off.",
      ],
      ["an unknown key", { is_admin: "true" }, "is_admin", "unknown setting is_admin"],
    ])(
      "refuses %s with a message and changes nothing, not even the valid fields",
      async (_label, bad, _key, message) => {
        const before = await snapshot();
        const response = await save({ site_logo_text: "Should not be saved", ...bad });
        expect(response.status).toBe(400);
        expect(visibleText(response.body)).toContain(message);
        expect(await snapshot()).toEqual(before);
      },
    );

    it("refuses an invalid value sent as a data request too", async () => {
      const before = await snapshot();
      const response = await postAsOwner("/admin/settings.data", {
        intent: "save",
        site_favicon_url: "javascript:alert(1)",
      });
      expect(response.status).toBe(400);
      expect(response.body).toContain("Not an address that can be used");
      expect(await snapshot()).toEqual(before);
    });

    it("answers a form without settings or with an unknown intent with 400", async () => {
      const before = await snapshot();
      expect((await save({})).status).toBe(400);
      expect((await postAsOwner("/admin/settings", { intent: "drop" })).status).toBe(400);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe("invite codes", () => {
    it("creates codes with a note and lists them with their state", async () => {
      const response = await postAsOwner("/admin/invites", { intent: "create", count: "3", note: "For the band" });
      expect(response.status).toBe(200);
      expect(visibleText(response.body)).toContain("Invite codes created: 3.");
      const rows = await database.db
        .selectFrom("invite_codes")
        .select("code")
        .where("note", "=", "For the band")
        .execute();
      expect(rows).toHaveLength(3);
      const page = await ownerSees("/admin/invites");
      for (const { code } of rows) expect(page).toContain(code);
    });

    it.each(["0", "101", "two", ""])("refuses a count of %j", async (count) => {
      const before = await snapshot();
      const response = await postAsOwner("/admin/invites", { intent: "create", count });
      expect(response.status).toBe(400);
      expect(visibleText(response.body)).toContain("Enter a whole number from 1 to 100.");
      expect(await snapshot()).toEqual(before);
    });

    it("answers a note with a NUL byte with 400 and a message, creating nothing", async () => {
      const before = await snapshot();
      const response = await postAsOwner("/admin/invites", { intent: "create", count: "1", note: "for\u0000Jo" });
      expect(response.status).toBe(400);
      expect(visibleText(response.body)).toContain("control characters");
      expect(await snapshot()).toEqual(before);
    });

    it("deletes an unused code, which then fails at sign-up", async () => {
      const code = await createInvite(database.db);
      const response = await postAsOwner("/admin/invites", { intent: "delete", code });
      expect(response.status).toBe(200);
      expect(await findInviteCode(database.db, code)).toBeUndefined();

      const signUp = await postForm(server, "/auth", {
        intent: "sign-up",
        email: uniqueEmail(),
        password: strongPassword(),
        inviteCode: code,
      });
      expect(signUp.status).toBe(400);
      expect(visibleText(signUp.body)).toContain("Invalid invite code");
    });

    it("refuses to delete a used code: it stays as history", async () => {
      const code = await createInvite(database.db);
      const email = uniqueEmail();
      await postForm(server, "/auth", { intent: "sign-up", email, password: strongPassword(), inviteCode: code });
      const before = await snapshot();

      const response = await postAsOwner("/admin/invites", { intent: "delete", code });

      expect(response.status).toBe(400);
      expect(visibleText(response.body)).toContain("A used code cannot be deleted");
      expect(await snapshot()).toEqual(before);
      const page = await ownerSees("/admin/invites");
      expect(page).toContain(code);
      expect(page).toContain(email);
    });
  });

  describe("users", () => {
    it("grants the admin role, and the new admin can open the admin area", async () => {
      const user = await createUser(database.db);
      const cookie = await cookieFor(database, user);
      expect((await getWithCookie("/admin/users", cookie)).status).toBe(403);

      const response = await postAsOwner("/admin/users", { intent: "grantAdmin", userId: user.id });

      expect(response.status).toBe(200);
      expect(visibleText(response.body)).toContain(`${user.email} is now an admin.`);
      expect((await getWithCookie("/admin/users", cookie)).status).toBe(200);
    });

    it("answers a user id with a NUL byte with 400, changing nothing", async () => {
      const before = await snapshot();
      for (const intent of ["grantAdmin", "revokeAdmin", "signOut", "delete"]) {
        const response = await postAsOwner("/admin/users", { intent, userId: `${owner.id}\u0000` });
        expect(response.status, intent).toBe(400);
      }
      expect(await snapshot()).toEqual(before);
    });

    it("signs a user out everywhere: their cookie is worth nothing afterwards", async () => {
      const user = await createUser(database.db, { admin: true });
      const cookie = await cookieFor(database, user);
      expect((await getWithCookie("/admin", cookie)).status).toBe(200);

      const response = await postAsOwner("/admin/users", { intent: "signOut", userId: user.id });

      expect(response.status).toBe(200);
      expectSentToSignIn(await getWithCookie("/admin", cookie));
    });

    it("deletes an account; its invite code is listed as used by a deleted account", async () => {
      const code = await createInvite(database.db);
      const email = uniqueEmail("leaving");
      await postForm(server, "/auth", { intent: "sign-up", email, password: strongPassword(), inviteCode: code });
      const user = await database.db
        .selectFrom("user")
        .select("id")
        .where("email", "=", email)
        .executeTakeFirstOrThrow();

      const response = await postAsOwner("/admin/users", { intent: "delete", userId: user.id });

      expect(response.status).toBe(200);
      expect(await database.db.selectFrom("user").select("id").where("id", "=", user.id).execute()).toEqual([]);
      const page = await ownerSees("/admin/invites");
      expect(page).toMatch(new RegExp(`${code} .*deleted account`));
    });

    it("asks an admin to confirm removing their own role or account", async () => {
      const before = await snapshot();
      for (const intent of ["revokeAdmin", "delete"]) {
        const response = await postAsOwner("/admin/users", { intent, userId: owner.id });
        expect(response.status).toBe(400);
        expect(visibleText(response.body)).toContain("This concerns your own account: confirm it in the dialog");
      }
      expect(await snapshot()).toEqual(before);
    });

    it("keeps the last admin: neither demoted nor deleted", async () => {
      // Leave the owner as the only admin.
      await database.db.deleteFrom("user_roles").where("user_id", "!=", owner.id).execute();
      const before = await snapshot();

      for (const intent of ["revokeAdmin", "delete"]) {
        const response = await postAsOwner("/admin/users", { intent, userId: owner.id, confirmSelf: "yes" });
        expect(response.status).toBe(400);
        expect(visibleText(response.body)).toContain("The last admin cannot be removed");
      }

      expect(await snapshot()).toEqual(before);
      expect((await getWithCookie("/admin/users", ownerCookie)).status).toBe(200);
    });
  });

  describe("member groups", () => {
    it("creates a group and puts an account in it by plain form posts; the same name in another case is refused", async () => {
      const member = await createUser(database.db);
      const created = await postAsOwner("/admin/groups", { intent: "create", name: "Neighbours" });
      expect(created.status).toBe(200);
      expect(visibleText(created.body)).toContain("Group “Neighbours” created.");
      const refused = await postAsOwner("/admin/groups", { intent: "create", name: "NEIGHBOURS" });
      expect(refused.status).toBe(400);
      expect(visibleText(refused.body)).toContain("A group of that name exists already");

      const group = await database.db
        .selectFrom("member_groups")
        .select("id")
        .where("name", "=", "Neighbours")
        .executeTakeFirstOrThrow();
      const saved = await postAsOwner("/admin/users", {
        intent: "setGroups",
        userId: member.id,
        [`group.${group.id}`]: "on",
      });
      expect(visibleText(saved.body)).toContain(`Groups of ${member.email} saved.`);
      expect(await ownerSees("/admin/groups")).toContain(member.email);
    });
  });

  describe("site image uploads", () => {
    /** An upload as the owner, answered in JSON as the settings screen's script asks. */
    const uploadAsOwner = (path: string, parts: FilePart[]) =>
      postMultipart(server, path, parts, { cookie: ownerCookie, accept: "application/json" });

    it("refuses visitors and non-admins, and nothing changes", async () => {
      const before = await snapshot();
      for (const kind of ["logo", "favicon", "share-image"]) {
        const file = await pngPart(64, 64, "#336699");
        expectSentToSignIn(await postMultipart(server, `/admin/uploads/site/${kind}`, [file]));
        const asMember = await postMultipart(server, `/admin/uploads/site/${kind}`, [file], { cookie: memberCookie });
        expect(asMember.status).toBe(403);
      }
      expect(await snapshot()).toEqual(before);
    });

    it("makes the favicon sizes; every page's head links them and they are served", async () => {
      const response = await uploadAsOwner("/admin/uploads/site/favicon", [await pngPart(300, 300, "#ff8800")]);

      expect(response.status).toBe(200);
      const answer = JSON.parse(response.body) as { ok: boolean; message: string; url: string };
      expect(answer).toMatchObject({ ok: true, message: "Uploaded and saved." });
      const hash = answer.url.match(/^\/media\/site\/favicon-([0-9a-f]{16})-32\.png$/)?.[1];
      expect(hash).toBeDefined();
      const links = linkTags((await request(server.url("/faq"))).body);
      for (const [rel, size] of [
        ["icon", 32],
        ["apple-touch-icon", 180],
        ["icon", 192],
        ["icon", 512],
      ] as const) {
        const href = `/media/site/favicon-${hash}-${size}.png`;
        expect(
          links.some(
            (tag) =>
              tag.includes(`rel="${rel}"`) && tag.includes(`sizes="${size}x${size}"`) && tag.includes(`href="${href}"`),
          ),
          href,
        ).toBe(true);
        const file = await request(server.url(href));
        expect(file.status).toBe(200);
        expect(file.headers["content-type"]).toBe("image/png");
      }
    });

    it("replaces the logo and removes the old file; a form post without JavaScript goes back to the settings", async () => {
      const first = await uploadAsOwner("/admin/uploads/site/logo", [await pngPart(400, 200, "#00aa00")]);
      const oldUrl = (JSON.parse(first.body) as { url: string }).url;
      expect((await request(server.url(oldUrl))).status).toBe(200);
      expect((await request(server.url("/"))).body).toContain(`src="${oldUrl}"`);

      const second = await postMultipart(server, "/admin/uploads/site/logo", [await pngPart(400, 200, "#aa0000")], {
        cookie: ownerCookie,
      });

      expect(second.status).toBe(303);
      expect(second.headers.location).toBe("/admin/settings");
      const newUrl = (
        await database.db
          .selectFrom("site_settings")
          .select("value")
          .where("key", "=", "site_logo_url")
          .executeTakeFirstOrThrow()
      ).value;
      expect(newUrl).not.toBe(oldUrl);
      expect((await request(server.url(newUrl))).status).toBe(200);
      expect((await request(server.url(oldUrl))).status).toBe(404);
    });

    const storedValue = async (key: string) =>
      (await database.db.selectFrom("site_settings").select("value").where("key", "=", key).executeTakeFirst())
        ?.value ??
      (settingDefaults as Record<string, string>)[key] ??
      "";
    const uploadLogo = async (color: string) =>
      (
        JSON.parse((await uploadAsOwner("/admin/uploads/site/logo", [await pngPart(400, 200, color)])).body) as {
          url: string;
        }
      ).url;
    /** The Identity form as a tab loaded with `loaded` posts it: every field, and the values it was loaded with. */
    const identityForm = (loaded: Record<string, string>, edits: Record<string, string>) => {
      const fields: Record<string, string> = { intent: "save" };
      for (const [key, value] of Object.entries(loaded)) {
        fields[key] = edits[key] ?? value;
        fields[`__was__${key}`] = value;
      }
      return postAsOwner("/admin/settings", fields);
    };
    const identityKeys = ["site_name", "site_logo_text", "site_logo_url", "site_favicon_url"];
    const loadIdentity = async () =>
      Object.fromEntries(await Promise.all(identityKeys.map(async (key) => [key, await storedValue(key)] as const)));

    it("a stale tab saving Identity keeps the logo uploaded meanwhile, and its files", async () => {
      const stale = await loadIdentity();
      const logo = await uploadLogo("#1122cc");

      const response = await identityForm(stale, { site_name: "Saved from an old tab" });

      expect(response.status).toBe(200);
      expect(await storedValue("site_name")).toBe("Saved from an old tab");
      expect(await storedValue("site_logo_url")).toBe(logo);
      expect((await request(server.url(logo))).status).toBe(200);
    });

    it("refuses with 409 to overwrite an image setting changed elsewhere meanwhile, and saves nothing", async () => {
      const stale = await loadIdentity();
      const logo = await uploadLogo("#cc2211");
      const before = await snapshot();

      const response = await identityForm(stale, { site_name: "Not saved", site_logo_url: "" });

      expect(response.status).toBe(409);
      expect(visibleText(response.body)).toContain("changed elsewhere in the meantime");
      expect(await snapshot()).toEqual(before);
      expect((await request(server.url(logo))).status).toBe(200);
    });

    it("refuses a /media/site/ address that names no uploaded file", async () => {
      const before = await snapshot();
      const response = await identityForm(await loadIdentity(), {
        site_logo_url: "/media/site/logo-0000000000000000.webp",
      });
      expect(response.status).toBe(400);
      expect(visibleText(response.body)).toContain("No uploaded file has this address");
      expect(await snapshot()).toEqual(before);
    });

    it("keeps the files of a replaced image that another image setting still names", async () => {
      const logo = await uploadLogo("#22cc11");
      const sharing = await postAsOwner("/admin/settings", {
        intent: "save",
        meta_og_image: logo,
        __was__meta_og_image: await storedValue("meta_og_image"),
      });
      expect(sharing.status).toBe(200);

      const cleared = await identityForm(await loadIdentity(), { site_logo_url: "" });

      expect(cleared.status).toBe(200);
      expect(await storedValue("site_logo_url")).toBe("");
      expect((await request(server.url(logo))).status).toBe(200);
    });

    it.each([
      [
        "a text file named .png",
        { field: "file", filename: "x.png", type: "image/png", data: Buffer.from("not an image at all") },
        415,
        "Not a usable image",
      ],
      [
        "an SVG",
        {
          field: "file",
          filename: "x.svg",
          type: "image/svg+xml",
          data: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"),
        },
        415,
        "Not a usable image",
      ],
      [
        "a file over UPLOAD_MAX_MB",
        { field: "file", filename: "big.png", type: "image/png", data: Buffer.alloc(1024 * 1024 + 10, 1) },
        413,
        "The file is larger than the allowed 1 MB.",
      ],
    ] as const)("refuses %s with a message and changes nothing", async (_label, part, status, message) => {
      const before = await snapshot();
      const response = await uploadAsOwner("/admin/uploads/site/share-image", [
        { ...part, data: Buffer.from(part.data) },
      ]);
      expect(response.status).toBe(status);
      expect(JSON.parse(response.body)).toMatchObject({ ok: false, message: expect.stringContaining(message) });
      expect(await snapshot()).toEqual(before);
    });

    it("answers an upload without a file, or of an unknown kind, with a message", async () => {
      const before = await snapshot();
      const empty = await uploadAsOwner("/admin/uploads/site/logo", []);
      expect(empty.status).toBe(400);
      expect(empty.body).toContain("Choose an image file first.");
      const unknown = await uploadAsOwner("/admin/uploads/site/wallpaper", [await pngPart(10, 10, "#000000")]);
      expect(unknown.status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe("brand", () => {
    const year = new Date().getUTCFullYear();
    /** The visible text of a public page's header and footer. */
    const headerAndFooter = async (path: string) => {
      const html = (await request(server.url(path))).body;
      return {
        header: visibleText(html.slice(html.indexOf("<header"), html.indexOf("</header>"))),
        footer: visibleText(html.slice(html.indexOf("<footer"), html.indexOf("</footer>"))),
      };
    };
    const storedWatermark = async (imageId: string) =>
      (await database.db.selectFrom("images").select("watermark").where("id", "=", imageId).executeTakeFirstOrThrow())
        .watermark;

    it("renaming the site renames what the owner has not written: header, footer, copyright, watermark", async () => {
      const storage = createLocalStorage({
        root: path.join(database.location.dataDir, "storage"),
        secret: mediaSigningSecret(TEST_AUTH_SECRET),
      });
      const pictureId = await createGalleryPicture(database.db, storage, { watermark: "© Vitrine", width: 1400 });
      const { image_id: imageId } = await database.db
        .selectFrom("gallery_images")
        .select("image_id")
        .where("id", "=", pictureId)
        .executeTakeFirstOrThrow();

      const renamed = await postAsOwner("/admin/settings", {
        intent: "save",
        site_name: "Lena Kraus Photography",
        // An earlier test wrote a German copyright line of its own: back to following the name.
        footer_copyright_de: "",
        watermark_enabled: "true",
      });
      expect(renamed.status).toBe(200);

      for (const lang of ["en", "de"]) {
        const { header, footer } = await headerAndFooter(`/links?lang=${lang}`);
        expect(header, lang).toContain("Lena Kraus Photography");
        expect(footer, lang).toContain(`© ${year} Lena Kraus Photography`);
        expect(footer, lang).not.toContain("Vitrine");
      }
      await expect.poll(() => storedWatermark(imageId), { timeout: 20_000 }).toBe("© Lena Kraus Photography");
      // The settings screen shows what each empty field stands for, in the field's section.
      const footerSection = (await getWithCookie("/admin/settings?section=footer", ownerCookie)).body;
      expect(footerSection).toContain(`placeholder="© ${year} Lena Kraus Photography"`);
      const watermarkSection = (await getWithCookie("/admin/settings?section=watermark", ownerCookie)).body;
      expect(watermarkSection).toContain('placeholder="© Lena Kraus Photography"');

      // A copyright line of the owner's own stays when the site is renamed again; the rest follows.
      await postAsOwner("/admin/settings", { intent: "save", footer_copyright: "© Lena Kraus, all rights reserved" });
      const again = await postAsOwner("/admin/settings", { intent: "save", site_name: "Lena K." });
      expect(again.status).toBe(200);
      for (const lang of ["en", "de"]) {
        const { header, footer } = await headerAndFooter(`/faq?lang=${lang}`);
        expect(header, lang).toContain("Lena K.");
        expect(footer, lang).toContain("© Lena Kraus, all rights reserved");
        expect(footer, lang).toContain("Lena K.");
        expect(footer, lang).not.toContain(`© ${year}`);
      }
      await expect.poll(() => storedWatermark(imageId), { timeout: 20_000 }).toBe("© Lena K.");
    });
  });

  describe("watermark", () => {
    it("redraws the gallery's images after the watermark text changes", async () => {
      const storage = createLocalStorage({
        root: path.join(database.location.dataDir, "storage"),
        secret: mediaSigningSecret(TEST_AUTH_SECRET),
      });
      const pictureId = await createGalleryPicture(database.db, storage, {
        watermark: settingDefaults.watermark_text,
        width: 1400,
        height: 900,
      });
      const { image_id: id } = await database.db
        .selectFrom("gallery_images")
        .select("image_id")
        .where("id", "=", pictureId)
        .executeTakeFirstOrThrow();

      const response = await postAsOwner("/admin/settings", {
        intent: "save",
        watermark_enabled: "true",
        watermark_text: "© Jo Example",
      });
      expect(response.status).toBe(200);

      await expect
        .poll(
          async () =>
            (await database.db.selectFrom("images").select("watermark").where("id", "=", id).executeTakeFirstOrThrow())
              .watermark,
          { timeout: 20_000 },
        )
        .toBe("© Jo Example");
    });
  });

  describe("audit log", () => {
    it("reads real writes as sentences in the admin's language, items named by their title", async () => {
      const max = await createUser(database.db, { email: uniqueEmail("max") });
      expect((await postAsOwner("/admin/users", { intent: "grantAdmin", userId: max.id })).status).toBe(200);
      expect((await postAsOwner("/admin/settings", { intent: "save", site_name: "Lena Kraft" })).status).toBe(200);
      const storage = createLocalStorage({
        root: path.join(database.location.dataDir, "storage"),
        secret: mediaSigningSecret(TEST_AUTH_SECRET),
      });
      await createGalleryPicture(database.db, storage, { title: "Beach" });
      await createGalleryPicture(database.db, storage, { title: "Alpine lake" });
      const order = await database.db
        .selectFrom("gallery_images")
        .select(["id", "title"])
        .orderBy("sort_order")
        .orderBy("id")
        .execute();
      const lake = order.find((row) => row.title === "Alpine lake")?.id as string;
      const rest = order.filter((row) => row.id !== lake).map((row) => row.id);
      const moved = await postAsOwner("/admin/gallery", { intent: "reorder", ids: [lake, ...rest].join(",") });
      expect(moved.status).toBe(200);

      const english = await ownerSees("/admin/audit");
      expect(english).toContain(`${owner.email} made ${max.email} an admin`);
      expect(english).toContain(`${owner.email} changed the setting “Site name”`);
      expect(english).toContain("Lena Kraft");
      expect(english).toContain(`${owner.email} moved the picture “Alpine lake” to the top`);
      expect(english).not.toContain(lake);

      const german = visibleText((await getWithCookie("/admin/audit", `${ownerCookie}; lang=de`)).body);
      expect(german).toContain(`${owner.email} hat ${max.email} zum Admin gemacht`);
      expect(german).toContain(`${owner.email} hat die Einstellung „Name der Website“ geändert`);
      expect(german).toContain(`${owner.email} hat das Bild „Alpine lake“ an den Anfang verschoben`);
    });

    it("lists the writes newest first, filtered by area, a page at a time", async () => {
      await postAsOwner("/admin/invites", { intent: "create", count: "60", note: "" });
      const all = await ownerSees("/admin/audit");
      expect(all).toContain(`${owner.email} created the invite code`);
      // Newest first: page 1 holds the codes just created; the earlier settings writes are on the last page.
      expect(all).not.toContain("changed the setting");
      const users = await ownerSees("/admin/audit?area=users");
      expect(users).toContain("an admin");
      expect(users).toContain("deleted the account");
      expect(users).not.toContain("created the invite code");

      const settingsOnly = await ownerSees("/admin/audit?area=settings");
      expect(settingsOnly).toContain(`${owner.email} changed the setting`);
      expect(settingsOnly).not.toContain("created the invite code");

      const total = (await database.db.selectFrom("audit_log").select("id").execute()).length;
      expect(total).toBeGreaterThan(50);
      const second = await ownerSees("/admin/audit?page=2");
      expect(second).toContain(`Page 2 of ${Math.ceil(total / 50)}`);
      const last = await ownerSees(`/admin/audit?page=${Math.ceil(total / 50)}`);
      expect(last).toContain("changed the setting");
    });

    it("shrugs off a nonsense page or area", async () => {
      const response = await request(server.url("/admin/audit?page=-3&area=<script>"), {
        headers: { Cookie: ownerCookie },
      });
      expect(response.status).toBe(200);
      expect(visibleText(response.body)).toContain("Page 1 of");
    });
  });

  // After the audit log's tests, which count the writes before them.
  describe("menu order", () => {
    const save = (fields: Record<string, string>) => postAsOwner("/admin/settings", { intent: "save", ...fields });

    it("puts the menu in the saved order on every page in both languages, and refuses an order that is not one of each", async () => {
      /** The main menu's addresses, in order. */
      const menu = async (path: string) => {
        const html = (await request(server.url(path))).body;
        const nav = html.match(/<nav[^>]*aria-label="(?:Main|Hauptmenü)"[^>]*>([\s\S]*?)<\/nav>/)?.[1] ?? "";
        return [...nav.matchAll(/<a[^>]*href="([^"]+)"[^>]*>([^<]*)</g)].map((match) => `${match[1]} ${match[2]}`);
      };
      try {
        const saved = await save({
          menu_show_empty_sections: "true",
          menu_order: "videos,faq,links,home,gallery,blog,contact,albums",
        });
        expect(saved.status).toBe(200);
        // Without JavaScript the form's field holds the order as the server stored it.
        const form = (await getWithCookie("/admin/settings?section=pages", ownerCookie)).body;
        expect(form).toMatch(
          /<input[^>]*name="menu_order"[^>]*value="videos,faq,links,home,gallery,blog,contact,albums"/,
        );
        for (const path of ["/", "/faq", "/home"]) {
          expect(await menu(path)).toEqual([
            "/videos Videos",
            "/faq FAQ",
            "/links Links",
            "/home Home",
            "/ Gallery",
            "/albums Albums",
          ]);
        }
        expect(await menu("/links?lang=de")).toEqual([
          "/videos Videos",
          "/faq FAQ",
          "/links Links",
          "/home Start",
          "/ Galerie",
          "/albums Alben",
        ]);
        const audit = await database.db
          .selectFrom("audit_log")
          .select(["old_value", "new_value"])
          .where("target", "=", "menu_order")
          .execute();
        expect(audit).toEqual([
          { old_value: settingDefaults.menu_order, new_value: "videos,faq,links,home,gallery,blog,contact,albums" },
        ]);

        const before = await snapshot();
        for (const [order, message] of [
          [
            "videos,faq,links,home,gallery,contact,albums,gallery",
            "A section is named twice: name each of gallery, home, links, faq, videos, blog, contact, albums once.",
          ],
          [
            "videos,faq,links,home,gallery,blog,contact,albums,shop",
            "An unknown section is named: use only gallery, home, links, faq, videos, blog, contact, albums, each once.",
          ],
          [
            "videos,faq",
            "A section is missing: name all of gallery, home, links, faq, videos, blog, contact, albums, each once.",
          ],
        ] as const) {
          const refused = await postAsOwner("/admin/settings?section=pages", { intent: "save", menu_order: order });
          expect(refused.status, order).toBe(400);
          expect(visibleText(refused.body), order).toContain(message);
        }
        expect(await snapshot()).toEqual(before);
      } finally {
        await save({ menu_show_empty_sections: "false", menu_order: settingDefaults.menu_order });
      }
    });
  });
});
