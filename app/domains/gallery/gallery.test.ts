import { describe, expect, it } from "vitest";
import { downloadFileName } from "./gallery.ts";

describe("a downloaded picture's file name", () => {
  it("is its title in plain lower-case letters, digits and dashes, as a JPEG", () => {
    expect(downloadFileName("Grüner Hafen")).toBe("gruener-hafen.jpg");
    expect(downloadFileName("Straße am Öresund, 2024")).toBe("strasse-am-oeresund-2024.jpg");
    expect(downloadFileName("Café crème")).toBe("cafe-creme.jpg");
  });

  it("leaves nothing a file system or a header could misread", () => {
    for (const title of ["../../etc/passwd", 'a"b\\c', "x\ny", "C:\\photo", "<script>"]) {
      expect(downloadFileName(title), title).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*\.jpg$/);
    }
  });

  it("is picture.jpg when the title has nothing it can use, and stays short", () => {
    expect(downloadFileName("")).toBe("picture.jpg");
    expect(downloadFileName("東京の夜")).toBe("picture.jpg");
    expect(downloadFileName("a".repeat(300))).toBe(`${"a".repeat(80)}.jpg`);
    expect(downloadFileName(`${"a".repeat(79)} b`)).toBe(`${"a".repeat(79)}.jpg`);
  });
});
