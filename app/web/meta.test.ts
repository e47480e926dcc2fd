import type { MetaDescriptor } from "react-router";
import { describe, expect, it } from "vitest";
import { noindexPageMeta, pageMeta, rootSeo, type SeoData } from "./meta.ts";

const BASE = "https://jo.example";

function seo(overrides: Partial<SeoData> = {}): SeoData {
  return {
    lang: "en",
    baseUrl: BASE,
    siteTitle: "Vitrine",
    description: "Explore the latest in technology, innovation, and design",
    ogImage: "",
    faviconUrl: "",
    ...overrides,
  };
}

type Tags = {
  title: string | undefined;
  named: (name: string) => string | undefined;
  property: (property: string) => string | undefined;
  link: (rel: string, hrefLang?: string) => string[];
};

/** The descriptors as the head would show them. */
function read(tags: MetaDescriptor[]): Tags {
  const all = tags as Record<string, unknown>[];
  const find = (field: string, value: string) =>
    all.filter((tag) => tag[field] === value).map((tag) => String(tag.content ?? ""));
  return {
    title: all.find((tag) => "title" in tag)?.title as string | undefined,
    named: (name) => {
      const found = find("name", name);
      expect(found.length, `meta name=${name} appears once`).toBeLessThanOrEqual(1);
      return found[0];
    },
    property: (property) => {
      const found = find("property", property);
      expect(found.length, `meta property=${property} appears once`).toBeLessThanOrEqual(1);
      return found[0];
    },
    link: (rel, hrefLang) =>
      all
        .filter(
          (tag) => tag.tagName === "link" && tag.rel === rel && (hrefLang === undefined || tag.hrefLang === hrefLang),
        )
        .map((tag) => String(tag.href)),
  };
}

describe("page metadata", () => {
  it("gives the start page the site title, description and sharing cards", () => {
    const head = read(pageMeta(seo(), "/"));

    expect(head.title).toBe("Vitrine");
    expect(head.named("description")).toBe("Explore the latest in technology, innovation, and design");
    expect(head.property("og:title")).toBe("Vitrine");
    expect(head.property("og:description")).toBe("Explore the latest in technology, innovation, and design");
    expect(head.property("og:type")).toBe("website");
    expect(head.property("og:url")).toBe(`${BASE}/`);
    expect(head.named("twitter:card")).toBe("summary_large_image");
    expect(head.link("canonical")).toEqual([`${BASE}/`]);
  });

  it("prefixes a sub-page's own name to the site title", () => {
    const head = read(pageMeta(seo({ siteTitle: "Jo's photos" }), "/faq", { title: "FAQ" }));

    expect(head.title).toMatch(/^FAQ\b/);
    expect(head.title).toContain("Jo's photos");
    expect(head.property("og:title")).toBe(head.title);
    expect(head.link("canonical")).toEqual([`${BASE}/faq`]);
    expect(head.property("og:url")).toBe(`${BASE}/faq`);
  });

  it("lets a page bring its own description, and ignores a blank one", () => {
    expect(read(pageMeta(seo(), "/home", { description: "About me" })).named("description")).toBe("About me");
    expect(read(pageMeta(seo(), "/home", { description: "  " })).named("description")).toBe(
      "Explore the latest in technology, innovation, and design",
    );
  });

  it("links the English, German and default language versions of the page", () => {
    const head = read(pageMeta(seo(), "/links"));

    expect(head.link("alternate", "en")).toEqual([`${BASE}/links?lang=en`]);
    expect(head.link("alternate", "de")).toEqual([`${BASE}/links?lang=de`]);
    expect(head.link("alternate", "x-default")).toEqual([`${BASE}/links`]);
  });

  it("makes the German page's canonical URL the German one", () => {
    const head = read(pageMeta(seo({ lang: "de" }), "/links"));
    expect(head.link("canonical")).toEqual([`${BASE}/links?lang=de`]);
    expect(head.property("og:locale")).toBe("de_DE");
  });

  it("uses the default favicon file shipped with the site when no favicon is configured", () => {
    const head = read(pageMeta(seo({ faviconUrl: "" }), "/"));
    expect(head.link("icon")).toEqual(["/favicon.svg"]);
    expect(head.link("apple-touch-icon")).toHaveLength(1);
    expect(head.link("apple-touch-icon")[0]).toMatch(/^\/[\w-]+\.(png|svg)$/);
  });

  it("uses the configured favicon for both the icon and the touch icon", () => {
    const head = read(pageMeta(seo({ faviconUrl: "https://cdn.jo.example/icon.png" }), "/"));
    expect(head.link("icon")).toEqual(["https://cdn.jo.example/icon.png"]);
    expect(head.link("apple-touch-icon")).toEqual(["https://cdn.jo.example/icon.png"]);
  });

  it("shares the configured image as an absolute address", () => {
    const head = read(pageMeta(seo({ ogImage: "/uploads/share.jpg" }), "/"));

    expect(head.property("og:image")).toBe(`${BASE}/uploads/share.jpg`);
    expect(head.named("twitter:image")).toBe(`${BASE}/uploads/share.jpg`);
  });

  it.each([
    ["/", "en", {}, `${BASE}/`],
    ["/", "de", {}, `${BASE}/?lang=de`],
    ["/links", "en", {}, `${BASE}/links`],
    ["/links", "de", {}, `${BASE}/links?lang=de`],
    ["/", "en", { image: "abc_1" }, `${BASE}/?image=abc_1`],
    ["/", "de", { image: "abc_1" }, `${BASE}/?image=abc_1&lang=de`],
  ] as const)("gives %s (%s, %o) one address on BASE_URL: canonical and og:url agree", (path, lang, query, url) => {
    const head = read(pageMeta(seo({ lang }), path, { query }));
    expect(head.link("canonical")).toEqual([url]);
    expect(head.property("og:url")).toBe(url);
  });

  it("shares the default card image, and no tag with empty content, when no share image is configured", () => {
    const tags = pageMeta(seo({ ogImage: "" }), "/") as Record<string, unknown>[];
    for (const tag of tags) if ("content" in tag) expect(String(tag.content).trim(), JSON.stringify(tag)).not.toBe("");
    expect(read(tags as MetaDescriptor[]).property("og:image")).toBe(`${BASE}/og-image.png`);
    expect(read(tags as MetaDescriptor[]).named("twitter:image")).toBe(`${BASE}/og-image.png`);
  });

  it("still gives a title when the root data is missing (error pages)", () => {
    expect(read(pageMeta(undefined, "/")).title).toBe("Tech Blog");
  });

  it("finds the root loader's SEO data among the route matches", () => {
    const data = seo({ siteTitle: "From root" });
    expect(rootSeo([{ id: "routes/faq" }, { id: "root", loaderData: { seo: data } }])).toBe(data);
    expect(rootSeo([{ id: "routes/faq" }])).toBeUndefined();
  });
});

