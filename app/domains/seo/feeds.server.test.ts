import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import type { PostWriteResult } from "#app/domains/posts/post-rows.server.ts";
import { settingDefaults } from "#app/domains/settings/settings-defaults.ts";
import { useGalleryTestStorage } from "#tests/support/gallery-factories.ts";
import { parseSitemap } from "#tests/support/seo.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { listBlogPages } from "./blog-sitemap.server.ts";
import { absoluteAddresses, renderFeed } from "./feeds.server.ts";
import { buildSitemap } from "./sitemap.server.ts";

const BASE = "https://site.example";
const T0 = new Date("2026-03-01T10:00:00.000Z");
const hours = (n: number) => new Date(T0.getTime() + n * 3_600_000);
const settings = { ...settingDefaults, site_name: "Jo's <Site>" };

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

type RssItem = {
  title: string;
  link: string;
  guid: unknown;
  description?: string;
  "content:encoded"?: string;
  pubDate: string;
  category?: unknown;
};
type AtomEntry = {
  title: unknown;
  id: string;
  link: { "@href": string }[];
  updated: string;
  published: string;
  content?: unknown;
  summary?: unknown;
};

function parseRss(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  const rss = rssParser.parse(xml).rss as {
    "@version": string;
    channel: { title: string; link: string; language: string; item?: RssItem[] };
  };
  expect(rss["@version"]).toBe("2.0");
  return { channel: rss.channel, items: rss.channel.item ?? [] };
}

