import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMER_DEFAULTS } from "#app/domains/settings/settings-defaults.ts";
import {
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
  visibleText,
} from "#tests/support/admin-server.ts";
import { type HttpResponse, postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

function head(html: string): string {
  return html.slice(0, html.indexOf("</head>"));
}

function metaContent(html: string, attribute: "name" | "property", value: string): string | undefined {
  const tag = head(html).match(new RegExp(`<meta[^>]*${attribute}="${value.replace(":", "\\:")}"[^>]*>`))?.[0];
  return tag?.match(/content="([^"]*)"/)?.[1]?.replaceAll("&#x27;", "'");
}

const titleOf = (html: string) => head(html).match(/<title>([^<]*)<\/title>/)?.[1];

/** Every text a visitor could read on a page: the body's text, the head's title and descriptions. */
function everythingShown(response: HttpResponse): string {
  return [
    visibleText(response.body),
    titleOf(response.body),
    metaContent(response.body, "name", "description"),
    metaContent(response.body, "property", "og:title"),
    metaContent(response.body, "property", "og:description"),
  ].join("\n");
}

describe.each(databaseKinds)("the texts a fresh site shows its visitors (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    ({ adminCookie } = await signedInAdminAndMember(database));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  const visit = (path: string, headers: Record<string, string> = {}) => request(server.url(path), { headers });
  async function save(fields: Record<string, string>) {
    const response = await postForm(server, "/admin/settings", { intent: "save", ...fields }, { cookie: adminCookie });
    expect(response.status, response.body.slice(0, 200)).toBeLessThan(400);
  }
  /** The page once the server has seen the last write (PostgreSQL tells it by NOTIFY, a moment later). */
  async function eventually(path: string, check: (response: HttpResponse) => boolean, headers = {}) {
    let response = await visit(path, headers);
    for (let tries = 0; tries < 40 && !check(response); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      response = await visit(path, headers);
    }
    return response;
  }

  it("greets visitors on /home in English, with no word to the owner and no template name", async () => {
    const response = await visit("/home");
    expect(response.status).toBe(200);
    const shown = everythingShown(response);
    expect(titleOf(response.body)).toBe("Hello, and welcome · Vitrine");
    expect(response.body).toMatch(/<h1[^>]*>Hello, and welcome<\/h1>/);
    expect(shown).toContain("Pictures, notes and links from my corner of the web.");
    expect(shown).toContain("Thanks for stopping by.");
    for (const template of ["Welcome to Vitrine", "Sign in", "admin", "replace this text", "Explore the latest"]) {
      expect(
        visibleText(response.body.slice(response.body.indexOf("<main"), response.body.indexOf("</main>"))),
      ).not.toContain(template);
    }
    expect(titleOf(response.body)).not.toContain("Welcome to Vitrine");
    expect(shown).not.toContain("technology, innovation, and design");
  });

  it("greets visitors on /home in German, for ?lang=de and for a browser that prefers German", async () => {
    for (const response of [await visit("/home?lang=de"), await visit("/home", { "Accept-Language": "de-DE,de" })]) {
      expect(response.status).toBe(200);
      expect(titleOf(response.body)).toBe("Hallo und willkommen · Vitrine");
      expect(response.body).toMatch(/<h1[^>]*>Hallo und willkommen<\/h1>/);
      const shown = everythingShown(response);
      expect(shown).toContain("Bilder, Notizen und Links aus meiner Ecke des Netzes.");
      expect(shown).toContain("Schön, dass Sie vorbeischauen.");
      expect(shown).not.toContain("Willkommen bei Vitrine");
      expect(shown).not.toContain("Melden Sie sich als Admin an");
      expect(metaContent(response.body, "name", "description")).toBe(
        "Eine persönliche Website mit Galerie, Links, Fragen und Videos.",
      );
    }
  });

  it("describes a fresh site as a personal site, in each language", async () => {
    // The gallery and the home page carry the site's description (the other pages describe themselves).
    const english = await visit("/");
    expect(metaContent(english.body, "name", "description")).toBe(
      "A personal site with a gallery, links, questions and videos.",
    );
    expect(metaContent(english.body, "property", "og:description")).toBe(
      "A personal site with a gallery, links, questions and videos.",
    );
    const german = await visit("/?lang=de");
    expect(metaContent(german.body, "property", "og:description")).toBe(
      "Eine persönliche Website mit Galerie, Links, Fragen und Videos.",
    );
  });

  it("gives German pages the German description (meta and share card), English ones the English", async () => {
    await save({ meta_description: "Mountains and lakes by Jo", meta_description_de: "Berge und Seen von Jo" });
    const german = await eventually("/home?lang=de", (r) => r.body.includes("Berge und Seen von Jo"));
    expect(metaContent(german.body, "name", "description")).toBe("Berge und Seen von Jo");
    expect(metaContent(german.body, "property", "og:description")).toBe("Berge und Seen von Jo");
    const germanBrowser = await visit("/home", { "Accept-Language": "de" });
    expect(metaContent(germanBrowser.body, "property", "og:description")).toBe("Berge und Seen von Jo");
    const english = await visit("/");
    expect(metaContent(english.body, "name", "description")).toBe("Mountains and lakes by Jo");
    expect(metaContent(english.body, "property", "og:description")).toBe("Mountains and lakes by Jo");
    // The German feed describes the blog in German too.
    expect((await visit("/blog/feed.xml?lang=de")).body).toContain("<description>Berge und Seen von Jo</description>");

    // An empty German description falls back to the English one.
    await save({ meta_description_de: "" });
    const fallback = await eventually("/home?lang=de", (r) => !r.body.includes("Berge und Seen von Jo"));
    expect(metaContent(fallback.body, "name", "description")).toBe("Mountains and lakes by Jo");
    expect(metaContent(fallback.body, "property", "og:description")).toBe("Mountains and lakes by Jo");
  });

  it("asks the owner on the dashboard to write the home text until they have, in either language", async () => {
    const dashboard = async () => visibleText((await visit("/admin", { Cookie: adminCookie })).body);
    expect(await dashboard()).toContain("Write your home page");
    expect((await visit("/admin", { Cookie: adminCookie })).body).toContain('href="/admin/settings?section=home"');

    // A site from before the upgrade still holds the old shipped text: that is not the owner's either.
    const old = FORMER_DEFAULTS.home_content?.[0] ?? "";
    await save({ home_content: old });
    expect(await dashboard()).toContain("Write your home page");

    await save({ home_content_de: "Ich fotografiere Berge und Seen." });
    expect(await dashboard()).not.toContain("Write your home page");
    expect(visibleText((await eventually("/home?lang=de", (r) => r.body.includes("Berge und Seen."))).body)).toContain(
      "Ich fotografiere Berge und Seen.",
    );
  });
});
