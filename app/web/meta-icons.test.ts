import { describe, expect, it } from "vitest";
import { pageMeta, type SeoData } from "./meta.ts";

const seo = (faviconUrl: string): SeoData => ({
  lang: "en",
  baseUrl: "https://jo.example",
  siteTitle: "Vitrine",
  description: "Description",
  ogImage: "",
  faviconUrl,
});

const iconLinks = (faviconUrl: string) =>
  (pageMeta(seo(faviconUrl), "/") as Record<string, unknown>[])
    .filter((tag) => tag.tagName === "link" && (tag.rel === "icon" || tag.rel === "apple-touch-icon"))
    .map(({ rel, sizes, href }) => ({ rel, sizes, href }));

describe("the page head's icons", () => {
  it("link every size of an uploaded favicon", () => {
    expect(iconLinks("/media/site/favicon-0123456789abcdef-32.png")).toEqual([
      { rel: "icon", sizes: "32x32", href: "/media/site/favicon-0123456789abcdef-32.png" },
      { rel: "apple-touch-icon", sizes: "180x180", href: "/media/site/favicon-0123456789abcdef-180.png" },
      { rel: "icon", sizes: "192x192", href: "/media/site/favicon-0123456789abcdef-192.png" },
      { rel: "icon", sizes: "512x512", href: "/media/site/favicon-0123456789abcdef-512.png" },
    ]);
  });

  it("use a typed favicon address for the icon and the touch icon", () => {
    expect(iconLinks("https://cdn.example.org/icon.png")).toEqual([
      { rel: "icon", sizes: undefined, href: "https://cdn.example.org/icon.png" },
      { rel: "apple-touch-icon", sizes: undefined, href: "https://cdn.example.org/icon.png" },
    ]);
  });

  it("fall back to the shipped icons without a favicon", () => {
    expect(iconLinks("")).toEqual([
      { rel: "icon", sizes: undefined, href: "/favicon.svg" },
      { rel: "apple-touch-icon", sizes: undefined, href: "/apple-touch-icon.png" },
    ]);
  });
});
