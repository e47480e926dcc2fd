import { describe, expect, it } from "vitest";
import {
  deviceClassOf,
  isBot,
  isCountedPage,
  languageClassOf,
  pageKeyOf,
  referrerHostOf,
  utmSourceOf,
} from "./visit-classes.ts";

describe("what a view is counted as", () => {
  it("takes the visitor's most preferred language", () => {
    expect(languageClassOf("de-DE,de;q=0.9,en;q=0.8")).toBe("de");
    expect(languageClassOf("fr;q=0.5, en-GB;q=0.9")).toBe("en");
    expect(languageClassOf("fr-CH, fr;q=0.9")).toBe("other");
    expect(languageClassOf(undefined)).toBe("other");
    expect(languageClassOf("*;q=0.5, de;q=0")).toBe("other");
  });

  it("keeps only another site's host as the referrer", () => {
    expect(referrerHostOf("https://www.Example.org/a?b=c", ["my.site"])).toBe("example.org");
    expect(referrerHostOf("https://my.site/blog", ["my.site"])).toBeNull();
    expect(referrerHostOf("android-app://com.x", [])).toBeNull();
    expect(referrerHostOf("not a url", [])).toBeNull();
    expect(utmSourceOf("  NewsLetter ")).toBe("newsletter");
    expect(utmSourceOf("")).toBeNull();
  });

  it("names the page without its data suffix, language or paging, and never a share link's token", () => {
    expect(pageKeyOf("/_.data")).toBe("/");
    expect(pageKeyOf("/blog.data")).toBe("/blog");
    expect(pageKeyOf("/blog/")).toBe("/blog");
    expect(pageKeyOf("/s/abcdefsecret")).toBe("/s/…");
    expect(isCountedPage("/admin/gallery")).toBe(false);
    expect(isCountedPage("/admin.data")).toBe(false);
    expect(isCountedPage("/blog/feed.xml")).toBe(false);
    expect(isCountedPage("/sitemap.xml")).toBe(false);
    expect(isCountedPage("/api/events")).toBe(false);
    expect(isCountedPage("/albums/summer.data")).toBe(true);
    expect(isCountedPage("/administrative-notes")).toBe(true);
  });

  it("tells phones, tablets and desktops, and bots", () => {
    expect(
      deviceClassOf(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("phone");
    expect(deviceClassOf("Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148")).toBe(
      "tablet",
    );
    expect(deviceClassOf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0 Safari/537.36")).toBe("desktop");
    expect(isBot("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)")).toBe(true);
    expect(isBot("")).toBe(true);
    expect(isBot("Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0")).toBe(false);
  });
});