function parseAtom(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  const feed = atomParser.parse(xml).feed as { "@xmlns": string; title: unknown; entry?: AtomEntry[] };
  expect(feed["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
  return { feed, entries: feed.entry ?? [] };
}

const text = (value: unknown) =>
  typeof value === "object" && value !== null ? String((value as { "#text": unknown })["#text"]) : String(value);

/** The plain text of an HTML text (a feed's title and summary are HTML). */
const decoded = (html: string) =>
  html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

function accepted(result: PostWriteResult) {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.post;
}

describe("feed content", () => {
  it("makes the post's own addresses absolute, heading links into the post's page", () => {
    const html =
      '<h2 id="a">A<a class="heading-anchor" href="#a">#</a></h2><p><a href="/links">l</a> <a href="https://x.example/">x</a></p>' +
      '<picture><source srcset="/media/images/i/320-a.avif 320w, /media/images/i/640-b.avif 640w"><img src="/media/images/i/320-a.jpg"></picture>';
    const out = absoluteAddresses(html, BASE, `${BASE}/blog/post?lang=de`);
    expect(out).toContain(`href="${BASE}/blog/post?lang=de#a"`);
    expect(out).toContain(`href="${BASE}/links"`);
    expect(out).toContain('href="https://x.example/"');
    expect(out).toContain(`srcset="${BASE}/media/images/i/320-a.avif 320w, ${BASE}/media/images/i/640-b.avif 640w"`);
    expect(out).toContain(`src="${BASE}/media/images/i/320-a.jpg"`);
  });
});

describe.each(databaseKinds)("feeds and the sitemap's posts (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const db = () => database.db;
  const files = useGalleryTestStorage(db);

  async function addPosts() {
    const shown = accepted(
      await createPost(
        db(),
        testAdmin,
        {
          title: 'Hello <script>alert("t")</script> & more',
          title_de: "Hallo Welt",
          excerpt: "The short version.",
          excerpt_de: "Die Kurzfassung.",
          body: "## Start\n\nFull **text** with [a link](/links).\n\n```ts\nconst x = 1;\n```",
          body_de: "## Anfang\n\nDer ganze Text.",
          tags: "news, code",
        },
        { now: T0 },
      ),
    );
    accepted(await setPostStatus(db(), testAdmin, shown.id, { status: "published" }, { now: T0 }));
    const draft = accepted(
      await createPost(db(), testAdmin, { title: "Secret draft", slug: "secret-draft" }, { now: T0 }),
    );
    const later = accepted(await createPost(db(), testAdmin, { title: "Later news", slug: "later-news" }, { now: T0 }));
    accepted(
      await setPostStatus(
        db(),
        testAdmin,
        later.id,
        { status: "scheduled", publishAt: hours(5).toISOString() },
        { now: T0 },
      ),
    );
    return { shown, draft, later };
  }

  it("RSS and Atom per language carry only visible posts, in full by default, escaped, with absolute links", async () => {
    const { shown } = await addPosts();
    const now = hours(1);
    const rss = parseRss(
      await renderFeed(db(), settings, { baseUrl: BASE, format: "rss", lang: "en", now, storage: files.storage }),
    );
    expect(rss.channel.link).toBe(`${BASE}/blog`);
    expect(rss.channel.language).toBe("en");
    // Escaped as HTML text: a reader shows the title, it never runs or formats it.
    expect(rss.items.map((item) => text(item.title))).toEqual([
      "Hello &lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt; &amp; more",
    ]);
    expect(decoded(text(rss.items[0]?.title))).toBe('Hello <script>alert("t")</script> & more');
    const [item] = rss.items;
    expect(item?.link).toBe(`${BASE}/blog/${shown.slug}`);
    expect(item?.description).toBe("The short version.");
    const content = String(item?.["content:encoded"] ?? "");
    expect(content).toContain("<strong>text</strong>");
    expect(content).toContain(`href="${BASE}/links"`);
    expect(content).toContain("--shiki-light:");
    expect(new Date(String(item?.pubDate)).toISOString()).toBe(T0.toISOString());

    const atom = parseAtom(
      await renderFeed(db(), settings, { baseUrl: BASE, format: "atom", lang: "de", now, storage: files.storage }),
    );
    expect(atom.entries.map((entry) => text(entry.title))).toEqual(["Hallo Welt"]);
    const [entry] = atom.entries;
    expect(entry?.id).toBe(`${BASE}/blog/${shown.slugDe}?lang=de`);
    expect(entry?.link[0]?.["@href"]).toBe(`${BASE}/blog/${shown.slugDe}?lang=de`);
    expect(text(entry?.summary)).toBe("Die Kurzfassung.");
    expect(text(entry?.content)).toContain("Der ganze Text.");
    expect(new Date(entry?.published ?? "").toISOString()).toBe(T0.toISOString());
    // The feed's own links: RSS and Atom in this language.
    const links = (atom.feed as unknown as { link: { "@rel"?: string; "@href": string }[] }).link.map(
      (link) => link["@href"],
    );
    expect(links).toContain(`${BASE}/blog/atom.xml?lang=de`);
  });

  it("gives a post's cover as an enclosure with the served file's type and its size in bytes", async () => {
    const pictureId = await files.add({ title: "Cover" });
    const { image_id: coverId } = await db()
      .selectFrom("gallery_images")
      .select("image_id")
      .where("id", "=", pictureId)
      .executeTakeFirstOrThrow();
    const post = accepted(
      await createPost(db(), testAdmin, { title: "With a cover", cover_image_id: coverId }, { now: T0 }),
    );
    accepted(await setPostStatus(db(), testAdmin, post.id, { status: "published" }, { now: T0 }));
    const options = { baseUrl: BASE, lang: "en" as const, now: hours(1), storage: files.storage };

    const rss = parseRss(await renderFeed(db(), settings, { ...options, format: "rss" }));
    const enclosure = (rss.items[0] as unknown as { enclosure: Record<string, string> }).enclosure;
    expect(enclosure["@url"]).toMatch(new RegExp(`^${BASE}/media/images/${coverId}/\\d+-[^/]+\\.jpg$`));
    const key = `public/${enclosure["@url"]?.slice(`${BASE}/media/`.length)}`;
    const stored = await files.storage.stat(key);
    expect(stored?.size).toBeGreaterThan(0);
    expect(enclosure).toMatchObject({ "@type": "image/jpeg", "@length": String(stored?.size) });

    const atom = parseAtom(await renderFeed(db(), settings, { ...options, format: "atom" }));
    const links = atom.entries[0]?.link as unknown as Record<string, string>[];
    expect(links.find((link) => link["@rel"] === "enclosure")).toMatchObject({
      "@href": enclosure["@url"],
      "@type": "image/jpeg",
      "@length": String(stored?.size),
    });
  });

  it("gives the excerpt and a link only when the setting says so", async () => {
    await addPosts();
    const excerptOnly = { ...settings, feed_full_content: "false" };
    const rss = parseRss(
      await renderFeed(db(), excerptOnly, {
        baseUrl: BASE,
        format: "rss",
        lang: "en",
        now: hours(1),
        storage: files.storage,
      }),
    );
    expect(rss.items[0]?.description).toBe("The short version.");
    expect(rss.items[0]?.["content:encoded"]).toBeUndefined();
    const atom = parseAtom(
      await renderFeed(db(), excerptOnly, {
        baseUrl: BASE,
        format: "atom",
        lang: "en",
        now: hours(1),
        storage: files.storage,
      }),
    );
    expect(atom.entries[0]?.content).toBeUndefined();
  });

  it("a scheduled post joins the feeds and the sitemap at its time; a draft never", async () => {
    const { shown, draft, later } = await addPosts();
    const before = await renderFeed(db(), settings, {
      baseUrl: BASE,
      format: "rss",
      lang: "en",
      now: hours(4),
      storage: files.storage,
    });
    expect(before).not.toContain("Later news");
    expect(before).not.toContain("Secret draft");
    const sitemapBefore = await buildSitemap(db(), settings, BASE, [listBlogPages], { now: hours(4) });
    for (const hidden of [later, draft]) {
      expect(sitemapBefore).not.toContain(hidden.slug);
      expect(sitemapBefore).not.toContain(hidden.slugDe);
    }

    const after = parseRss(
      await renderFeed(db(), settings, {
        baseUrl: BASE,
        format: "rss",
        lang: "en",
        now: hours(6),
        storage: files.storage,
      }),
    );
    expect(after.items.map((item) => decoded(text(item.title)))).toEqual([
      "Later news",
      'Hello <script>alert("t")</script> & more',
    ]);
    expect(JSON.stringify(after.items)).not.toContain("Secret draft");

    const urls = parseSitemap(await buildSitemap(db(), settings, BASE, [listBlogPages], { now: hours(6) }));
    const post = (lang: "en" | "de") =>
      urls.find(
        (url) => url.loc === (lang === "en" ? `${BASE}/blog/${shown.slug}` : `${BASE}/blog/${shown.slugDe}?lang=de`),
      );
    // Each language at its own slug, each naming the other.
    expect(post("en")?.alternates).toEqual({
      en: `${BASE}/blog/${shown.slug}?lang=en`,
      de: `${BASE}/blog/${shown.slugDe}?lang=de`,
      "x-default": `${BASE}/blog/${shown.slug}`,
    });
    expect(post("de")?.alternates).toEqual(post("en")?.alternates);
    expect(post("en")?.lastmod).toBe(shown.updatedAt);
    expect(urls.some((url) => url.loc === `${BASE}/blog/later-news`)).toBe(true);
    expect(urls.some((url) => url.loc === `${BASE}/blog`)).toBe(true);
    expect(urls.some((url) => url.loc === `${BASE}/blog/tag/news?lang=de`)).toBe(true);
    expect(urls.some((url) => url.loc.includes("secret-draft"))).toBe(false);
  });

  it("an empty blog has valid feeds without items and no blog entries in the sitemap", async () => {
    const rss = parseRss(
      await renderFeed(db(), settings, { baseUrl: BASE, format: "rss", lang: "en", now: T0, storage: files.storage }),
    );
    expect(rss.items).toEqual([]);
    expect(text(rss.channel.title)).toBe("Jo's <Site> · Blog");
    const atom = parseAtom(
      await renderFeed(db(), settings, { baseUrl: BASE, format: "atom", lang: "de", now: T0, storage: files.storage }),
    );
    expect(atom.entries).toEqual([]);
    const sitemap = await buildSitemap(db(), settings, BASE, [listBlogPages], { now: T0 });
    expect(sitemap).not.toContain("/blog");
  });
});
