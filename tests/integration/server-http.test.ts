import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findInviteCode } from "#app/domains/invites/invites.server.ts";
import { isVisitorSetting } from "#app/domains/settings/setting-registry.ts";
import { settingDefaults } from "#app/domains/settings/settings-defaults.ts";
import { startServerOnFreshDatabase, stopServerAndDatabase, visibleText } from "#tests/support/admin-server.ts";
import { createInvite, createUser, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import {
  cookiePair,
  type HttpResponse,
  postForm,
  request,
  type ServerProcess,
  sessionCookie,
  TEST_AUTH_SECRET,
} from "#tests/support/server-process.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

function headTag(html: string, pattern: RegExp): string | undefined {
  const head = html.slice(0, html.indexOf("</head>"));
  return head.match(pattern)?.[0];
}

/**
 * The page at `path` once `accept` holds of it (or, after 5 s, as it is then, for the assertions to describe). A
 * write the test makes straight into the database is another process's commit to the server: on PostgreSQL it
 * learns of it by the commit's notification, a moment later, and may serve its kept copy until then.
 */
async function pageOnceChanged(server: ServerProcess, path: string, accept: (html: string) => boolean) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const html = (await request(server.url(path))).body;
    if (accept(html) || Date.now() > deadline) return html;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function metaContent(html: string, attribute: "name" | "property", value: string): string | undefined {
  const tag = headTag(html, new RegExp(`<meta[^>]*${attribute}="${value.replace(":", "\\:")}"[^>]*>`));
  return tag?.match(/content="([^"]*)"/)?.[1];
}

function linkHref(html: string, rel: string, hrefLang?: string): string | undefined {
  const lang = hrefLang ? `[^>]*hrefLang="${hrefLang}"` : "";
  const tag = headTag(html, new RegExp(`<link[^>]*rel="${rel}"${lang}[^>]*>`, "i"));
  return tag?.match(/href="([^"]*)"/)?.[1];
}

function signUp(
  server: ServerProcess,
  fields: { email: string; password: string; inviteCode: string },
  path = "/auth",
) {
  return postForm(server, path, { intent: "sign-up", ...fields });
}

