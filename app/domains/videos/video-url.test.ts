import { describe, expect, it } from "vitest";
import { canonicalVideoUrl, embedPlayerUrl, parseVideoUrl } from "./video-url.ts";

describe("parseVideoUrl", () => {
  it.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s&list=PL1", "dQw4w9WgXcQ"],
    ["https://m.youtube.com/watch?v=dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ?si=abc", "dQw4w9WgXcQ"],
    ["https://www.youtube.com/shorts/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://www.youtube.com/embed/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["  http://WWW.YOUTUBE.COM/watch?v=dQw4w9WgXcQ  ", "dQw4w9WgXcQ"],
  ])("recognises the YouTube URL %s", (url, id) => {
    expect(parseVideoUrl(url)).toEqual({ host: "youtube", id });
  });

  it.each([
    ["https://vimeo.com/76979871", { host: "vimeo", id: "76979871" }],
    ["https://www.vimeo.com/76979871?share=copy", { host: "vimeo", id: "76979871" }],
    ["https://player.vimeo.com/video/76979871", { host: "vimeo", id: "76979871" }],
    ["https://vimeo.com/channels/staffpicks/76979871", { host: "vimeo", id: "76979871" }],
    ["https://vimeo.com/76979871/8272103f6e", { host: "vimeo", id: "76979871", hash: "8272103f6e" }],
    ["https://player.vimeo.com/video/76979871?h=8272103f6e", { host: "vimeo", id: "76979871", hash: "8272103f6e" }],
  ])("recognises the Vimeo URL %s", (url, expected) => {
    expect(parseVideoUrl(url)).toEqual(expected);
  });

  it.each([
    "https://example.com/watch?v=dQw4w9WgXcQ",
    "https://www.youtube.com.evil.test/watch?v=dQw4w9WgXcQ",
    "https://www.youtube.com/watch?v=short",
    "https://www.youtube.com/watch",
    "https://www.youtube.com/channel/UC123",
    "https://youtu.be/",
    "javascript:alert('https://youtu.be/dQw4w9WgXcQ')",
    "ftp://youtu.be/dQw4w9WgXcQ",
    "https://vimeo.com/about",
    "https://player.vimeo.com/other/76979871",
    "https://dailymotion.com/video/x7tgad0",
    "not a url",
    "",
  ])("refuses %s", (url) => {
    expect(parseVideoUrl(url)).toBeNull();
  });
});

describe("the player URLs", () => {
  it("are the privacy-enhanced players", () => {
    expect(embedPlayerUrl({ host: "youtube", id: "dQw4w9WgXcQ" })).toBe(
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1",
    );
    expect(embedPlayerUrl({ host: "vimeo", id: "76979871" })).toBe(
      "https://player.vimeo.com/video/76979871?dnt=1&autoplay=1",
    );
    expect(embedPlayerUrl({ host: "vimeo", id: "76979871", hash: "8272103f6e" })).toBe(
      "https://player.vimeo.com/video/76979871?dnt=1&autoplay=1&h=8272103f6e",
    );
  });

  it("store one canonical address per video", () => {
    expect(canonicalVideoUrl({ host: "youtube", id: "dQw4w9WgXcQ" })).toBe(
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    );
    expect(canonicalVideoUrl({ host: "vimeo", id: "1", hash: "abcdef" })).toBe("https://vimeo.com/1/abcdef");
  });
});
