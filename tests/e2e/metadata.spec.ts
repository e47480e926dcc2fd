import { E2E_BASE_URL, expect, rawHtml, test } from "./fixtures.ts";

/** The tags of one kind in the document's <head>, each as a map of its attributes (entities decoded). */
function headTags(html: string, tag: "meta" | "link"): Record<string, string>[] {
  const head = html.slice(0, html.indexOf("</head>"));
  const decode = (value: string) =>
    value
      .replaceAll("&quot;", '"')
      .replaceAll("&#x27;", "'")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
  return [...head.matchAll(new RegExp(`<${tag}\\b([^>]*?)/?>`, "g"))].map((match) => {
    const attributes: Record<string, string> = {};
    for (const [, name, value] of (match[1] ?? "").matchAll(/([\w:-]+)="([^"]*)"/g)) {
      if (name) attributes[name.toLowerCase()] = decode(value ?? "");
    }
    return attributes;
  });
}

function meta(html: string, key: string): string | undefined {
  return headTags(html, "meta").find((m) => m.name === key || m.property === key)?.content;
}

function link(html: string, rel: string): string | undefined {
  return headTags(html, "link").find((l) => l.rel === rel)?.href;
}

function title(html: string): string | undefined {
  return html.match(/<title>([^<]*)<\/title>/)?.[1];
}

// Without a description of the owner's, the footer's description of the site (written for a personal site).
const DESCRIPTION = "A personal site with a gallery, links, questions and videos.";

test("the start page carries its metadata in the raw HTML", async ({ page }) => {
  const { status, html } = await rawHtml(page, "/");
  expect(status).toBe(200);
  expect(title(html)).toBe("Vitrine");
  expect(meta(html, "description")).toBe(DESCRIPTION);
  expect(meta(html, "og:title")).toBe("Vitrine");
  expect(meta(html, "og:description")).toBe(DESCRIPTION);
  expect(meta(html, "og:type")).toBe("website");
  expect(meta(html, "og:url")).toBe(`${E2E_BASE_URL}/`);
  expect(meta(html, "twitter:card")).toBe("summary_large_image");
  expect(link(html, "canonical")).toBe(`${E2E_BASE_URL}/`);
  expect(link(html, "icon")).toBe("/favicon.svg");
  expect(link(html, "apple-touch-icon")).toBe("/apple-touch-icon.png");
  expect(meta(html, "og:image")).toBe(`${E2E_BASE_URL}/og-image.png`);
});

test("the default icons and share card are shipped with the site", async ({ request }) => {
  const card = await request.get("/og-image.png");
  expect(card.status()).toBe(200);
  expect(card.headers()["content-type"]).toContain("image/png");
  const icon = await request.get("/favicon.svg");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  const touchIcon = await request.get("/apple-touch-icon.png");
  expect(touchIcon.status()).toBe(200);
  expect(touchIcon.headers()["content-type"]).toContain("image/png");
});

test("a sub-page prefixes its own name to the title", async ({ page }) => {
  const { html } = await rawHtml(page, "/links");
  expect(title(html)).toBe("Links · Vitrine");
  expect(meta(html, "og:title")).toBe("Links · Vitrine");
  expect(meta(html, "og:url")).toBe(`${E2E_BASE_URL}/links`);
  expect(link(html, "canonical")).toBe(`${E2E_BASE_URL}/links`);
  expect(meta(html, "twitter:card")).toBe("summary_large_image");
  // The browser shows the same title once the page is running.
  await page.goto("/links");
  await expect(page).toHaveTitle("Links · Vitrine");
});

const pages = [
  { path: "/home", title: "Hello, and welcome · Vitrine" },
  { path: "/faq", title: "Frequently asked questions · Vitrine" },
  { path: "/videos", title: "Videos · Vitrine" },
  { path: "/legal-notice", title: "Legal notice · Vitrine" },
  { path: "/privacy", title: "Privacy policy · Vitrine" },
  { path: "/auth", title: "Sign in · Vitrine" },
];

