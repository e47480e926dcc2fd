import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THEME_SCRIPT } from "#app/lib/preferences.ts";
import {
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
} from "#tests/support/admin-server.ts";
import { type HttpResponse, postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

const GERMAN_FIRST = "de-DE,de;q=0.9,en;q=0.8";
const ENGLISH_FIRST = "en-US,en;q=0.9,de;q=0.8";
const THEME_SCRIPT_HASH = `'sha256-${createHash("sha256").update(THEME_SCRIPT, "utf8").digest("base64")}'`;

const htmlTag = (response: HttpResponse) => response.body.match(/<html[^>]*>/)?.[0] ?? "";
const hasThemeScript = (response: HttpResponse) => response.body.includes(`<script>${THEME_SCRIPT}</script>`);
const varies = (response: HttpResponse) =>
  String(response.headers.vary ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase());
const scriptSources = (response: HttpResponse) =>
  (
    String(response.headers["content-security-policy"] ?? "")
      .split(";")
      .find((part) => part.trim().startsWith("script-src")) ?? ""
  )
    .trim()
    .split(/\s+/);

describe.each(databaseKinds)("a first visit follows the browser's preferences (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    ({ adminCookie } = await signedInAdminAndMember(database));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  const visit = (path: string, headers: Record<string, string> = {}) => request(server.url(path), { headers });
  /** The page as the cache keeps it for a visitor with these headers: asked until it is a hit. */
  async function kept(path: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
    let response = await visit(path, headers);
    // On PostgreSQL the server hears of the test's own writes by NOTIFY a moment later, which drops the cache.
    for (let tries = 0; tries < 40 && response.headers["x-vitrine-cache"] !== "hit"; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      response = await visit(path, headers);
    }
    expect(response.headers["x-vitrine-cache"], `${path} ${JSON.stringify(headers)}`).toBe("hit");
    return response;
  }
  async function setDefaultTheme(value: string) {
    const response = await postForm(
      server,
      "/admin/settings",
      { intent: "save", default_theme: value },
      {
        cookie: adminCookie,
      },
    );
    expect(response.status, response.body.slice(0, 200)).toBeLessThan(400);
  }

  it("is in German when the browser prefers German to English, in English otherwise, and sets no cookie", async () => {
    const cases: [string | undefined, "de" | "en"][] = [
      [GERMAN_FIRST, "de"],
      [ENGLISH_FIRST, "en"],
      ["de", "de"],
      ["de-AT", "de"],
      ["en;q=0.4, de;q=0.7", "de"],
      ["de;q=0.4, en;q=0.7", "en"],
      ["fr-FR, fr;q=0.9, de;q=0.5", "de"],
      ["fr-FR, fr;q=0.9", "en"],
      ["de;q=0, en;q=0.1", "en"],
      [undefined, "en"],
    ];
    for (const [acceptLanguage, lang] of cases) {
      const response = await visit("/faq", acceptLanguage ? { "Accept-Language": acceptLanguage } : {});
      expect(response.status).toBe(200);
      expect(htmlTag(response), String(acceptLanguage)).toContain(`lang="${lang}"`);
      expect(response.body).toContain(lang === "de" ? "Häufige Fragen" : "Frequently asked questions");
      // Only an explicit choice is remembered; the page stays shareable.
      expect(response.cookies).toEqual([]);
      expect(response.headers["cache-control"]).toMatch(/^public, /);
      expect(varies(response)).toEqual(expect.arrayContaining(["cookie", "accept-language"]));
    }
  });

  it("gives way to the remembered language, both ways", async () => {
    const english = await visit("/links", { "Accept-Language": GERMAN_FIRST, Cookie: "lang=en" });
    expect(htmlTag(english)).toContain('lang="en"');
    const german = await visit("/links", { "Accept-Language": ENGLISH_FIRST, Cookie: "lang=de" });
    expect(htmlTag(german)).toContain('lang="de"');
    expect((await visit("/links?lang=en", { "Accept-Language": GERMAN_FIRST })).body).toMatch(/<html lang="en"/);
  });

  it("never serves a kept German page to an English-preferring visitor, nor the other way round", async () => {
    const german = await kept("/videos", { "Accept-Language": GERMAN_FIRST });
    expect(htmlTag(german)).toContain('lang="de"');
    const english = await kept("/videos", { "Accept-Language": ENGLISH_FIRST });
    expect(htmlTag(english)).toContain('lang="en"');
    expect(htmlTag(await visit("/videos", { "Accept-Language": "de-CH" }))).toContain('lang="de"');
    expect(htmlTag(await visit("/videos"))).toContain('lang="en"');
    expect(htmlTag(await visit("/videos", { "Accept-Language": GERMAN_FIRST, Cookie: "lang=en" }))).toContain(
      'lang="en"',
    );
    // A kept page names what it varies by, for a proxy in front.
    expect(varies(german)).toEqual(expect.arrayContaining(["accept-encoding", "cookie", "accept-language"]));
  });

  it("keeps the site's dark default on a site that does not follow the system, and asks for no hint", async () => {
    const response = await visit("/home", { "Sec-CH-Prefers-Color-Scheme": "light" });
    expect(htmlTag(response)).toContain('class="dark"');
    expect(hasThemeScript(response)).toBe(false);
    expect(response.headers["accept-ch"]).toBeUndefined();
    expect(response.headers["critical-ch"]).toBeUndefined();
    expect(htmlTag(await visit("/home", { Cookie: "theme=light" }))).toContain('class="light"');
  });

  it("refuses a default theme that is none, and changes nothing", async () => {
    const response = await postForm(
      server,
      "/admin/settings",
      { intent: "save", default_theme: "purple" },
      {
        cookie: adminCookie,
      },
    );
    expect(response.status).toBe(400);
    expect(response.body).toContain("Choose dark, light or the visitor");
    const row = await database.db
      .selectFrom("site_settings")
      .select("value")
      .where("key", "=", "default_theme")
      .executeTakeFirstOrThrow();
    expect(row.value).toBe("dark");
  });

  it("follows the colour scheme the browser reports on a site set to the visitor's system", async () => {
    await setDefaultTheme("system");
    const light = await visit("/links", { "Sec-CH-Prefers-Color-Scheme": "light" });
    expect(htmlTag(light)).toContain('class="light"');
    // The script stays, for a browser whose media query disagrees with its hint (an emulated scheme).
    expect(hasThemeScript(light)).toBe(true);
    expect(light.headers["accept-ch"]).toBe("Sec-CH-Prefers-Color-Scheme");
    expect(light.headers["critical-ch"]).toBe("Sec-CH-Prefers-Color-Scheme");
    expect(varies(light)).toEqual(expect.arrayContaining(["cookie", "accept-language", "sec-ch-prefers-color-scheme"]));

    const dark = await visit("/links", { "Sec-CH-Prefers-Color-Scheme": "dark" });
    expect(htmlTag(dark)).toContain('class="dark"');
    expect(hasThemeScript(dark)).toBe(true);

    // A chosen theme wins over the system's.
    const chosen = await visit("/links", { "Sec-CH-Prefers-Color-Scheme": "light", Cookie: "theme=dark" });
    expect(htmlTag(chosen)).toContain('class="dark"');
    expect(hasThemeScript(chosen)).toBe(false);
    expect(htmlTag(await visit("/links", { "Sec-CH-Prefers-Color-Scheme": "dark", Cookie: "theme=light" }))).toContain(
      'class="light"',
    );
  });

  it("without a hint renders dark, with the head's script allowed by the CSP, kept or not", async () => {
    await setDefaultTheme("system");
    const fresh = await visit("/faq?without-hint");
    expect(htmlTag(fresh)).toContain('class="dark"');
    expect(hasThemeScript(fresh)).toBe(true);
    // Before anything that paints: the script is in the head, ahead of the stylesheet's body.
    expect(fresh.body.indexOf(THEME_SCRIPT)).toBeLessThan(fresh.body.indexOf("<body"));
    expect(scriptSources(fresh)).toContain(THEME_SCRIPT_HASH);
    const keptPage = await kept("/faq?without-hint");
    expect(hasThemeScript(keptPage)).toBe(true);
    expect(scriptSources(keptPage)).toContain(THEME_SCRIPT_HASH);
    // A kept page without the script (the visitor chose) allows no hash for it.
    const keptChosen = await kept("/faq?without-hint", { Cookie: "theme=light" });
    expect(htmlTag(keptChosen)).toContain('class="light"');
    expect(hasThemeScript(keptChosen)).toBe(false);
    expect(scriptSources(keptChosen)).not.toContain(THEME_SCRIPT_HASH);
  });

  it("never serves a kept dark page to a light visitor, nor the reverse, nor either to one who chose", async () => {
    await setDefaultTheme("system");
    const light = { "Sec-CH-Prefers-Color-Scheme": "light" };
    const dark = { "Sec-CH-Prefers-Color-Scheme": "dark" };
    expect(htmlTag(await kept("/home", dark))).toContain('class="dark"');
    expect(htmlTag(await kept("/home", light))).toContain('class="light"');
    expect(htmlTag(await kept("/home", dark))).toContain('class="dark"');
    expect(htmlTag(await kept("/home"))).toContain('class="dark"');
    expect(htmlTag(await kept("/home", { ...light, Cookie: "theme=dark" }))).toContain('class="dark"');
    expect(htmlTag(await kept("/home", { ...dark, Cookie: "theme=light" }))).toContain('class="light"');
    // Language and theme together, each resolved.
    const germanLight = await kept("/home", { ...light, "Accept-Language": GERMAN_FIRST });
    expect(htmlTag(germanLight)).toMatch(/lang="de" class="light"/);
    expect(htmlTag(await kept("/home", { ...light, "Accept-Language": ENGLISH_FIRST }))).toMatch(
      /lang="en" class="light"/,
    );
  });

  it("uses the light theme for everyone who has not chosen on a site set to light", async () => {
    await setDefaultTheme("light");
    const response = await visit("/faq", { "Sec-CH-Prefers-Color-Scheme": "dark" });
    expect(htmlTag(response)).toContain('class="light"');
    expect(hasThemeScript(response)).toBe(false);
    expect(htmlTag(await visit("/faq"))).toContain('class="light"');
    expect(htmlTag(await visit("/faq", { Cookie: "theme=dark" }))).toContain('class="dark"');
    await setDefaultTheme("dark");
    expect(htmlTag(await visit("/faq"))).toContain('class="dark"');
  });
});
