import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { COLOR_SCHEME_HINT, languageFromHeaders, themeSignal } from "#app/lib/preferences.ts";

/**
 * The pages anonymous visitors see, kept rendered and compressed in memory. See
 * docs/decisions/001-page-cache.md for what is kept, how it is keyed and how it is thrown away.
 *
 * The app decides what may be kept, as it would for a proxy in front: only a 200 answer to a GET without a
 * session cookie, marked `Cache-Control: public` and setting no cookie. The cache never reuses a nonce: a kept
 * HTML page is sent with a Content-Security-Policy that allows its own inline scripts by their SHA-256 hashes
 * instead (computed once, when it is kept), so the compressed bytes can be sent as they are.
 */

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Any of better-auth's cookies: a signed-in visitor's pages are never taken from, or put into, the cache. */
const SESSION_COOKIE_MARK = "session_token";
const KEPT_TYPES = /^(text\/html|text\/x-script)\b/;

/** A stamp of what a page shows (see PageCacheOptions.changeVersion); null: not known at this moment. */
export type PageVersion = number | string | null;

export type PageCacheOptions = {
  /**
   * The version of what the page at `key` shows (the database's areas it depends on, server/page-areas.ts): a kept
   * page is only served while it has not moved. Null when it cannot be told at once (a value it depends on must
   * be computed again): the page is then neither served nor dropped until `settle` has run.
   */
  changeVersion: (key: string) => PageVersion;
  /** Makes `changeVersion(key)` known again (computes what it depends on); without it, null means "changed". */
  settle?: (key: string) => Promise<void>;
  /**
   * The version of every area at once (null: not known). A page whose own version was not known before it was
   * rendered (a value it depends on was never computed, as for the first page after a start) is kept when this
   * did not move while it rendered: nothing was written, so the values it computed are the ones now kept.
   */
  everyArea?: () => PageVersion;
  /** The most bytes kept (identity, gzip and brotli together); the least recently used go first. */
  maxBytes?: number;
  /** Kept pages are thrown away after this long even without a change (what no version can see: the clock). */
  maxAgeMs?: number;
  now?: () => number;
};

export type KeptPage = {
  version: PageVersion;
  storedAt: number;
  status: number;
  etag: string;
  headers: Record<string, string>;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  bytes: number;
};

export type RenderedPage = { status: number; headers: Headers; body: Buffer };

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}

/**
 * The cache key for a request, or null when the request must not use the cache at all. Besides the address, a
 * page varies by its language and theme, keyed as the app resolves them (app/lib/preferences.ts), not by the raw
 * headers: the cookie, else the browser's `Accept-Language` (its many spellings give two pages, not hundreds),
 * and the theme cookie, else the colour scheme hint, else neither (a page that follows the system by script).
 */
export function pageCacheKey(req: Pick<IncomingMessage, "method" | "url" | "headers">): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const cookie = req.headers.cookie ?? "";
  if (cookie.includes(SESSION_COOKIE_MARK)) return null;
  // The Authorization header is not used by the site, but a request that carries one is never shared.
  if (req.headers.authorization) return null;
  const lang = languageFromHeaders(cookie, header(req.headers["accept-language"]));
  const theme = themeSignal(cookie, header(req.headers[COLOR_SCHEME_HINT.toLowerCase()]));
  return `${req.url ?? "/"}\u0000${lang}\u0000${theme ? `${theme.chosen ? "chosen" : "system"}:${theme.theme}` : ""}`;
}

/** SHA-256 sources for every inline script of an HTML page, for its Content-Security-Policy. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? "";
    if (/\ssrc\s*=/i.test(attributes)) continue;
    hashes.add(
      `'sha256-${createHash("sha256")
        .update(match[2] ?? "", "utf8")
        .digest("base64")}'`,
    );
  }
  return [...hashes];
}

/** The page's own policy with its nonce (and script hashes) replaced by the hashes of the inline scripts it holds. */
export function policyWithHashes(policy: string, hashes: string[]): string {
  return policy
    .split(";")
    .map((directive) => {
      const trimmed = directive.trim();
      if (!trimmed.startsWith("script-src")) return trimmed;
      // The page's own scripts are allowed by their hashes, and only those: a hash the policy names for a script
      // that may be on a page (the theme script) is left out when this page does not hold it.
      const sources = trimmed
        .split(/\s+/)
        .filter((source) => !source.startsWith("'nonce-") && !source.startsWith("'sha256-"));
      return [...sources, ...hashes].join(" ");
    })
    .join("; ");
}

