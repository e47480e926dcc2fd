import { createHash } from "node:crypto";
import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
  visibleText,
} from "#tests/support/admin-server.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { type HttpResponse, postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/** One GET whose body is kept as bytes (a compressed answer must not be read as text). */
function getRaw(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter((match) => !/\ssrc=/.test(match[1] ?? ""))
    .map((match) => match[2] ?? "");
}

function scriptSources(policy: string): string[] {
  const directive = policy.split(";").find((part) => part.trim().startsWith("script-src")) ?? "";
  return directive.trim().split(/\s+/).slice(1);
}

describe.each(databaseKinds)("anonymous pages kept by the page cache (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;
  let pictureId: string;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    ({ adminCookie } = await signedInAdminAndMember(database));
    pictureId = await createGalleryPicture(database.db, storageIn(database.location.dataDir), {
      title: "Quiet harbour",
      published: true,
    });
    // The writes above came from this test's own connection: on PostgreSQL the server hears of them by NOTIFY,
    // a moment later, and each notice drops what it kept. Wait until a page stays kept.
    for (let tries = 0; tries < 50; tries++) {
      await request(server.url("/?settled"));
      if ((await request(server.url("/?settled"))).headers["x-vitrine-cache"] === "hit") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  afterAll(() => stopServerAndDatabase(server, database));

  const visit = (path: string, headers: Record<string, string> = {}) => request(server.url(path), { headers });
  /** An anonymous visitor's answer for the page (with these cookies), once the cache keeps it. */
  async function keptResponse(path: string, cookie?: string): Promise<HttpResponse> {
    const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
    // On PostgreSQL the server also hears of its own last write by NOTIFY, a moment after it answered; that
    // notice drops the cache once more. So a page may need a few visits before it stays kept.
    let second = await visit(path, headers);
    for (let tries = 0; tries < 20 && second.headers["x-vitrine-cache"] !== "hit"; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await visit(path, headers);
      second = await visit(path, headers);
    }
    expect(second.headers["x-vitrine-cache"], path).toBe("hit");
    return second;
  }
  /** What an anonymous visitor (with these cookies) reads on the page, after making sure the cache keeps it. */
  const keptText = async (path: string, cookie?: string) => visibleText((await keptResponse(path, cookie)).body);
  const postAsAdmin = async (path: string, fields: Record<string, string>) => {
    const response = await postForm(server, path, fields, { cookie: adminCookie });
    expect(response.status, `${path} ${JSON.stringify(fields)}: ${response.body.slice(0, 200)}`).toBeLessThan(400);
    return response;
  };
  /** The very next anonymous request after the write, no waiting: what the next visitor sees. */
  const nextVisitorSees = async (path: string) => visibleText((await visit(path)).body);

  it("keeps a page, answers its ETag with 304 and sends it compressed as it was kept", async () => {
    const first = await getRaw(server.url("/faq"));
    const second = await getRaw(server.url("/faq"));
    expect(first.headers["x-vitrine-cache"]).toBe("miss");
    expect(second.headers["x-vitrine-cache"]).toBe("hit");
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers["cache-control"]).toMatch(/^public, .*stale-while-revalidate=/);
    // The cookies, and without them the browser's language, choose the page.
    expect(second.headers.vary).toBe("Accept-Encoding, Cookie, Accept-Language");

    const etag = second.headers.etag ?? "";
    expect(etag).toMatch(/^W\/".+"$/);
    const revalidated = await getRaw(server.url("/faq"), { "If-None-Match": etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect((await getRaw(server.url("/faq"), { "If-None-Match": 'W/"other"' })).status).toBe(200);

    const br = await getRaw(server.url("/faq"), { "Accept-Encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).equals(first.body)).toBe(true);
    const gz = await getRaw(server.url("/faq"), { "Accept-Encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).equals(first.body)).toBe(true);
  });

  it("sends a kept page with a policy that allows exactly its own inline scripts, by hash and never by a shared nonce", async () => {
    const kept = await keptResponse("/links");
    const sources = scriptSources(String(kept.headers["content-security-policy"]));
    expect(sources.some((source) => source.startsWith("'nonce-"))).toBe(false);
    const scripts = inlineScripts(kept.body);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const hash = `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
      expect(sources).toContain(hash);
    }
    expect(sources.filter((source) => source.startsWith("'sha256-"))).toHaveLength(new Set(scripts).size);

    // A page that is not kept still gets a fresh nonce each time.
    const nonces = await Promise.all(
      [1, 2].map(async () => {
        const response = await visit("/auth");
        expect(response.headers["x-vitrine-cache"]).toBeUndefined();
        return scriptSources(String(response.headers["content-security-policy"])).find((s) => s.startsWith("'nonce-"));
      }),
    );
    expect(nonces[0]).toBeDefined();
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("keeps each language and theme apart", async () => {
    await keptText("/faq");
    const german = await keptText("/faq", "lang=de");
    const english = await keptText("/faq");
    expect(german).toContain("Häufige Fragen");
    expect(english).not.toContain("Häufige Fragen");
    const light = await visit("/faq", { Cookie: "theme=light" });
    expect(light.body).toMatch(/<html[^>]*class="light"/);
    expect((await visit("/faq")).body).toMatch(/<html[^>]*class="dark"/);
  });

  it("shows every kind of admin write to the very next visitor", async () => {
    const pages = ["/", "/home", "/links", "/faq", "/videos"];

    // Settings: the site name is on every page.
    for (const page of pages) expect(await keptText(page)).not.toContain("Harbour Notes");
    await postAsAdmin("/admin/settings", { intent: "save", site_name: "Harbour Notes" });
    for (const page of pages) expect(await nextVisitorSees(page), page).toContain("Harbour Notes");

    // Legal texts, in every page's footer.
    expect(await keptText("/links")).not.toContain("Imprint of the harbour");
    await postAsAdmin("/admin/settings", { intent: "save", footer_imprint_content: "Imprint of the harbour" });
    expect(await nextVisitorSees("/links")).toContain("Imprint of the harbour");

    // The gallery: a picture's texts (its title is the picture's alt text), then hiding it.
    const nextVisitorGets = async (path: string) => (await visit(path)).body;
    await keptText("/");
    expect((await visit("/")).body).toContain('alt="Quiet harbour"');
    await postAsAdmin("/admin/gallery", {
      intent: "update",
      id: pictureId,
      title: "Stormy harbour",
      title_de: "",
      description: "",
      description_de: "",
      category: "",
      category_de: "",
    });
    expect(await nextVisitorGets("/")).toContain('alt="Stormy harbour"');
    await keptText("/");
    await postAsAdmin("/admin/gallery", { intent: "unpublish", id: pictureId, name: "Stormy harbour" });
    expect(await nextVisitorGets("/")).not.toContain("Stormy harbour");
    await postAsAdmin("/admin/gallery", { intent: "publish", id: pictureId, name: "Stormy harbour" });
    expect(await nextVisitorGets("/")).toContain('alt="Stormy harbour"');

    // Links, FAQ and videos.
    expect(await keptText("/links")).not.toContain("Harbour master");
    await postAsAdmin("/admin/links", {
      intent: "create",
      title: "Harbour master",
      url: "https://example.com/",
      icon: "globe",
      active: "on",
    });
    expect(await nextVisitorSees("/links")).toContain("Harbour master");
    expect(await keptText("/faq")).not.toContain("When does the ferry leave?");
    await postAsAdmin("/admin/faq", {
      intent: "create",
      question: "When does the ferry leave?",
      answer: "At dawn.",
      active: "on",
    });
    expect(await nextVisitorSees("/faq")).toContain("When does the ferry leave?");
    expect(await keptText("/videos")).not.toContain("Harbour at night");
    await postAsAdmin("/admin/videos", {
      intent: "create",
      title: "Harbour at night",
      embed_url: "https://youtu.be/dQw4w9WgXcQ",
      active: "on",
    });
    expect(await nextVisitorSees("/videos")).toContain("Harbour at night");

    // The watermark: its text at once, and the redrawn pictures once the background redraw has finished. (Until
    // now it followed the site name: "© Harbour Notes".)
    const before = await visit("/");
    expect(visibleText(before.body)).not.toContain("© Harbour lights");
    // The widths that carry the drawn text are the lightbox's (the grid shows clean widths under a badge).
    const lightboxBefore = await visit(`/?image=${pictureId}`);
    await postAsAdmin("/admin/settings", {
      intent: "save",
      watermark_enabled: "true",
      watermark_text: "© Harbour lights",
    });
    expect(await nextVisitorSees("/")).toContain("© Harbour lights");
    const largestBefore = lightboxBefore.body.match(/\/media\/images\/[^" ,]+-\w+\.jpg/g)?.at(-1);
    expect(largestBefore).toBeDefined();
    const deadline = Date.now() + 20_000;
    let redrawn = false;
    while (!redrawn && Date.now() < deadline) {
      const row = await database.db.selectFrom("images").select("watermark").executeTakeFirstOrThrow();
      redrawn = row.watermark === "© Harbour lights";
      if (!redrawn) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(redrawn).toBe(true);
    // Once the row says so, the next visitor is offered the redrawn files, not the removed ones.
    const lightboxAfter = (await visit(`/?image=${pictureId}`)).body;
    expect(lightboxAfter).not.toContain(largestBefore);
    expect(lightboxAfter).toMatch(/\/media\/images\/[^" ,]+-\w+\.jpg/);
  });

  it("shows a change written by another process (the CLI, a script) to the next visitor", async () => {
    expect(await keptText("/home")).not.toContain("Written elsewhere");
    await database.db
      .updateTable("site_settings")
      .set({ value: "Written elsewhere" })
      .where("key", "=", "home_title")
      .execute();
    if (kind === "sqlite") {
      expect(await nextVisitorSees("/home")).toContain("Written elsewhere");
    } else {
      // PostgreSQL announces the commit to the server: it arrives within moments, not on the same tick.
      const deadline = Date.now() + 3000;
      let seen = false;
      while (!seen && Date.now() < deadline) seen = (await nextVisitorSees("/home")).includes("Written elsewhere");
      expect(seen).toBe(true);
    }
  });

  it("keeps its pages while someone guesses passwords: failed sign-ins are counted where no page looks", async () => {
    await keptResponse("/faq");
    // Wrong passwords for ten accounts, then more than the address may send (refused with 429): counted per
    // address and per account in the database (attempt_counts, sign_in_failures), where no page looks, so the
    // page stays kept for the very next visitor.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const email = `guess-${attempt}@example.com`;
      const answer = await postForm(
        server,
        "/auth",
        { intent: "sign-in", email, password: "wrong" },
        {
          localAddress: "127.0.3.7",
        },
      );
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(10).fill(400), 429, 429]);
    expect((await visit("/faq")).headers["x-vitrine-cache"]).toBe("hit");
  });

  it("keeps route data (.data) like pages, and drops it with them", async () => {
    const kept = await keptResponse("/links.data");
    expect(kept.headers["content-type"]).toMatch(/text\/x-script/);
    expect(kept.body).not.toContain("Data links entry");
    await postAsAdmin("/admin/links", {
      intent: "create",
      title: "Data links entry",
      url: "https://example.org/",
      icon: "globe",
      active: "on",
    });
    expect((await visit("/links.data")).body).toContain("Data links entry");
  });

  it("never serves a signed-in visitor from the cache, nor keeps their page for anyone else", async () => {
    await keptText("/");
    const signedIn: HttpResponse = await visit("/", { Cookie: adminCookie });
    expect(signedIn.headers["x-vitrine-cache"]).toBeUndefined();
    expect(signedIn.headers["cache-control"]).toBe("private, no-store");
    expect(signedIn.body).toContain('href="/admin"');
    for (let i = 0; i < 2; i++) {
      const anonymous = await visit("/");
      expect(anonymous.headers["x-vitrine-cache"]).toBe("hit");
      expect(anonymous.body).not.toContain('href="/admin"');
    }
    expect((await visit("/admin", { Cookie: adminCookie })).headers["cache-control"]).toBe("private, no-store");
  });

  it("keeps no answer that sets a cookie or is not a page", async () => {
    for (let i = 0; i < 2; i++) {
      const shared = await visit("/faq?lang=de");
      expect(shared.cookies.some((cookie) => cookie.startsWith("lang=de"))).toBe(true);
      expect(shared.headers["x-vitrine-cache"]).toBeUndefined();
      expect(shared.headers["cache-control"]).toBe("private, no-store");
    }
    for (let i = 0; i < 2; i++) {
      const missing = await visit("/no-such-page");
      expect(missing.status).toBe(404);
      expect(missing.headers["x-vitrine-cache"]).toBeUndefined();
    }
  });
});

describe("PAGE_CACHE=off", () => {
  let database: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase("sqlite", { PAGE_CACHE: "off" }));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  it("renders every request afresh, still telling a proxy what the page varies by", async () => {
    for (let i = 0; i < 2; i++) {
      const response = await request(server.url("/faq"));
      expect(response.status).toBe(200);
      expect(response.headers["x-vitrine-cache"]).toBeUndefined();
      expect(response.headers["cache-control"]).toMatch(/^public, /);
      expect(response.headers.vary).toMatch(/\bCookie\b/);
    }
  });
});
