import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import type { PostWriteResult } from "#app/domains/posts/post-rows.server.ts";
import { startServerOnFreshDatabase, stopServerAndDatabase } from "#tests/support/admin-server.ts";
import { createUser } from "#tests/support/factories.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { jsonLdNodes, parseSitemap } from "#tests/support/seo.ts";
import { request, type ServerProcess } from "#tests/support/server-process.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

const rssParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  isArray: (name) => name === "item",
});
const atomParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  isArray: (name) => name === "entry" || name === "link",
});

function accepted(result: PostWriteResult) {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.post;
}

/** Every absolute address on this site inside a piece of HTML (src, href, each srcset candidate). */
function addressesIn(html: string, origin: string): string[] {
  const found = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? "");
  for (const match of html.matchAll(/\ssrcset="([^"]+)"/g)) {
    found.push(...(match[1] ?? "").split(",").map((candidate) => candidate.trim().split(/\s+/)[0] ?? ""));
  }
  return found.map((url) => url.replace(/&amp;/g, "&")).filter((url) => url.startsWith(`${origin}/`));
}

describe.each(databaseKinds)("the blog's feeds, sitemap entries and structured data over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let post: { slug: string; slugDe: string };

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    const author = await createUser(database.db, { admin: true });
    const storage = storageIn(database.location.dataDir);
    const pictureId = await createGalleryPicture(database.db, storage, { title: "Cover" });
    const { image_id: imageId } = await database.db
      .selectFrom("gallery_images")
      .select("image_id")
      .where("id", "=", pictureId)
      .executeTakeFirstOrThrow();
    const actor = { id: author.id, email: author.email };
    const created = accepted(
      await createPost(database.db, actor, {
        title: "Servers & <feeds>",
        title_de: "Server und Feeds",
        excerpt: "Why feeds still matter.",
        excerpt_de: "Warum Feeds noch zählen.",
        body: `## Why\n\nRead [the links](/links).\n\n![A harbour](image:${imageId})\n\n\`\`\`js\nconsole.log(1);\n\`\`\``,
        body_de: `## Warum\n\nSiehe [die Links](/links?lang=de).\n\n![Ein Hafen](image:${imageId})`,
        cover_image_id: imageId,
        cover_alt: "The harbour",
        tags: "web, feeds",
      }),
    );
    accepted(await setPostStatus(database.db, actor, created.id, { status: "published" }));
    post = { slug: created.slug, slugDe: created.slugDe };
    accepted(await createPost(database.db, testAdmin, { title: "Hidden draft", slug: "hidden-draft" }));
    const later = accepted(await createPost(database.db, testAdmin, { title: "Future post", slug: "future-post" }));
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    accepted(await setPostStatus(database.db, testAdmin, later.id, { status: "scheduled", publishAt: tomorrow }));
  }, 120_000);

  afterAll(() => stopServerAndDatabase(server, database));

  /** The body once the server has seen the test's writes (PostgreSQL tells it by NOTIFY). */
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

  async function expectAllAnswer(addresses: Iterable<string>) {
    for (const address of new Set(addresses)) {
      expect(address.startsWith(`${server.origin}/`), address).toBe(true);
      expect((await request(address)).status, address).toBe(200);
    }
  }

  it("RSS in both languages parses, holds only the published post, and every address in it answers 200", async () => {
    for (const lang of ["en", "de"] as const) {
      const path = lang === "de" ? "/blog/feed.xml?lang=de" : "/blog/feed.xml";
      const xml = await eventually(path, (body) => body.includes("<item>"));
      const response = await request(server.url(path));
      expect(response.headers["content-type"]).toBe("application/rss+xml; charset=utf-8");
      // A reader polling with the ETag it has gets no body while nothing changed.
      const etag = String(response.headers.etag);
      const again = await request(server.url(path), { headers: { "If-None-Match": etag } });
      expect(again.status).toBe(304);
      expect(again.body).toBe("");
      expect(XMLValidator.validate(xml)).toBe(true);
      const channel = rssParser.parse(xml).rss.channel as {
        link: string;
        language: string;
        "atom:link": { "@href": string };
        item: { title: string; link: string; "content:encoded": string; enclosure?: { "@url": string } }[];
      };
      expect(channel.language).toBe(lang);
      expect(channel.item).toHaveLength(1);
      const [item] = channel.item;
      expect(item?.title).toBe(lang === "en" ? "Servers &amp; &lt;feeds&gt;" : "Server und Feeds");
      expect(item?.link).toBe(
        lang === "en" ? `${server.origin}/blog/${post.slug}` : `${server.origin}/blog/${post.slugDe}?lang=de`,
      );
      expect(xml).not.toContain("Hidden draft");
      expect(xml).not.toContain("Future post");
      const content = item?.["content:encoded"] ?? "";
      expect(content).toContain("<picture>");
      const inside = addressesIn(content, server.origin);
      expect(inside.some((address) => address.includes("/media/images/"))).toBe(true);
      await expectAllAnswer([
        channel.link,
        channel["atom:link"]["@href"],
        item?.link ?? "",
        ...(item?.enclosure ? [item.enclosure["@url"]] : []),
        ...inside,
      ]);
    }
  });

  it("Atom in both languages parses, and every address in it answers 200", async () => {
    for (const lang of ["en", "de"] as const) {
      const path = lang === "de" ? "/blog/atom.xml?lang=de" : "/blog/atom.xml";
      const xml = await eventually(path, (body) => body.includes("<entry>"));
      expect((await request(server.url(path))).headers["content-type"]).toBe("application/atom+xml; charset=utf-8");
      expect(XMLValidator.validate(xml)).toBe(true);
      const feed = atomParser.parse(xml).feed as {
        link: { "@href": string }[];
        entry: { id: string; link: { "@href": string }[]; content: { "#text": string } }[];
      };
      expect(feed.entry).toHaveLength(1);
      expect(xml).not.toContain("Hidden draft");
      expect(xml).not.toContain("Future post");
      const entry = feed.entry[0];
      await expectAllAnswer([
        ...feed.link.map((link) => link["@href"]),
        ...(entry?.link ?? []).map((link) => link["@href"]),
        ...addressesIn(entry?.content["#text"] ?? "", server.origin),
      ]);
    }
  });

  it("the sitemap lists the post at each language's slug, the blog and its tags; every address answers 200", async () => {
    const xml = await eventually("/sitemap.xml", (body) => body.includes(post.slug));
    const urls = parseSitemap(xml);
    const locs = urls.map((url) => url.loc);
    expect(locs).toContain(`${server.origin}/blog/${post.slug}`);
    expect(locs).toContain(`${server.origin}/blog/${post.slugDe}?lang=de`);
    expect(locs).toContain(`${server.origin}/blog`);
    expect(locs).toContain(`${server.origin}/blog/tag/feeds?lang=de`);
    expect(xml).not.toContain("hidden-draft");
    expect(xml).not.toContain("future-post");
    const entry = urls.find((url) => url.loc === `${server.origin}/blog/${post.slug}`);
    expect(entry?.alternates.de).toBe(`${server.origin}/blog/${post.slugDe}?lang=de`);
    expect(entry?.images).toHaveLength(1);
    await expectAllAnswer(urls.flatMap((url) => [url.loc, ...Object.values(url.alternates), ...url.images]));
  });

  it("the post page is an article with BlogPosting and BreadcrumbList whose addresses answer 200", async () => {
    const html = (await request(server.url(`/blog/${post.slugDe}?lang=de`))).body;
    expect(html).toContain('<meta property="og:type" content="article"/>');
    expect(html).toMatch(/<meta property="article:published_time" content="\d{4}-\d{2}-\d{2}T[^"]+Z"\/>/);
    expect(html).toMatch(/<meta property="article:modified_time" content="\d{4}-\d{2}-\d{2}T[^"]+Z"\/>/);
    const nodes = jsonLdNodes(html);
    const posting = nodes.find((node) => node["@type"] === "BlogPosting");
    const crumbs = nodes.find((node) => node["@type"] === "BreadcrumbList");
    expect(posting).toMatchObject({
      headline: "Server und Feeds",
      url: `${server.origin}/blog/${post.slugDe}?lang=de`,
      inLanguage: "de",
      description: "Warum Feeds noch zählen.",
      keywords: ["feeds", "web"],
    });
    expect(Number.isNaN(Date.parse(String(posting?.datePublished)))).toBe(false);
    const items = (crumbs?.itemListElement ?? []) as { position: number; item: string }[];
    expect(items.map((item) => item.position)).toEqual([1, 2, 3]);
    await expectAllAnswer([String(posting?.url), String(posting?.image), ...items.map((item) => item.item)]);
  });

  it("every page names the feeds of its language in its head, and they answer", async () => {
    for (const [path, suffix] of [
      ["/home", ""],
      ["/faq?lang=de", "?lang=de"],
      [`/blog/${post.slug}`, ""],
    ] as const) {
      const html = (await request(server.url(path))).body;
      const rss = html.match(/<link rel="alternate" type="application\/rss\+xml" title="[^"]*" href="([^"]+)"\/>/)?.[1];
      const atom = html.match(
        /<link rel="alternate" type="application\/atom\+xml" title="[^"]*" href="([^"]+)"\/>/,
      )?.[1];
      expect(rss, path).toBe(`${server.origin}/blog/feed.xml${suffix}`);
      expect(atom, path).toBe(`${server.origin}/blog/atom.xml${suffix}`);
    }
    await expectAllAnswer([`${server.origin}/blog/feed.xml?lang=de`, `${server.origin}/blog/atom.xml`]);
  });
});