/** Whether the app's answer may be kept and shared: what a shared proxy would check, and a bit more. */
export function isKeepable(page: Pick<RenderedPage, "status" | "headers">): boolean {
  if (page.status !== 200) return false;
  if (page.headers.has("set-cookie")) return false;
  const cacheControl = page.headers.get("cache-control") ?? "";
  if (!/(^|,)\s*public\b/i.test(cacheControl) || /no-store|private/i.test(cacheControl)) return false;
  return KEPT_TYPES.test(page.headers.get("content-type") ?? "");
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const weak = (tag: string) => tag.trim().replace(/^W\//, "");
  const wanted = weak(etag);
  return header.split(",").some((tag) => weak(tag) === wanted);
}

function preferredEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  // q=0 refusals are rare enough from browsers to treat "named" as "accepted", except an explicit q=0.
  const accepts = (name: string) =>
    new RegExp(`(^|,)\\s*${name}\\s*(;\\s*q=(?!0(\\.0+)?\\s*(,|$))[\\d.]+)?\\s*(,|$)`, "i");
  if (accepts("br").test(acceptEncoding)) return "br";
  if (accepts("gzip").test(acceptEncoding)) return "gzip";
  return null;
}

/** Pages compressed at the same time, at most: as many as the thread pool that compresses them has threads. */
export const MAX_PAGES_COMPRESSING = 4;

/** The smallest brotli window that holds the whole page (10 to 24 bits). */
function brotliWindowBits(length: number): number {
  return Math.min(24, Math.max(10, Math.ceil(Math.log2(length + 1))));
}

export class PageCache {
  readonly #pages = new Map<string, KeptPage>();
  readonly #inflight = new Map<string, Promise<KeptPage | null>>();
  readonly #changeVersion: (key: string) => PageVersion;
  readonly #settle: ((key: string) => Promise<void>) | undefined;
  readonly #everyArea: (() => PageVersion) | undefined;
  readonly #maxBytes: number;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  #bytes = 0;
  /** Pages being compressed right now (see fill). */
  #keeping = 0;

