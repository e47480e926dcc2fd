import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { adminDictionaryFor } from "#app/i18n/admin-dictionary.ts";
import { PUBLIC_PAGE_CACHE_CONTROL, SHARED_CACHE_WINDOW_SECONDS, SHARED_PAGE_CACHE } from "./cache-policy.ts";

/** The directives of a Cache-Control value, numbers as numbers. */
function directives(value: string): Record<string, number | true> {
  return Object.fromEntries(
    value.split(",").map((part) => {
      const [name, seconds] = part.trim().split("=");
      return [name ?? "", seconds === undefined ? true : Number(seconds)];
    }),
  );
}

describe("the shared cache's window (issue 42, item 5)", () => {
  it("is the pages' s-maxage plus their stale-while-revalidate, as the header says them", () => {
    const header = directives(PUBLIC_PAGE_CACHE_CONTROL);
    expect(header).toMatchObject({ public: true, "max-age": 0, "must-revalidate": true });
    const fresh = header["s-maxage"];
    const stale = header["stale-while-revalidate"];
    expect(typeof fresh).toBe("number");
    expect(typeof stale).toBe("number");
    expect(SHARED_CACHE_WINDOW_SECONDS).toBe((fresh as number) + (stale as number));
  });

  it("is named in the audience control's hint by its placeholder in both languages, never as a written number", () => {
    for (const lang of ["en", "de"] as const) {
      const hint = adminDictionaryFor(lang)["admin.common.sharedCacheHint"];
      expect(hint, lang).toContain("{seconds}");
      expect(hint, lang).not.toMatch(/\d/);
    }
  });

  it("is the one the README names where it tells the owner about restricting", () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
    const { sharedMaxAge, staleWhileRevalidate } = SHARED_PAGE_CACHE;
    expect(readme).toContain(`s-maxage=${sharedMaxAge}, stale-while-revalidate=${staleWhileRevalidate}`);
    expect(readme).toContain(`for up to ${SHARED_CACHE_WINDOW_SECONDS} seconds; the editor's *Who may see it* says so`);
  });
});
