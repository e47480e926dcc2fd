import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  inlineScriptHashes,
  isKeepable,
  type KeptPage,
  MAX_PAGES_COMPRESSING,
  PageCache,
  pageCacheKey,
  policyWithHashes,
  type RenderedPage,
} from "./page-cache.ts";

const PUBLIC = "public, max-age=0, must-revalidate";

function page(body: string, headers: Record<string, string> = {}, status = 200): RenderedPage {
  return {
    status,
    headers: new Headers({ "content-type": "text/html; charset=utf-8", "cache-control": PUBLIC, ...headers }),
    body: Buffer.from(body),
  };
}

const kept = (result: KeptPage | RenderedPage): result is KeptPage => "etag" in result;

describe("pageCacheKey", () => {
  const key = (method: string, url: string, headers: Record<string, string> = {}) =>
    pageCacheKey({ method, url, headers });

  it("keys a visitor's GET by address, language and theme, and nothing else", () => {
    expect(key("GET", "/faq")).toBe(key("GET", "/faq", { cookie: "other=1", "user-agent": "x" }));
    expect(key("GET", "/faq", { cookie: "lang=de" })).not.toBe(key("GET", "/faq"));
    expect(key("GET", "/faq", { cookie: "theme=light; lang=de" })).toBe(
      key("GET", "/faq", { cookie: "lang=de; theme=light" }),
    );
    expect(key("GET", "/faq?page=2")).not.toBe(key("GET", "/faq"));
    expect(key("HEAD", "/faq")).toBe(key("GET", "/faq"));
  });

  it("keys a first visit by the language and colour scheme its browser reports, as the app resolves them", () => {
    const english = key("GET", "/faq", { "accept-language": "en-US,en;q=0.9,de;q=0.8" });
    const german = key("GET", "/faq", { "accept-language": "de-DE,de;q=0.9,en;q=0.8" });
    expect(german).not.toBe(english);
    // Many spellings, two pages: what the app would render decides, not the header's text.
    expect(key("GET", "/faq", { "accept-language": "de-AT" })).toBe(german);
    expect(key("GET", "/faq", { "accept-language": "fr-FR,fr;q=0.9" })).toBe(key("GET", "/faq"));
    expect(key("GET", "/faq", { "accept-language": "en" })).toBe(key("GET", "/faq"));
    // The remembered language wins over the browser's, in the key as on the page.
    expect(key("GET", "/faq", { cookie: "lang=en", "accept-language": "de" })).toBe(english);

    const light = key("GET", "/faq", { "sec-ch-prefers-color-scheme": "light" });
    const dark = key("GET", "/faq", { "sec-ch-prefers-color-scheme": "dark" });
    expect(new Set([light, dark, key("GET", "/faq")]).size).toBe(3);
    // A chosen theme is not the system's: on a dark site the cookie makes the page light, the hint does not.
    expect(key("GET", "/faq", { cookie: "theme=light" })).not.toBe(light);
    expect(key("GET", "/faq", { cookie: "theme=light", "sec-ch-prefers-color-scheme": "dark" })).toBe(
      key("GET", "/faq", { cookie: "theme=light" }),
    );
    expect(key("GET", "/faq", { "sec-ch-prefers-color-scheme": "purple" })).toBe(key("GET", "/faq"));
  });

  it("takes no signed-in request and no write", () => {
    expect(key("GET", "/", { cookie: "vitrine.session_token=abc" })).toBeNull();
    expect(key("GET", "/", { cookie: "lang=de; __Secure-vitrine.session_token=abc" })).toBeNull();
    expect(key("GET", "/", { authorization: "Bearer x" })).toBeNull();
    expect(key("POST", "/")).toBeNull();
  });
});

describe("what may be kept", () => {
  it("only a public 200 page or route data that sets no cookie", () => {
    expect(isKeepable(page("ok"))).toBe(true);
    expect(isKeepable(page("ok", { "content-type": "text/x-script" }))).toBe(true);
    expect(isKeepable(page("ok", {}, 404))).toBe(false);
    expect(isKeepable(page("ok", { "set-cookie": "lang=de" }))).toBe(false);
    expect(isKeepable(page("ok", { "cache-control": "private, no-store" }))).toBe(false);
    expect(isKeepable(page("ok", { "cache-control": "no-cache" }))).toBe(false);
    expect(isKeepable(page("ok", { "content-type": "application/json" }))).toBe(false);
  });
});

describe("the kept page's script policy", () => {
  it("replaces the nonce with the hashes of the inline scripts, leaving other directives as they were", () => {
    const html = '<script nonce="n">a()</script><script src="/x.js"></script><script type="module">b()</script>';
    const hashes = inlineScriptHashes(html);
    const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    expect(hashes).toEqual([sha("a()"), sha("b()")]);
    const policy = policyWithHashes("default-src 'self'; script-src 'self' 'nonce-abc'; img-src 'self'", hashes);
    expect(policy).toBe(`default-src 'self'; script-src 'self' ${hashes.join(" ")}; img-src 'self'`);
  });
});

