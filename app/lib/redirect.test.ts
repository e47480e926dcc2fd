import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./redirect.ts";

describe("safeRedirectPath", () => {
  it.each([
    ["/admin", "/admin"],
    ["/links?lang=de#top", "/links?lang=de#top"],
    ["/", "/"],
  ])("keeps the same-site path %s", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/ /evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "admin",
    "",
    undefined,
    42,
  ])("refuses %j and uses the fallback", (input) => {
    expect(safeRedirectPath(input, "/home")).toBe("/home");
  });

  it("never returns a value a browser would read as another origin", () => {
    for (const input of ["/\t/evil.example", "/%09/evil.example", "/./\t/evil.example", "/x/../\t/evil.example"]) {
      const result = safeRedirectPath(input);
      expect(new URL(result, "https://site.example").origin).toBe("https://site.example");
      expect([...result].some((char) => char.charCodeAt(0) <= 0x20 || char === "\\")).toBe(false);
    }
  });
});
