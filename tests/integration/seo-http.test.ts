import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { settingDefaults } from "#app/domains/settings/settings-defaults.ts";
import { startServerOnFreshDatabase, stopServerAndDatabase } from "#tests/support/admin-server.ts";
import { createUser } from "#tests/support/factories.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { addSampleContent } from "#tests/support/sample-content.ts";
import { jsonLdBlocks, jsonLdNodes, parseSitemap } from "#tests/support/seo.ts";
import { request, type ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

describe.each(databaseKinds)("sitemap, robots.txt and structured data over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let hiddenId: string;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    // The site's owner: a set-up site has one (the settings' pages date from then until an admin changes them).
    await createUser(database.db, { admin: true });
    const storage = storageIn(database.location.dataDir);
    await addSampleContent(database.db, storage);
    hiddenId = await createGalleryPicture(database.db, storage, { title: "Not yet", published: false });
    // A hidden link is no profile; a mailto link is none either.
    await database.db
      .updateTable("links")
      .set({ active: false })
      .where("url", "=", "https://example.com/feed.xml")
      .execute();
    await setSetting("site_name", 'Jo </script><script>alert("x")</script> & Co');
    await setSetting("site_logo_url", "/media/site/logo.png");
  }, 120_000);

  afterAll(() => stopServerAndDatabase(server, database));

  async function setSetting(key: keyof typeof settingDefaults, value: string) {
    await database.db
      .insertInto("site_settings")
      .values({ key, value })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
      .execute();
  }

  /** A page once the server has seen the test's writes (PostgreSQL tells it by NOTIFY). */
  async function eventually(pathname: string, check: (body: string) => boolean): Promise<string> {
    let body = "";
    for (let attempt = 0; attempt < 50; attempt++) {
      const response = await request(server.url(pathname));
      expect(response.status, pathname).toBe(200);
      body = response.body;
      if (check(body)) return body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return body;
  }

  it("robots.txt keeps crawlers out of admin, sign-in, account and share-link pages and names the sitemap", async () => {
    const response = await request(server.url("/robots.txt"));
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain/);
    const lines = response.body.split("\n");
    expect(lines).toContain("User-agent: *");
    for (const path of ["/admin", "/auth", "/account", "/s/"]) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain(`Sitemap: ${server.origin}/sitemap.xml`);
    expect(response.body).not.toMatch(/^Disallow: \/$/m);
  });

  it("the sitemap lists every public page and published picture in both languages, each address answering 200", async () => {
    const response = await request(server.url("/sitemap.xml"));
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/xml/);
    const urls = parseSitemap(response.body);
    const locs = urls.map((url) => url.loc);
    expect(new Set(locs).size).toBe(locs.length);

    const pictures = await database.db
      .selectFrom("gallery_images")
      .select("id")
      .where("published", "=", true)
      .execute();
    expect(pictures).toHaveLength(6);
    const expected = [
      "/",
      "/home",
      "/links",
      "/faq",
      "/videos",
      "/legal-notice",
      "/privacy",
      ...pictures.map((picture) => `/?image=${picture.id}`),
    ];
    const withLang = (path: string) => `${server.origin}${path}${path.includes("?") ? "&" : "?"}lang=de`;
    expect(locs.sort()).toEqual(expected.flatMap((path) => [`${server.origin}${path}`, withLang(path)]).sort());
    expect(response.body).not.toContain(hiddenId);
    // Search results are no page of their own (issue 22): not listed, and noindex (below).
    expect(locs.filter((loc) => new URL(loc).pathname === "/search")).toEqual([]);

    for (const url of urls) {
      // The same alternates as the page's own head: en and de by ?lang=, x-default without.
      const plain = url.loc.replace(/[?&]lang=de$/, "");
      expect(url.alternates).toEqual({
        en: `${plain}${plain.includes("?") ? "&" : "?"}lang=en`,
        de: `${plain}${plain.includes("?") ? "&" : "?"}lang=de`,
        "x-default": plain,
      });
      expect(url.lastmod, url.loc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      const isPicture = url.loc.includes("image=");
      expect(url.images).toHaveLength(isPicture ? 1 : 0);
    }

    // Every address in it answers 200: the pages, and the pictures the image extension names.
    const addresses = [...new Set(urls.flatMap((url) => [url.loc, ...Object.values(url.alternates), ...url.images]))];
    for (const address of addresses) {
      expect(address.startsWith(`${server.origin}/`), address).toBe(true);
      const answer = await request(address);
      expect(answer.status, address).toBe(200);
    }
    // The page a picture's entry names shows that picture.
    const picture = urls.find((url) => url.loc.includes("image="));
    const page = await request(picture?.loc ?? "");
    expect(page.body).toContain(new URL(picture?.images[0] ?? "").pathname);
  });

  it("the sitemap leaves out content pages without a published entry", async () => {
    await database.db.updateTable("faq_entries").set({ active: false }).execute();
    const xml = await eventually("/sitemap.xml", (body) => !body.includes("/faq"));
    expect(parseSitemap(xml).some((url) => url.loc.includes("/faq"))).toBe(false);
    await database.db.updateTable("faq_entries").set({ active: true }).execute();
  });

  it("/home describes the site and its owner as WebSite and Person, escaped so no text closes the script", async () => {
    const html = await eventually(
      "/home",
      (body) => body.includes("Jo &lt;/script&gt;") || body.includes("Jo \\u003c"),
    );
    // The site's name holds `</script><script>…`: it must not end the data block or start a script.
    expect(html).not.toContain('<script>alert("x")</script>');
    const blocks = jsonLdBlocks(html);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.["@context"]).toBe("https://schema.org");
    const nodes = jsonLdNodes(html);
    const website = nodes.find((node) => node["@type"] === "WebSite");
    const person = nodes.find((node) => node["@type"] === "Person");
    expect(website).toMatchObject({
      url: `${server.origin}/`,
      inLanguage: "en",
      publisher: { "@id": person?.["@id"] },
      // The site's search (issue 22): a search engine fills in the placeholder, braces and all.
      potentialAction: {
        "@type": "SearchAction",
        target: `${server.origin}/search?q={search_term_string}`,
        "query-input": "required name=search_term_string",
      },
    });
    expect(person).toMatchObject({
      name: 'Jo </script><script>alert("x")</script> & Co',
      image: `${server.origin}/media/site/logo.png`,
      // The published http(s) links only: not the hidden one.
      sameAs: ["https://github.com/", "https://example.com/contact"],
    });

    const german = await request(server.url("/home?lang=de"));
    expect(jsonLdNodes(german.body).find((node) => node["@type"] === "WebSite")?.inLanguage).toBe("de");
    // No other page claims to be the site (the FAQ page has its own FAQPage block).
    const faqTypes = jsonLdNodes((await request(server.url("/faq"))).body).map((node) => node["@type"]);
    expect(faqTypes).toEqual(["FAQPage"]);
  });

  it("/search, where the SearchAction leads, answers with results that no search engine may keep", async () => {
    for (const path of ["/search?q=harbour", "/search?q=harbour&lang=de", "/search"]) {
      const response = await request(server.url(path));
      expect(response.status, path).toBe(200);
      expect(response.body, path).toMatch(/<meta name="robots" content="noindex[^"]*"\/?>/);
    }
    expect((await request(server.url("/search?q=harbour"))).body).toContain("Harbour lights");
  });

  it("a shared picture's page describes it as an ImageObject whose picture answers 200", async () => {
    const picture = await database.db
      .selectFrom("gallery_images")
      .select(["id", "title_de"])
      .where("title", "=", "Harbour lights")
      .executeTakeFirstOrThrow();
    const html = (await request(server.url(`/?image=${picture.id}&lang=de`))).body;
    const nodes = jsonLdNodes(html);
    expect(nodes).toHaveLength(1);
    const image = nodes[0] ?? {};
    expect(image).toMatchObject({
      "@type": "ImageObject",
      name: "Hafenlichter",
      url: `${server.origin}/?image=${picture.id}&lang=de`,
      encodingFormat: "image/jpeg",
      inLanguage: "de",
    });
    expect(image.width).toBeGreaterThan(0);
    const file = await request(String(image.contentUrl));
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("image/jpeg");
    // The gallery without a picture open has none.
    expect(jsonLdBlocks((await request(server.url("/"))).body)).toEqual([]);
  });
});
