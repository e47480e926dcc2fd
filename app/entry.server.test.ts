import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { THEME_SCRIPT } from "#app/lib/preferences.ts";
import { contentSecurityPolicy, EMPTY_STYLE_HASH, THEME_SCRIPT_HASH, TOAST_STYLE_HASH } from "./entry.server.tsx";

describe("the Content-Security-Policy", () => {
  it("allows the toast library's own <style> element by the hash of what the installed version inserts", () => {
    const source = fs.readFileSync(createRequire(import.meta.url).resolve("sonner"), "utf8");
    const calls = [...source.matchAll(/__insertCSS\(("(?:[^"\\]|\\.)*")\)/g)];
    expect(calls).toHaveLength(1);
    const css = JSON.parse(calls[0]?.[1] ?? '""') as string;
    const hash = createHash("sha256").update(css, "utf8").digest("base64");
    expect(TOAST_STYLE_HASH).toBe(`'sha256-${hash}'`);
    expect(EMPTY_STYLE_HASH).toBe(`'sha256-${createHash("sha256").update("").digest("base64")}'`);
  });

  it("allows the theme script of the head by the hash of its exact text, and no other script", () => {
    const hash = createHash("sha256").update(THEME_SCRIPT, "utf8").digest("base64");
    expect(THEME_SCRIPT_HASH).toBe(`'sha256-${hash}'`);
  });

  it("allows no inline style element or script without the nonce or the theme script's hash, only style attributes", () => {
    const directives = new Map(
      contentSecurityPolicy("abc")
        .split("; ")
        .map((directive) => {
          const [name = "", ...sources] = directive.split(" ");
          return [name, sources];
        }),
    );
    expect(directives.get("script-src")).toEqual(["'self'", "'nonce-abc'", THEME_SCRIPT_HASH]);
    expect(directives.get("style-src")).toEqual(["'self'"]);
    expect(directives.get("style-src-elem")).toEqual(["'self'", TOAST_STYLE_HASH, EMPTY_STYLE_HASH]);
    expect(directives.get("style-src-attr")).toEqual(["'unsafe-inline'"]);
  });
});
