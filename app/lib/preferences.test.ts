import { describe, expect, it } from "vitest";
import { languageOf, negotiatedLanguage, themeChoice } from "./preferences.ts";

const request = (url: string, headers: Record<string, string> = {}) =>
  new Request(`http://site.test${url}`, { headers });

describe("the language of a first visit", () => {
  it("is the browser's preferred one of English and German, by weight, then by order", () => {
    expect(negotiatedLanguage("de-DE,de;q=0.9,en;q=0.8")).toBe("de");
    expect(negotiatedLanguage("en-US,en;q=0.9,de;q=0.8")).toBe("en");
    expect(negotiatedLanguage("en;q=0.5, de;q=0.8")).toBe("de");
    expect(negotiatedLanguage("de;q=0.5, en")).toBe("en");
    expect(negotiatedLanguage("fr-CH, fr;q=0.9, de;q=0.7, *;q=0.5")).toBe("de");
    expect(negotiatedLanguage("de-AT")).toBe("de");
    expect(negotiatedLanguage("DE")).toBe("de");
    expect(negotiatedLanguage("de;q=0.5, en;q=0.5")).toBe("de");
  });

  it("is English when the browser names neither, refuses German, or sends nonsense", () => {
    expect(negotiatedLanguage(null)).toBe("en");
    expect(negotiatedLanguage("")).toBe("en");
    expect(negotiatedLanguage("fr-FR,fr;q=0.9")).toBe("en");
    expect(negotiatedLanguage("*")).toBe("en");
    expect(negotiatedLanguage("de;q=0, fr")).toBe("en");
    expect(negotiatedLanguage("de;q=abc")).toBe("en");
    expect(negotiatedLanguage("deutsch, german")).toBe("en");
    expect(negotiatedLanguage(`${"x,".repeat(5000)}de`)).toBe("en");
  });

  it("gives way to the remembered choice, and that to ?lang=", () => {
    expect(languageOf(request("/", { "accept-language": "de" }))).toEqual({ lang: "de", fromQuery: false });
    expect(languageOf(request("/", { "accept-language": "de", cookie: "lang=en" })).lang).toBe("en");
    expect(languageOf(request("/", { "accept-language": "en", cookie: "lang=de" })).lang).toBe("de");
    expect(languageOf(request("/?lang=en", { "accept-language": "de", cookie: "lang=de" }))).toEqual({
      lang: "en",
      fromQuery: true,
    });
    // A cookie that is not a language is no choice.
    expect(languageOf(request("/", { "accept-language": "de", cookie: "lang=fr" })).lang).toBe("de");
  });
});

describe("the theme of a page", () => {
  const hint = (scheme: string) => ({ "sec-ch-prefers-color-scheme": scheme });

  it("is the site's default theme for a visitor who has not chosen, whatever the browser reports", () => {
    expect(themeChoice(request("/", hint("light")), "dark")).toEqual({ theme: "dark", followSystem: false });
    expect(themeChoice(request("/", hint("dark")), "light")).toEqual({ theme: "light", followSystem: false });
    expect(themeChoice(request("/"))).toEqual({ theme: "dark", followSystem: false });
  });

  it("follows the reported colour scheme on a site set to the visitor's system, else is dark; with the script", () => {
    expect(themeChoice(request("/", hint("light")), "system")).toEqual({ theme: "light", followSystem: true });
    expect(themeChoice(request("/", hint('"light"')), "system")).toEqual({ theme: "light", followSystem: true });
    expect(themeChoice(request("/", hint("dark")), "system")).toEqual({ theme: "dark", followSystem: true });
    expect(themeChoice(request("/"), "system")).toEqual({ theme: "dark", followSystem: true });
    expect(themeChoice(request("/", hint("no-preference")), "system")).toEqual({ theme: "dark", followSystem: true });
  });

  it("is the visitor's own choice above all", () => {
    const chosenDark = { cookie: "theme=dark", ...hint("light") };
    expect(themeChoice(request("/", chosenDark), "system")).toEqual({ theme: "dark", followSystem: false });
    expect(themeChoice(request("/", { cookie: "theme=light" }), "system")).toEqual({
      theme: "light",
      followSystem: false,
    });
    expect(themeChoice(request("/", { cookie: "theme=light" }), "dark").theme).toBe("light");
    expect(themeChoice(request("/", { cookie: "theme=dark" }), "light").theme).toBe("dark");
  });
});
