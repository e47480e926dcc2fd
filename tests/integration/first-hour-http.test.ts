import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { linksService } from "#app/domains/links/links.server.ts";
import type { settingDefaults } from "#app/domains/settings/settings-defaults.ts";
import { cookieFor, stopServerAndDatabase, visibleText } from "#tests/support/admin-server.ts";
import { createUser } from "#tests/support/factories.ts";
import { createGalleryPicture, factoryActor, storageIn } from "#tests/support/gallery-factories.ts";
import { request, type ServerProcess, startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

vi.setConfig({ testTimeout: 180_000 });

const STEP_TITLES = [
  "Write your legal notice",
  "Write your privacy policy",
  "Write your home page",
  "Describe your site for search and sharing",
  "Upload your first pictures",
  "Choose your watermark text",
  "Set up outgoing mail",
  "Turn on two-factor sign-in",
];

/** The main menu's addresses in a page's HTML (the header's first navigation landmark). */
function menuAddresses(html: string): string[] {
  const nav = /<nav aria-label="Main"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
  return [...nav.matchAll(/href="([^"]*)"/g)].map((match) => match[1] ?? "");
}

describe.each(databaseKinds)("the owner's first hour over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const admin = await createUser(database.db, { admin: true, email: "owner@example.com" });
    adminCookie = await cookieFor(database, admin);
    server = await startServer({
      dataDir: database.location.dataDir,
      databaseUrl: database.location.databaseUrl,
      authSecret: TEST_AUTH_SECRET,
    });
  });

  afterAll(async () => {
    await stopServerAndDatabase(server, database);
  });

  async function setSetting(key: keyof typeof settingDefaults, value: string) {
    await database.db
      .insertInto("site_settings")
      .values({ key, value })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
      .execute();
  }

  /** What a page shows once the server has seen the test's last write (PostgreSQL tells it by NOTIFY). */
  async function eventually(pathname: string, cookie: string | undefined, check: (html: string) => boolean) {
    let html = "";
    for (let attempt = 0; attempt < 50; attempt++) {
      const response = await request(server.url(pathname), cookie ? { headers: { Cookie: cookie } } : {});
      expect(response.status, pathname).toBe(200);
      html = response.body;
      if (check(html)) return html;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return html;
  }

  it("lists every first-run step on a fresh site, and each step leaves once it is done", async () => {
    const fresh = await request(server.url("/admin"), { headers: { Cookie: adminCookie } });
    expect(fresh.status).toBe(200);
    const text = visibleText(fresh.body);
    for (const title of STEP_TITLES) expect(text).toContain(title);
    expect(text).toContain("Admins without two-factor sign-in: owner@example.com");
    for (const to of [
      "/admin/settings?section=legal",
      "/admin/settings?section=home",
      "/admin/settings?section=sharing",
      "/admin/settings?section=watermark",
      "/admin/gallery",
      "/admin#mail",
      "/account/two-factor",
    ]) {
      expect(fresh.body).toContain(`href="${to}"`);
    }

    for (const key of ["imprint_content", "imprint_content_de", "privacy_content", "privacy_content_de"] as const) {
      await setSetting(key, `The owner's own ${key}.`);
    }
    // The home text in one language is enough: the owner has made the page their own.
    await setSetting("home_content_de", "Ich fotografiere Berge.");
    await setSetting("meta_description", "Landscapes by Lena Kraus");
    await setSetting("watermark_text", "© Lena Kraus");
    await createGalleryPicture(database.db, storageIn(database.location.dataDir), { title: "Alpine lake" });
    await database.db
      .updateTable("user")
      .set({ twoFactorEnabled: true })
      .where("email", "=", "owner@example.com")
      .execute();

    const done = visibleText(
      await eventually("/admin", adminCookie, (html) => !visibleText(html).includes("Upload your first pictures")),
    );
    for (const title of STEP_TITLES.filter((title) => title !== "Set up outgoing mail")) {
      expect(done).not.toContain(title);
    }
    // Mail is set up in the server's environment (SMTP_URL), which this server was started without.
    expect(done).toContain("Set up outgoing mail");
    expect(done).toContain("Before you share your site");
  });

  it("offers a content page in the main menu only once it has a published entry, unless the setting keeps it", async () => {
    const empty = await request(server.url("/"));
    expect(menuAddresses(empty.body)).toEqual(["/", "/home"]);
    // The page itself still answers, with its empty state, for anyone who has the address.
    const links = await request(server.url("/links"));
    expect(links.status).toBe(200);
    expect(visibleText(links.body)).toContain("No links yet. Check back soon.");

    // A hidden entry is not enough; a published one is, on the next page (kept pages are dropped by the write).
    const created = await linksService.create(database.db, factoryActor, {
      title: "My code",
      title_de: "Mein Code",
      url: "https://example.com/code",
      icon: "github",
      active: "false",
    });
    expect(created.ok).toBe(true);
    expect(menuAddresses((await request(server.url("/"))).body)).toEqual(["/", "/home"]);
    await faqService.create(database.db, factoryActor, {
      question: "Which camera?",
      question_de: "Welche Kamera?",
      answer: "An old one.",
      answer_de: "Eine alte.",
      active: "true",
    });
    const withFaq = await eventually("/", undefined, (html) => menuAddresses(html).includes("/faq"));
    expect(menuAddresses(withFaq)).toEqual(["/", "/home", "/faq"]);

    await setSetting("menu_show_empty_sections", "true");
    const kept = await eventually("/", undefined, (html) => menuAddresses(html).length > 3);
    expect(menuAddresses(kept)).toEqual(["/", "/home", "/links", "/faq", "/videos", "/albums"]);
    await setSetting("menu_show_empty_sections", "false");
    const back = await eventually("/", undefined, (html) => menuAddresses(html).length === 3);
    expect(menuAddresses(back)).toEqual(["/", "/home", "/faq"]);
  });
});
