import { describe, expect, it } from "vitest";
import { linkSchema } from "#app/domains/links/links-schema.ts";
import { videoSchema } from "#app/domains/videos/videos-schema.ts";
import { addressCompletion } from "./content-schema.ts";

describe("an address typed without its beginning", () => {
  it.each([
    ["example.com", "https://example.com"],
    ["example.com/path?q=1#top", "https://example.com/path?q=1#top"],
    ["www.example.co.uk/about", "https://www.example.co.uk/about"],
    ["//example.com/x", "https://example.com/x"],
    ["shop.example.com:8443/cart", "https://shop.example.com:8443/cart"],
    ["bücher.example/neu", "https://bücher.example/neu"],
    ["  example.org  ", "https://example.org"],
    ["lena@example.com", "mailto:lena@example.com"],
  ])("%j → %s", (typed, completed) => {
    expect(addressCompletion(typed)).toBe(completed);
  });

  it.each([
    "https://example.com",
    "ftp://example.com",
    "javascript:alert(1)",
    "example",
    "/links",
    "not an address.com",
    "example.c",
    "1.2.3.4",
    "",
  ])("%j is offered nothing", (typed) => {
    expect(addressCompletion(typed)).toBeNull();
  });
});

describe("a link's address", () => {
  const link = (url: string) => linkSchema.safeParse({ title: "A link", url });

  it("refuses an address without its scheme, naming the completion's message, and stores only complete ones", () => {
    const refused = link("example.com/path");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual(["admin.links.error.urlScheme"]);
    expect(link("javascript:alert(1)").error?.issues.map((issue) => issue.message)).toEqual(["admin.links.error.url"]);
    expect(link("https://example.com/path").data?.url).toBe("https://example.com/path");
  });
});

describe("a video's address", () => {
  const video = (embed_url: string) => videoSchema.safeParse({ title: "A video", embed_url });

  it("offers the completion only when it is a YouTube or Vimeo video", () => {
    expect(video("youtube.com/watch?v=dQw4w9WgXcQ").error?.issues.map((issue) => issue.message)).toEqual([
      "admin.videos.error.urlScheme",
    ]);
    expect(video("example.com/video").error?.issues.map((issue) => issue.message)).toEqual(["admin.videos.error.url"]);
    expect(video("https://youtu.be/dQw4w9WgXcQ").success).toBe(true);
  });
});
