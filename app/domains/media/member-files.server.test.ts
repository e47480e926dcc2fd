import { describe, expect, it } from "vitest";
import { MEMBER_FOLDER, newMemberFolder, placedKey } from "./member-files.server.ts";
import { assertValidKey } from "./storage.server.ts";

describe("member folders", () => {
  it("are always valid storage keys and unlike each other (a folder of base64url once began with '-')", () => {
    const folders = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const folder = newMemberFolder();
      expect(folder).toMatch(MEMBER_FOLDER);
      const key = placedKey("public/images/abc/320-0123abcd.avif", "abc", folder);
      expect(() => assertValidKey(key), key).not.toThrow();
      folders.add(folder);
    }
    expect(folders.size).toBe(2000);
  });

  it("places a variant's file in the member folder and back under its image", () => {
    const key = placedKey("public/images/img-1/640-ff00.webp", "img-1", "a".repeat(48));
    expect(key).toBe(`private/members/${"a".repeat(48)}/640-ff00.webp`);
    expect(placedKey(key, "img-1", null)).toBe("public/images/img-1/640-ff00.webp");
  });
});