describe("PageCache", () => {
  it("keeps a page until the change version moves", async () => {
    let version = 1;
    const cache = new PageCache({ changeVersion: () => version });
    let renders = 0;
    const render = async () => {
      renders++;
      return page(`render ${renders}`);
    };
    expect(cache.lookup("a")).toBeUndefined();
    const first = await cache.fill("a", render);
    expect(kept(first) && first.identity.toString()).toBe("render 1");
    expect(cache.lookup("a")?.identity.toString()).toBe("render 1");
    version = 2;
    expect(cache.lookup("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps nothing rendered while the version moved: it may show the data from before the change", async () => {
    let version = 1;
    const cache = new PageCache({ changeVersion: () => version });
    const result = await cache.fill("a", async () => {
      version = 2;
      return page("stale?");
    });
    expect(kept(result)).toBe(false);
    expect(cache.lookup("a")).toBeUndefined();
  });

  it("renders once for visitors who miss at the same time", async () => {
    const cache = new PageCache({ changeVersion: () => 1 });
    let renders = 0;
    const render = async () => {
      renders++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return page("shared");
    };
    const results = await Promise.all([1, 2, 3, 4].map(() => cache.fill("a", render)));
    expect(renders).toBe(1);
    expect(results.every(kept)).toBe(true);
  });

  it("stays within its byte budget, dropping the least recently used first", async () => {
    const cache = new PageCache({ changeVersion: () => 1, maxBytes: 64 * 1024 });
    // Random bytes hardly compress: each page costs about three times its size (about 5 KB here).
    const big = () => page(Buffer.from(crypto.getRandomValues(new Uint8Array(1200))).toString("base64"));
    const keys = Array.from({ length: 20 }, (_, index) => `page-${index}`);
    for (const key of keys) {
      await cache.fill(key, async () => big());
      expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
    }
    expect(cache.lookup("page-19")).toBeDefined();
    expect(cache.lookup("page-0")).toBeUndefined();
    expect(cache.size).toBeGreaterThan(5);
  });

  it("counts the address a page is kept under: long, ever new query strings cannot grow it past its budget", async () => {
    const cache = new PageCache({ changeVersion: () => 1, maxBytes: 64 * 1024 });
    for (let index = 0; index < 200; index++) {
      const key = `/?junk=${String(index).padStart(8000, "x")}`;
      await cache.fill(key, async () => page("<p>small</p>"));
      // What the keys themselves hold (two bytes a character) is within the budget too.
      let keyBytes = 0;
      for (let kept = 0; kept <= index; kept++)
        if (cache.lookup(`/?junk=${String(kept).padStart(8000, "x")}`)) keyBytes += 2 * 8007;
      expect(cache.bytes).toBeGreaterThanOrEqual(keyBytes);
      expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
    }
  });

  it("compresses only a few pages at once: more new addresses at the same moment are sent as rendered", async () => {
    const cache = new PageCache({ changeVersion: () => 1 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => cache.fill(`/?q=${index}`, async () => page(`<p>${index}</p>`))),
    );
    expect(results.filter(kept)).toHaveLength(MAX_PAGES_COMPRESSING);
    expect(cache.size).toBe(MAX_PAGES_COMPRESSING);
    // Every visitor got the page; the next visitor of one not kept gets it kept.
    expect(results.map((result) => ("etag" in result ? result.identity : result.body).toString())).toEqual(
      Array.from({ length: 20 }, (_, index) => `<p>${index}</p>`),
    );
    expect(kept(await cache.fill("/?q=19", async () => page("<p>19</p>")))).toBe(true);
  });

  it("forgets a page after its maximum age even without a change", async () => {
    let now = 0;
    const cache = new PageCache({ changeVersion: () => 1, maxAgeMs: 1000, now: () => now });
    await cache.fill("a", async () => page("x"));
    now = 999;
    expect(cache.lookup("a")).toBeDefined();
    now = 1001;
    expect(cache.lookup("a")).toBeUndefined();
  });
});

describe("PageCache, while what a page depends on cannot be told at once", () => {
  it("neither serves nor drops the page, and keeps it without rendering once settling finds it unchanged", async () => {
    let version: string | null = "menu:a";
    let settles = 0;
    const cache = new PageCache({
      changeVersion: () => version,
      settle: async () => {
        settles++;
        version = "menu:a";
      },
    });
    let renders = 0;
    const render = async () => page(`render ${++renders}`);
    await cache.fill("a", render);
    version = null;
    expect(cache.lookup("a")).toBeUndefined();
    expect(cache.size).toBe(1);
    const result = await cache.fill("a", render);
    expect(kept(result) && result.identity.toString()).toBe("render 1");
    expect([renders, settles]).toEqual([1, 1]);
    expect(cache.lookup("a")).toBeDefined();
  });

  it("renders and keeps nothing when the version stays unknown (a value never computed yet)", async () => {
    const cache = new PageCache({ changeVersion: () => null, settle: async () => {} });
    expect(kept(await cache.fill("a", async () => page("x")))).toBe(false);
    expect(cache.size).toBe(0);
  });

  it("keeps a page whose value was first computed by its own render, when nothing was written meanwhile", async () => {
    // The first page after a start: the menu it depends on is computed by rendering it.
    let menu: string | null = null;
    const everything = { version: 7 };
    const cache = new PageCache({
      changeVersion: () => menu,
      settle: async () => {},
      everyArea: () => String(everything.version),
    });
    const first = await cache.fill("a", async () => {
      menu = "menu:a";
      return page("x");
    });
    expect(kept(first) && first.version).toBe("menu:a");
    expect(cache.lookup("a")).toBeDefined();
  });

  it("does not keep it when anything was written while it rendered: the value it showed may be the older one", async () => {
    let menu: string | null = null;
    const everything = { version: 7 };
    const cache = new PageCache({
      changeVersion: () => menu,
      settle: async () => {},
      everyArea: () => String(everything.version),
    });
    const first = await cache.fill("a", async () => {
      everything.version++;
      menu = "menu:b";
      return page("x");
    });
    expect(kept(first)).toBe(false);
    expect(cache.size).toBe(0);
  });
});
