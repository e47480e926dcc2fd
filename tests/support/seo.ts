import { XMLParser, XMLValidator } from "fast-xml-parser";
import { expect } from "vitest";

export type SitemapUrl = { loc: string; lastmod?: string; alternates: Record<string, string>; images: string[] };

const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** A sitemap read by a real XML parser (well-formedness checked first), its namespaces kept as prefixes. */
export function parseSitemap(xml: string): SitemapUrl[] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse(xml) as {
    urlset?: Record<string, unknown>;
  };
  const urlset = parsed.urlset ?? {};
  expect(urlset["@xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
  expect(urlset["@xmlns:xhtml"]).toBe("http://www.w3.org/1999/xhtml");
  expect(urlset["@xmlns:image"]).toBe("http://www.google.com/schemas/sitemap-image/1.1");
  type RawUrl = {
    loc: string;
    lastmod?: string;
    "xhtml:link"?: { "@rel": string; "@hreflang": string; "@href": string }[];
    "image:image"?: { "image:loc": string } | { "image:loc": string }[];
  };
  return list(urlset.url as RawUrl | RawUrl[] | undefined).map((url) => ({
    loc: url.loc,
    lastmod: url.lastmod,
    alternates: Object.fromEntries(list(url["xhtml:link"]).map((link) => [link["@hreflang"], link["@href"]])),
    images: list(url["image:image"]).map((image) => image["image:loc"]),
  }));
}

/** Every JSON-LD block of a page, each parsed (a block that is not valid JSON fails the test). */
export function jsonLdBlocks(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? "") as Record<string, unknown>,
  );
}

/** The objects of a JSON-LD block, a `@graph`'s members one by one. */
export function jsonLdNodes(html: string): Record<string, unknown>[] {
  return jsonLdBlocks(html).flatMap((block) =>
    Array.isArray(block["@graph"]) ? (block["@graph"] as Record<string, unknown>[]) : [block],
  );
}