test("every public page has a title, description, Open Graph, Twitter card, canonical and icons", async ({ page }) => {
  for (const { path, title: expected } of pages) {
    const { status, html } = await rawHtml(page, path);
    expect(status, path).toBe(200);
    expect(title(html), path).toBe(expected);
    expect(meta(html, "description"), path).toBeTruthy();
    expect(meta(html, "og:title"), path).toBe(expected);
    expect(meta(html, "og:description"), path).toBeTruthy();
    expect(meta(html, "og:type"), path).toBe("website");
    expect(meta(html, "og:url"), path).toBe(`${E2E_BASE_URL}${path}`);
    expect(meta(html, "twitter:card"), path).toBe("summary_large_image");
    expect(link(html, "canonical"), path).toBe(`${E2E_BASE_URL}${path}`);
    expect(link(html, "icon"), path).toBe("/favicon.svg");
    expect(link(html, "apple-touch-icon"), path).toBe("/apple-touch-icon.png");
  }
});

test("canonical and og:url name the same address on BASE_URL, whatever the query", async ({ page }) => {
  const paths = [
    ["/", "/"],
    ["/?lang=de", "/?lang=de"],
    ["/?page=2", "/"],
    ["/?lang=en&page=2", "/"],
    ["/links", "/links"],
    ["/links?lang=de", "/links?lang=de"],
    ["/faq?utm_source=newsletter", "/faq"],
    ["/home", "/home"],
  ] as const;
  for (const [path, expected] of paths) {
    // Each as a first visit: `?lang=de` leaves a language cookie behind.
    await page.context().clearCookies();
    const { html } = await rawHtml(page, path);
    expect(link(html, "canonical"), path).toBe(`${E2E_BASE_URL}${expected}`);
    expect(meta(html, "og:url"), path).toBe(link(html, "canonical"));
  }
});

test("/favicon.ico answers with the site's icon, cacheable, for the clients that ask for it by that name", async ({
  request,
}) => {
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toBe("image/png");
  expect(icon.headers()["cache-control"]).toMatch(/^public, max-age=\d+/);
  const body = await icon.body();
  // A PNG (which every browser takes at /favicon.ico), 32 × 32 as a browser tab shows it.
  expect(body.subarray(1, 4).toString("latin1")).toBe("PNG");
  expect([body.readUInt32BE(16), body.readUInt32BE(20)]).toEqual([32, 32]);
  const again = await request.get("/favicon.ico", { headers: { "If-None-Match": icon.headers().etag ?? "" } });
  expect(again.status()).toBe(304);
});

test("the not-found page has its title and is not indexed", async ({ page }) => {
  const { status, html } = await rawHtml(page, "/no/such/page");
  expect(status).toBe(404);
  expect(title(html)).toBe("Page not found · Vitrine");
  expect(meta(html, "robots")).toBe("noindex");
  expect(meta(html, "description")).toBe(DESCRIPTION);
});

test("German metadata: German titles, a German canonical and hreflang alternates", async ({ page }) => {
  const { html } = await rawHtml(page, "/faq?lang=de");
  expect(title(html)).toBe("Häufige Fragen · Vitrine");
  expect(meta(html, "og:locale")).toBe("de_DE");
  expect(link(html, "canonical")).toBe(`${E2E_BASE_URL}/faq?lang=de`);
  const alternates = headTags(html, "link").filter((l) => l.rel === "alternate");
  // The page in each language, then the blog's feeds in the page's language (for feed readers).
  expect(alternates.map((l) => [l.hreflang ?? l.type, l.href])).toEqual([
    ["en", `${E2E_BASE_URL}/faq?lang=en`],
    ["de", `${E2E_BASE_URL}/faq?lang=de`],
    ["x-default", `${E2E_BASE_URL}/faq`],
    ["application/rss+xml", `${E2E_BASE_URL}/blog/feed.xml?lang=de`],
    ["application/atom+xml", `${E2E_BASE_URL}/blog/atom.xml?lang=de`],
  ]);
});