describe("a page search engines leave out", () => {
  const matches = (lang: "en" | "de") => [{ id: "root", loaderData: { seo: seo({ lang }) } }];

  it("is titled in the visitor's language and marked noindex", () => {
    const title = { en: "Sign in", de: "Anmelden" };
    const english = read(noindexPageMeta(matches("en"), "/auth", title));
    expect(english.title).toBe("Sign in · Vitrine");
    expect(english.named("robots")).toBe("noindex");
    const german = read(noindexPageMeta(matches("de"), "/auth", title));
    expect(german.title).toBe("Anmelden · Vitrine");
    expect(german.link("canonical")).toEqual([`${BASE}/auth?lang=de`]);
  });

  it("takes one title as it is, and the site's title alone without one", () => {
    expect(read(noindexPageMeta(matches("en"), "/admin", "Admin")).title).toBe("Admin · Vitrine");
    expect(read(noindexPageMeta(matches("en"), "/gone", undefined)).title).toBe("Vitrine");
  });
});

describe("a page whose language versions live at different paths (a blog post)", () => {
  it("points canonical and each hreflang alternate at that language's own path", () => {
    const paths = { en: "/blog/hello-world", de: "/blog/hallo-welt" };
    const en = read(pageMeta(seo(), "/blog/hello-world", { paths }));
    expect(en.link("canonical")).toEqual([`${BASE}/blog/hello-world`]);
    expect(en.link("alternate", "en")).toEqual([`${BASE}/blog/hello-world?lang=en`]);
    expect(en.link("alternate", "de")).toEqual([`${BASE}/blog/hallo-welt?lang=de`]);
    expect(en.link("alternate", "x-default")).toEqual([`${BASE}/blog/hello-world`]);
    const de = read(pageMeta(seo({ lang: "de" }), "/blog/hallo-welt", { paths }));
    expect(de.link("canonical")).toEqual([`${BASE}/blog/hallo-welt?lang=de`]);
  });
});