  constructor(options: PageCacheOptions) {
    this.#changeVersion = options.changeVersion;
    this.#settle = options.settle;
    this.#everyArea = options.everyArea;
    this.#maxBytes = options.maxBytes ?? 48 * 1024 * 1024;
    this.#maxAgeMs = options.maxAgeMs ?? 10 * 60 * 1000;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#pages.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The current version of what the page at `key` shows. Each page has its own (a write in one area leaves the
   * pages of others kept), so a page gone stale is dropped when it is next asked for, or by the byte budget.
   */
  #currentVersion(key: string): PageVersion {
    return this.#changeVersion(key);
  }

  clear(): void {
    this.#pages.clear();
    this.#bytes = 0;
  }

  /**
   * The kept page for `key`, fresh for the current version, or undefined. While the version cannot be told (null)
   * the page is not served but kept: `fill` settles the version and may find it still right.
   */
  lookup(key: string): KeptPage | undefined {
    // Every request passes here (files too): the version is asked for only when there is a page to check.
    const page = this.#pages.get(key);
    if (!page) return undefined;
    const version = this.#currentVersion(key);
    if (version === null) return undefined;
    if (page.version !== version || this.#now() - page.storedAt > this.#maxAgeMs) {
      this.#delete(key, page);
      return undefined;
    }
    return page;
  }

  #delete(key: string, page: KeptPage) {
    this.#pages.delete(key);
    this.#bytes -= page.bytes;
  }

  /**
   * Renders through `render` and keeps the answer when it may be kept. Concurrent misses for one key share a
   * single render. Returns the kept page, or the rendered answer when it is not kept (for the caller to send).
   */
  async fill(key: string, render: () => Promise<RenderedPage>): Promise<KeptPage | RenderedPage> {
    let version = this.#currentVersion(key);
    if (version === null && this.#settle) {
      await this.#settle(key);
      version = this.#currentVersion(key);
      // What the kept page depends on was computed again and came out the same: it is still right.
      const confirmed = this.lookup(key);
      if (confirmed) return confirmed;
    }
    const pending = this.#inflight.get(key);
    if (pending) {
      const shared = await pending;
      if (shared && version !== null && shared.version === this.#currentVersion(key)) return shared;
    }
    let settle: (page: KeptPage | null) => void = () => {};
    const promise = new Promise<KeptPage | null>((resolve) => {
      settle = resolve;
    });
    if (!pending) this.#inflight.set(key, promise);
    const everyAreaBefore = version === null ? (this.#everyArea?.() ?? null) : null;
    try {
      const rendered = await render();
      if (version === null && everyAreaBefore !== null && this.#everyArea?.() === everyAreaBefore) {
        version = this.#currentVersion(key);
      }
      // Kept only if nothing changed while it was rendered: it might show the data from before the change.
      // Nor while the most pages are being compressed already: a burst of new addresses (any query string is
      // one) would otherwise hold an encoder each at once. Such a page is sent as rendered and kept next time.
      // Nor when the version was not known before rendering and something was written meanwhile.
      const changed = version === null || this.#currentVersion(key) !== version;
      if (!isKeepable(rendered) || changed || this.#keeping >= MAX_PAGES_COMPRESSING) {
        settle(null);
        return rendered;
      }
      this.#keeping++;
      try {
        const page = await this.#keep(key, version, rendered);
        settle(page);
        return page;
      } finally {
        this.#keeping--;
      }
    } catch (error) {
      settle(null);
      throw error;
    } finally {
      if (this.#inflight.get(key) === promise) this.#inflight.delete(key);
    }
  }

  async #keep(key: string, version: PageVersion, rendered: RenderedPage): Promise<KeptPage> {
    const headers: Record<string, string> = {};
    for (const [name, value] of rendered.headers) headers[name] = value;
    const policy = headers["content-security-policy"];
    if (policy !== undefined) {
      headers["content-security-policy"] = policyWithHashes(policy, inlineScriptHashes(rendered.body.toString("utf8")));
    }
    const [br, gz] = await Promise.all([
      // Sized to the page: the default 4 MB window (and its hash tables) for a 100 KB page is memory for nothing.
      brotli(rendered.body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: rendered.body.length,
          [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(rendered.body.length),
        },
      }),
      gzip(rendered.body, { level: 9 }),
    ]);
    const etag = `W/"${createHash("sha256").update(rendered.body).digest("base64url").slice(0, 27)}"`;
    const page: KeptPage = {
      version,
      storedAt: this.#now(),
      status: rendered.status,
      etag,
      headers,
      identity: rendered.body,
      gzip: gz,
      br,
      // The key too: an address can be long (a query string of kilobytes), and every new one is a new key.
      bytes: rendered.body.length + gz.length + br.length + 512 + key.length * 2,
    };
    const previous = this.#pages.get(key);
    if (previous) this.#delete(key, previous);
    if (version === this.#currentVersion(key) && page.bytes <= this.#maxBytes / 8) {
      this.#pages.set(key, page);
      this.#bytes += page.bytes;
      for (const [oldKey, oldPage] of this.#pages) {
        if (this.#bytes <= this.#maxBytes) break;
        this.#delete(oldKey, oldPage);
      }
    }
    return page;
  }

  /** Marks a kept page as recently used (it moves to the end of the eviction order). */
  touch(key: string, page: KeptPage): void {
    if (this.#pages.get(key) !== page) return;
    this.#pages.delete(key);
    this.#pages.set(key, page);
  }
}

/** Sends a kept page: 304 when the visitor has it, else the best encoding it accepts. */
export function sendKeptPage(
  req: Pick<IncomingMessage, "method" | "headers">,
  res: ServerResponse,
  page: KeptPage,
  state: "hit" | "miss",
): void {
  res.setHeader("ETag", page.etag);
  res.setHeader("X-Vitrine-Cache", state);
  // What the page itself varies by (the cookies, the browser's language, its colour scheme), and the encoding.
  res.setHeader("Vary", ["Accept-Encoding", page.headers.vary ?? "Cookie"].join(", "));
  if (etagMatches(req.headers["if-none-match"] as string | undefined, page.etag)) {
    const cacheControl = page.headers["cache-control"];
    if (cacheControl) res.setHeader("Cache-Control", cacheControl);
    res.writeHead(304);
    res.end();
    return;
  }
  for (const [name, value] of Object.entries(page.headers)) {
    if (name === "content-length" || name === "content-encoding" || name === "vary" || name === "etag") continue;
    res.setHeader(name, value);
  }
  const encoding = preferredEncoding(req.headers["accept-encoding"] as string | undefined);
  const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.identity;
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.writeHead(page.status);
  res.end(req.method === "HEAD" ? undefined : body);
}