describe.each(databaseKinds)("the running server (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    // Many deliberate failures come from 127.0.0.1 here; the limit has its own test.
    ({ database, server } = await startServerOnFreshDatabase(kind, { AUTH_MAX_FAILED_ATTEMPTS: "10000" }));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  describe("public pages", () => {
    it("serves the start page with its metadata in the raw HTML", async () => {
      const response = await request(server.url("/"));

      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      const html = response.body;
      expect(html).toMatch(/<html[^>]*lang="en"/);
      expect(headTag(html, /<title>[^<]*<\/title>/)).toBe("<title>Vitrine</title>");
      // Without a description of the owner's, the footer's description of the site (the spec's sentence is the last
      // fallback: app/domains/settings/settings.test.ts).
      expect(metaContent(html, "name", "description")).toBe(
        "A personal site with a gallery, links, questions and videos.",
      );
      expect(metaContent(html, "property", "og:title")).toBe("Vitrine");
      expect(metaContent(html, "property", "og:description")).toBe(
        "A personal site with a gallery, links, questions and videos.",
      );
      expect(metaContent(html, "property", "og:type")).toBe("website");
      expect(metaContent(html, "property", "og:url")).toBe(`${server.origin}/`);
      expect(metaContent(html, "name", "twitter:card")).toBe("summary_large_image");
      expect(linkHref(html, "canonical")).toBe(`${server.origin}/`);
      expect(linkHref(html, "alternate", "de")).toBe(`${server.origin}/?lang=de`);
      expect(linkHref(html, "icon")).toBe("/favicon.svg");
      expect(linkHref(html, "apple-touch-icon")).toBeTruthy();
      expect(visibleText(html)).toContain("Gallery");
    });

    it("renders the dark theme by default and a remembered light theme on the first render", async () => {
      expect((await request(server.url("/"))).body).toMatch(/<html[^>]*class="dark"/);
      const light = await request(server.url("/"), { headers: { Cookie: "theme=light" } });
      expect(light.body).toMatch(/<html[^>]*class="light"/);
      const german = await request(server.url("/"), { headers: { Cookie: "lang=de" } });
      expect(german.body).toMatch(/<html[^>]*lang="de"/);
      expect(visibleText(german.body)).toContain("Galerie");
    });

    it("serves the default icon files the pages point to", async () => {
      const html = (await request(server.url("/"))).body;
      const icon = await request(server.url(linkHref(html, "icon") ?? "/missing"));
      expect(icon.status).toBe(200);
      expect(icon.body).toContain("<svg");
      const touchIcon = await request(server.url(linkHref(html, "apple-touch-icon") ?? "/missing"));
      expect(touchIcon.status).toBe(200);
      expect(touchIcon.headers["content-type"]).toMatch(/^image\//);
    });

    it("shows what the admin set: title, description, share image, favicon", async () => {
      const changed = {
        meta_title: "Jo's Photographs",
        meta_description: "Mountains and lakes",
        meta_og_image: "/share.png",
        site_favicon_url: "/my-icon.png",
      };
      for (const [key, value] of Object.entries(changed)) {
        await database.db.updateTable("site_settings").set({ value }).where("key", "=", key).execute();
      }
      try {
        const html = await pageOnceChanged(server, "/", (page) =>
          page.includes("<title>Jo&#x27;s Photographs</title>"),
        );
        expect(headTag(html, /<title>[^<]*<\/title>/)).toBe("<title>Jo&#x27;s Photographs</title>");
        expect(metaContent(html, "name", "description")).toBe("Mountains and lakes");
        expect(metaContent(html, "property", "og:description")).toBe("Mountains and lakes");
        expect(metaContent(html, "property", "og:image")).toBe(`${server.origin}/share.png`);
        expect(linkHref(html, "icon")).toBe("/my-icon.png");
        expect(linkHref(html, "apple-touch-icon")).toBe("/my-icon.png");

        // A sub-page puts its own name in front of the site title.
        const faq = (await request(server.url("/faq"))).body;
        expect(headTag(faq, /<title>[^<]*<\/title>/)).toMatch(
          /^<title>Frequently asked questions\b[^<]*Jo&#x27;s Photographs<\/title>$/,
        );
        expect(linkHref(faq, "canonical")).toBe(`${server.origin}/faq`);
      } finally {
        for (const key of Object.keys(changed) as (keyof typeof settingDefaults)[]) {
          await database.db
            .updateTable("site_settings")
            .set({ value: settingDefaults[key] })
            .where("key", "=", key)
            .execute();
        }
        // The tests after this one see the defaults again, not a copy kept before the server heard of the reset.
        await pageOnceChanged(server, "/", (page) => page.includes("<title>Vitrine</title>"));
      }
    });

    it("renders German with ?lang=de and remembers the choice", async () => {
      const response = await request(server.url("/home?lang=de"));

      expect(response.status).toBe(200);
      expect(response.body).toMatch(/<html[^>]*lang="de"/);
      expect(visibleText(response.body)).toContain("Hallo und willkommen");
      expect(response.cookies.some((cookie) => /^lang=de;/.test(cookie))).toBe(true);
    });

    it.each(["/home", "/links", "/faq", "/videos", "/legal-notice", "/privacy", "/auth"])(
      "serves %s with status 200",
      async (path) => {
        const response = await request(server.url(path));
        expect(response.status).toBe(200);
        expect(headTag(response.body, /<title>[^<]+<\/title>/)).toBeTruthy();
      },
    );

    it("answers an unknown path with 404 and the not-found page", async () => {
      const response = await request(server.url("/no-such-page/at/all"));

      expect(response.status).toBe(404);
      expect(visibleText(response.body)).toContain("Page not found");
    });

    it("gives every setting visitors may read as JSON key/value rows at /api/settings", async () => {
      const response = await request(server.url("/api/settings"));

      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      const rows = JSON.parse(response.body) as unknown[];
      expect(Array.isArray(rows)).toBe(true);
      expect(rows).toHaveLength(Object.keys(settingDefaults).filter(isVisitorSetting).length);
      for (const row of rows) {
        expect(Object.keys(row as object).sort()).toEqual(["key", "value"]);
        expect(typeof (row as { value: unknown }).value).toBe("string");
      }
      expect(rows).toContainEqual({ key: "site_name", value: "Vitrine" });
      // Stored empty, the copyright line follows the site name and the current year; the API gives it as shown.
      expect(rows).toContainEqual({ key: "footer_copyright", value: `© ${new Date().getUTCFullYear()} Vitrine` });
    });
  });

  describe("bad input", () => {
    /** A sign-up form with a fresh invite, padded well past the 1 MB body limit. */
    async function oversizedSignUpForm() {
      const code = await createInvite(database.db);
      const email = uniqueEmail();
      const body = new URLSearchParams({
        intent: "sign-up",
        email,
        password: strongPassword(),
        inviteCode: code,
        padding: "x".repeat(2 * 1024 * 1024),
      }).toString();
      return { code, email, body };
    }

    /** The refused sign-up left its invite unused and made no account. */
    async function expectNoSignUp(code: string, email: string) {
      expect((await findInviteCode(database.db, code))?.isUsed).toBe(false);
      expect(await database.db.selectFrom("user").select("id").where("email", "=", email).execute()).toEqual([]);
    }

    it("refuses a form post from another site with 403 and changes nothing", async () => {
      const code = await createInvite(database.db);
      const email = uniqueEmail();

      const response = await postForm(
        server,
        "/auth",
        { intent: "sign-up", email, password: strongPassword(), inviteCode: code },
        { origin: "https://evil.example" },
      );

      expect(response.status).toBe(403);
      await expectNoSignUp(code, email);
    });

    it("refuses a cross-site post without an Origin header too", async () => {
      const code = await createInvite(database.db);
      const response = await request(server.url("/auth"), {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site" },
        body: new URLSearchParams({
          intent: "sign-up",
          email: uniqueEmail(),
          password: strongPassword(),
          inviteCode: code,
        }).toString(),
      });

      expect(response.status).toBe(403);
      expect((await findInviteCode(database.db, code))?.isUsed).toBe(false);
    });

    it("refuses a huge body with 413 and changes nothing", async () => {
      const { code, email, body } = await oversizedSignUpForm();

      const response = await request(server.url("/auth"), {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.origin },
        body,
      });

      expect(response.status).toBe(413);
      expect(response.body).toMatch(/too large/i);
      await expectNoSignUp(code, email);
    });

    it("lends no upload route's body limit to another path through dot segments", async () => {
      const { code, email, body } = await oversizedSignUpForm();

      for (const path of ["/admin/uploads/videos/../../../auth", "/admin/uploads/videos/%2e%2e/%2e%2e/%2E%2E/auth"]) {
        // Sent as written: a URL object would resolve the dot segments before the request leaves.
        const status = await new Promise<number>((resolve, reject) => {
          const outgoing = http.request(
            {
              host: "127.0.0.1",
              port: server.port,
              path,
              method: "POST",
              agent: false,
              headers: {
                "Content-Type": "application/x-www-form-urlencoded",
                "Content-Length": String(Buffer.byteLength(body)),
                Origin: server.origin,
              },
            },
            (response) => {
              response.resume();
              resolve(response.statusCode ?? 0);
            },
          );
          outgoing.on("error", reject);
          outgoing.end(body);
        });
        expect(status, path).toBe(400);
      }
      await expectNoSignUp(code, email);
    });

    /** A post that only announces its size: the server must refuse it from the header alone. */
    const announcedPost = (path: string, contentType: string, megabytes: number) =>
      request(server.url(path), {
        method: "POST",
        headers: {
          "Content-Type": contentType,
          Origin: server.origin,
          "Content-Length": String(megabytes * 1024 * 1024),
        },
        body: "",
      });

    it("gives the larger body limit only to the upload routes themselves", async () => {
      const response = await announcedPost("/admin/uploads/anything-else", "multipart/form-data; boundary=x", 5);
      expect(response.status).toBe(413);
    });

    it("announces a huge body by its Content-Length with 413", async () => {
      const response = await announcedPost("/auth", "application/x-www-form-urlencoded", 50);
      expect(response.status).toBe(413);
    });

    it("answers an incomplete form with 400", async () => {
      const response = await postForm(server, "/auth", { intent: "sign-up" });
      expect(response.status).toBe(400);
      expect(response.body).toContain("The form was incomplete.");
      const unknownIntent = await postForm(server, "/auth", { intent: "delete-everything" });
      expect(unknownIntent.status).toBe(400);
    });

    it("answers a body that is not a form with 400", async () => {
      const json = await request(server.url("/auth"), {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: server.origin },
        body: JSON.stringify({ intent: "sign-in", email: "a@b.example", password: "x" }),
      });
      expect(json.status).toBe(400);
      expect(json.body).toContain("The request body is not a valid form.");
      expect(json.body).not.toContain("Something went wrong");

      const boundary = "vitrine-test-boundary";
      const multipart = await request(server.url("/auth"), {
        method: "POST",
        headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, Origin: server.origin },
        body: [
          `--${boundary}`,
          'Content-Disposition: form-data; name="intent"',
          "",
          "sign-in",
          `--${boundary}`,
          'Content-Disposition: form-data; name="email"; filename="email.txt"',
          "Content-Type: text/plain",
          "",
          "a@b.example",
          `--${boundary}--`,
          "",
        ].join("\r\n"),
      });
      expect(multipart.status).toBe(400);
      expect(multipart.body).toContain("The field email must be text.");
    });

    it("is still serving after all of it", async () => {
      expect((await request(server.url("/"))).status).toBe(200);
    });
  });

  describe("sign-up over HTTP", () => {
    it("creates the account, consumes the code and says so", async () => {
      const code = await createInvite(database.db);
      const email = uniqueEmail();

      const response = await signUp(server, {
        email: `  ${email.toUpperCase()} `,
        password: strongPassword(),
        inviteCode: code,
      });

      expect(response.status).toBe(200);
      expect(visibleText(response.body)).toContain("Success! Account created successfully. Please sign in.");
      const user = await database.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirst();
      expect(user).toBeDefined();
      const state = await findInviteCode(database.db, code);
      expect(state?.isUsed).toBe(true);
      expect(state?.usedBy).toBe(user?.id);
      expect(state?.usedAt).not.toBeNull();
    });

    it.each([
      ["an empty code", "   ", "Invite code required Please enter a valid invite code to register."],
      [
        "an unknown code",
        "ABCD-EFGH-JKMN-PQRS",
        "Invalid invite code The invite code is invalid or has already been used.",
      ],
    ])("answers %s with the spec's message", async (_label, inviteCode, message) => {
      const email = uniqueEmail();
      const response = await signUp(server, { email, password: strongPassword(), inviteCode });

      expect(response.status).toBe(400);
      expect(visibleText(response.body)).toContain(message);
      expect(await database.db.selectFrom("user").select("id").where("email", "=", email).execute()).toEqual([]);
    });

    it("answers a used code with 'Invalid invite code'", async () => {
      const code = await createInvite(database.db);
      expect(
        (await signUp(server, { email: uniqueEmail(), password: strongPassword(), inviteCode: code })).status,
      ).toBe(200);

      const again = await signUp(server, { email: uniqueEmail(), password: strongPassword(), inviteCode: code });

      expect(again.status).toBe(400);
      expect(visibleText(again.body)).toContain("Invalid invite code");
    });

    it("gives the reason when the password is refused, and leaves the code unused", async () => {
      const code = await createInvite(database.db);

      const response = await signUp(server, { email: uniqueEmail(), password: "short", inviteCode: code });

      expect(response.status).toBe(400);
      expect(visibleText(response.body)).toContain("Sign up failed The password must be at least 10 characters long.");
      expect((await findInviteCode(database.db, code))?.isUsed).toBe(false);
    });

    it("speaks German on the German page", async () => {
      const response = await signUp(
        server,
        { email: uniqueEmail(), password: strongPassword(), inviteCode: "" },
        "/auth?lang=de",
      );

      expect(response.status).toBe(400);
      expect(visibleText(response.body)).toContain("Einladungscode erforderlich");
    });

    it("lets exactly one of twenty simultaneous sign-ups with one code through", async () => {
      const code = await createInvite(database.db);
      const emails = Array.from({ length: 20 }, (_, i) => uniqueEmail(`http-racer${i}`));

      const responses = await Promise.all(
        emails.map((email) => signUp(server, { email, password: strongPassword(), inviteCode: code })),
      );

      const won = responses.filter((response) => response.status === 200);
      const lost = responses.filter((response) => response.status !== 200);
      expect(won).toHaveLength(1);
      expect(won[0] && visibleText(won[0].body)).toContain("Success!");
      expect(lost).toHaveLength(19);
      for (const response of lost) {
        expect(response.status).toBe(400);
        expect(visibleText(response.body)).toContain("Invalid invite code");
      }
      const created = await database.db.selectFrom("user").select("id").where("email", "in", emails).execute();
      expect(created).toHaveLength(1);
      expect((await findInviteCode(database.db, code))?.usedBy).toBe(created[0]?.id);
    });
  });

  describe("sign-in, session and sign-out", () => {
    async function signIn(email: string, password: string, extra: Record<string, string> = {}): Promise<HttpResponse> {
      return postForm(server, "/auth", { intent: "sign-in", email, password, ...extra });
    }

    it("signs in with the address in capitals and padded with spaces, in an HttpOnly SameSite=Lax cookie", async () => {
      const user = await createUser(database.db);

      const response = await signIn(`   ${user.email.toUpperCase()}  `, user.password);

      expect(response.status).toBeGreaterThanOrEqual(300);
      expect(response.status).toBeLessThan(400);
      expect(response.headers.location).toBe("/");
      const cookie = sessionCookie(response);
      expect(cookie).toBeDefined();
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      // http:// BASE_URL: a Secure cookie would never come back.
      expect(cookie).not.toMatch(/;\s*Secure/i);

      const page = await request(server.url("/"), { headers: { Cookie: cookiePair(cookie ?? "") } });
      expect(visibleText(page.body)).toContain("Sign out");
    });

    it("goes back to where the visitor wanted to go", async () => {
      const user = await createUser(database.db, { admin: true });
      const response = await signIn(user.email, user.password, { redirectTo: "/admin" });
      expect(response.headers.location).toBe("/admin");

      const offSite = await signIn(user.email, user.password, { redirectTo: "//evil.example/" });
      expect(offSite.headers.location).toBe("/");
    });

    it("says 'Sign in failed' with the reason for a wrong password, and sets no session", async () => {
      const user = await createUser(database.db);

      const response = await signIn(user.email, `${user.password}-wrong`);

      expect(response.status).toBe(400);
      expect(visibleText(response.body)).toContain("Sign in failed Invalid e-mail or password.");
      expect(sessionCookie(response)).toBeUndefined();
    });

    it("sends a visitor from /admin to sign-in and back", async () => {
      const response = await request(server.url("/admin"));

      expect(response.status).toBe(302);
      expect(response.headers.location).toBe("/auth?redirectTo=%2Fadmin");
    });

    it("answers a signed-in non-admin at /admin with 403", async () => {
      const user = await createUser(database.db);
      const cookie = await createSessionCookie(database.db, user.id, TEST_AUTH_SECRET);

      const response = await request(server.url("/admin"), { headers: { Cookie: `${cookie.name}=${cookie.value}` } });

      expect(response.status).toBe(403);
      expect(visibleText(response.body)).toContain("No access");
      expect(visibleText(response.body)).not.toContain("Dashboard");
    });

    it("shows an admin the dashboard", async () => {
      const admin = await createUser(database.db, { admin: true });
      const cookie = await createSessionCookie(database.db, admin.id, TEST_AUTH_SECRET);

      const response = await request(server.url("/admin"), { headers: { Cookie: `${cookie.name}=${cookie.value}` } });

      expect(response.status).toBe(200);
      expect(visibleText(response.body)).toContain("Dashboard");
      expect(visibleText(response.body)).toContain(admin.email);
    });

    it("does not accept a session cookie signed with another secret", async () => {
      const admin = await createUser(database.db, { admin: true });
      const cookie = await createSessionCookie(database.db, admin.id, "some-other-secret-that-is-long-enough-000000");

      const response = await request(server.url("/admin"), { headers: { Cookie: `${cookie.name}=${cookie.value}` } });

      expect(response.status).toBe(302);
    });

    it("ends the session on the server at sign-out", async () => {
      const user = await createUser(database.db, { admin: true });
      const signedIn = await signIn(user.email, user.password);
      const cookie = cookiePair(sessionCookie(signedIn) ?? "");
      const sessions = () => database.db.selectFrom("session").select("id").where("userId", "=", user.id).execute();
      expect(await sessions()).toHaveLength(1);
      expect((await request(server.url("/admin"), { headers: { Cookie: cookie } })).status).toBe(200);

      const response = await postForm(server, "/auth/sign-out", {}, { cookie });

      expect(response.status).toBe(302);
      expect(await sessions()).toEqual([]);
      expect(response.cookies.some((set) => /^vitrine\.session_token=;/.test(set) || /Max-Age=0/i.test(set))).toBe(
        true,
      );
      // The old cookie, replayed, is worth nothing now.
      const replay = await request(server.url("/admin"), { headers: { Cookie: cookie } });
      expect(replay.status).toBe(302);
      expect(replay.headers.location).toBe("/auth?redirectTo=%2Fadmin");
    });
  });
});
