import { describe, expect, it, vi } from "vitest";
import { migrateToLatest, migrateUpTo } from "#app/db/migrations.server.ts";
import { watermarkText } from "#app/domains/media/image-watermarks.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { createTestDatabase, databaseKinds, type TestDatabase, useTestDatabase } from "#tests/support/test-database.ts";
import { insertMissingDefaults, readSettings, settingRows } from "./settings.server.ts";
import { DEFAULT_DESCRIPTION, DEFAULT_TITLE, localizedSetting, siteDescription, siteTitle } from "./settings.ts";
import { type SiteSettings, settingDefaults } from "./settings-defaults.ts";

const withGerman = (keys: string[]) => keys.flatMap((key) => [key, `${key}_de`]);

/** Spec §3, written out here so that a key dropped from the defaults fails this test. */
const TEXT_KEYS_WITH_DEFAULTS = [
  "site_name",
  ...withGerman([
    "footer_description",
    "footer_imprint_title",
    "footer_imprint_content",
    "footer_privacy_title",
    "footer_privacy_content",
    "imprint_title",
    "imprint_content",
    "privacy_title",
    "privacy_content",
    "links_page_title",
    "links_page_subtitle",
    "gallery_page_title",
    "gallery_page_subtitle",
    "faq_page_title",
    "faq_page_subtitle",
    "video_page_title",
    "video_page_subtitle",
    // Not in the spec: the home page of issue 2.
    "home_title",
    "home_subtitle",
    "home_content",
  ]),
  "watermark_enabled",
];
/** Keys that exist but may be empty: an empty image or URL means "none" or "use the fallback". */
const OPTIONAL_KEYS = ["site_logo_url", "site_favicon_url", "watermark_url"];
/** Empty until the owner writes something else: they follow the site name (brand.ts). */
const BRAND_KEYS = ["site_logo_text", ...withGerman(["footer_copyright", "footer_site_name"]), "watermark_text"];
const META_KEYS = ["meta_title", "meta_description", "meta_description_de", "meta_og_image", "meta_og_url"];
const ALL_SPEC_KEYS = [...TEXT_KEYS_WITH_DEFAULTS, ...OPTIONAL_KEYS, ...META_KEYS, ...BRAND_KEYS];

async function settingsRows(db: TestDatabase["db"]): Promise<Record<string, string>> {
  const rows = await db.selectFrom("site_settings").select(["key", "value"]).execute();
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

function settingsWith(overrides: Partial<SiteSettings>): SiteSettings {
  return { ...settingDefaults, ...overrides };
}

describe.each(databaseKinds)("default site settings of a fresh database (%s)", (kind) => {
  const database = useTestDatabase(kind, "all");

  it("stores every key of spec §3 and the home page keys, with a real default where the spec gives one", async () => {
    const stored = await settingsRows(database.db);
    for (const key of ALL_SPEC_KEYS) expect(stored, `missing setting ${key}`).toHaveProperty(key);
    for (const key of TEXT_KEYS_WITH_DEFAULTS) expect(stored[key]?.trim(), `empty default for ${key}`).not.toBe("");
    for (const key of META_KEYS) expect(stored[key], `${key} has no default`).toBe("");
    expect(Object.keys(stored).sort()).toEqual(Object.keys(settingDefaults).sort());
  });

  it("names the site Vitrine and leaves the texts that carry the name empty, so that they follow it", async () => {
    const stored = await settingsRows(database.db);
    expect(stored.site_name).toBe("Vitrine");
    for (const key of BRAND_KEYS) expect(stored[key], key).toBe("");
    expect(stored.watermark_enabled).toBe("true");
  });

  it("gives the German variants German texts, not copies of the English ones", async () => {
    const stored = await settingsRows(database.db);
    expect(stored.home_title_de).toBe("Hallo und willkommen");
    expect(stored.imprint_title_de).toBe("Impressum");
    expect(stored.privacy_title_de).toBe("Datenschutzerklärung");
    expect(stored.gallery_page_title_de).toBe("Galerie");
    for (const key of ["imprint_content", "privacy_content", "home_content", "footer_description"]) {
      expect(stored[`${key}_de`], key).not.toBe(stored[key]);
    }
  });

  it("ships legal templates that tell the owner what to fill in", async () => {
    const stored = await settingsRows(database.db);
    expect(stored.imprint_content).toMatch(/fill this in/i);
    expect(stored.imprint_content).toMatch(/address/i);
    expect(stored.privacy_content).toMatch(/fill this in/i);
    expect(stored.imprint_content_de).toMatch(/ausfüllen/i);
    expect(stored.privacy_content_de).toMatch(/ausfüllen/i);
  });

  it("lists every setting visitors may see as key/value rows for the public API, the brand texts as the pages show them", async () => {
    const rows = settingRows(await readSettings(database.db));
    // The address contact messages go to and the admins' two-factor rule are the owner's business only; the
    // retired share-card address steers nothing any more.
    const ownerOnly = new Set([
      "contact_email",
      "admin_require_two_factor",
      "meta_og_url",
      "statistics_enabled",
      "statistics_retention_days",
    ]);
    expect(rows.map((row) => row.key)).toEqual(
      Object.keys(settingDefaults)
        .filter((key) => !ownerOnly.has(key))
        .sort((a, b) => a.localeCompare(b)),
    );
    expect(rows).toContainEqual({ key: "site_name", value: "Vitrine" });
    expect(rows).toContainEqual({ key: "footer_copyright", value: `© ${new Date().getUTCFullYear()} Vitrine` });
    expect(rows).toContainEqual({ key: "watermark_text", value: "© Vitrine" });
  });
});

describe.each(databaseKinds)("site settings changed by an admin (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("inserts only missing keys and never overwrites a value an admin changed", async () => {
    await database.db
      .updateTable("site_settings")
      .set({ value: "My own site" })
      .where("key", "=", "site_name")
      .execute();
    await database.db.updateTable("site_settings").set({ value: "" }).where("key", "=", "home_content").execute();
    await database.db
      .deleteFrom("site_settings")
      .where("key", "in", ["footer_copyright", "faq_page_title_de"])
      .execute();

    const inserted = await insertMissingDefaults(database.db);

    const stored = await settingsRows(database.db);
    expect(inserted).toBe(2);
    expect(stored.footer_copyright).toBe("");
    expect(stored.faq_page_title_de).toBe("Häufige Fragen");
    expect(stored.site_name).toBe("My own site");
    // Emptied on purpose by the admin: stays empty.
    expect(stored.home_content).toBe("");
  });

  it("changes nothing when migrations and defaults run a second time", async () => {
    await database.db.updateTable("site_settings").set({ value: "Changed" }).where("key", "=", "meta_title").execute();
    const before = await settingsRows(database.db);

    const migrated = await migrateToLatest(database.db, database.kind);
    const inserted = await insertMissingDefaults(database.db);

    expect(migrated).toEqual([]);
    expect(inserted).toBe(0);
    expect(await settingsRows(database.db)).toEqual(before);
  });

  it("reads the stored values, with defaults filling keys that are missing", async () => {
    await database.db.updateTable("site_settings").set({ value: "Photos" }).where("key", "=", "site_name").execute();
    await database.db.deleteFrom("site_settings").where("key", "=", "footer_description").execute();

    const settings = await readSettings(database.db);

    expect(settings.site_name).toBe("Photos");
    expect(settings.footer_description).toBe(settingDefaults.footer_description);
    expect(siteTitle(settings)).toBe("Photos");
  });

  it("falls back to the defaults and logs the error when the database cannot be read", async () => {
    await database.db
      .updateTable("site_settings")
      .set({ value: "Not the default" })
      .where("key", "=", "site_name")
      .execute();
    const logged = vi.spyOn(getLogger(), "error").mockImplementation(() => {});
    try {
      await database.close();

      const settings = await readSettings(database.db);

      expect(settings).toEqual(settingDefaults);
      expect(logged).toHaveBeenCalledTimes(1);
      expect(String(logged.mock.calls[0]?.[1])).toMatch(/site settings/i);
    } finally {
      logged.mockRestore();
    }
  });
});

describe.each(databaseKinds)("a site from before the brand followed the site name (%s)", (kind) => {
  it("empties the brand texts still as shipped, so that they follow the name, and keeps the owner's own", async () => {
    const database = await createTestDatabase(kind, { migrate: false });
    try {
      await migrateUpTo(database.db, database.kind, "0010_account_tokens");
      const shipped = {
        site_name: "Lena Kraus",
        site_logo_text: "Vitrine",
        footer_site_name: "Vitrine",
        footer_site_name_de: "Vitrine",
        footer_copyright: "© 2025 Vitrine",
        footer_copyright_de: "© 2025 Lena Kraus, alle Rechte vorbehalten",
        watermark_text: "© Vitrine",
      };
      await database.db
        .insertInto("site_settings")
        .values(Object.entries(shipped).map(([key, value]) => ({ key, value })))
        .execute();

      await migrateToLatest(database.db, database.kind);

      expect(await settingsRows(database.db)).toEqual({
        site_name: "Lena Kraus",
        site_logo_text: "",
        footer_site_name: "",
        footer_site_name_de: "",
        footer_copyright: "",
        footer_copyright_de: "© 2025 Lena Kraus, alle Rechte vorbehalten",
        watermark_text: "",
      });
    } finally {
      await database.destroy();
    }
  });
});

describe.each(databaseKinds)("a site whose owner had emptied the watermark text (%s)", (kind) => {
  it("still draws no watermark after the upgrade: empty now means the site name, so the watermark is turned off", async () => {
    const database = await createTestDatabase(kind, { migrate: false });
    try {
      await migrateUpTo(database.db, database.kind, "0010_account_tokens");
      // Before, an empty text with the watermark on drew nothing (the text is all a watermark draws).
      await database.db
        .insertInto("site_settings")
        .values([
          { key: "site_name", value: "Lena Kraus" },
          { key: "watermark_text", value: "" },
        ])
        .execute();
      await migrateToLatest(database.db, database.kind);
      const settings = await readSettings(database.db);
      expect(watermarkText(settings)).toBe("");
      expect(settings.watermark_enabled).toBe("false");

      // A site that had it on with its own text keeps it on.
      const other = await createTestDatabase(kind, { migrate: false });
      try {
        await migrateUpTo(other.db, other.kind, "0010_account_tokens");
        await other.db
          .insertInto("site_settings")
          .values([
            { key: "watermark_enabled", value: "true" },
            { key: "watermark_text", value: "© Lena" },
          ])
          .execute();
        await migrateToLatest(other.db, other.kind);
        expect(watermarkText(await readSettings(other.db))).toBe("© Lena");
      } finally {
        await other.destroy();
      }
    } finally {
      await database.destroy();
    }
  });
});

describe("localized settings", () => {
  it("returns the German text for German visitors", () => {
    const settings = settingsWith({ home_title: "Welcome", home_title_de: "Willkommen" });
    expect(localizedSetting(settings, "home_title", "de")).toBe("Willkommen");
    expect(localizedSetting(settings, "home_title", "en")).toBe("Welcome");
  });

  it.each([
    ["empty", ""],
    ["blank", "   \n\t "],
  ])("falls back to the English text when the German one is %s", (_label, german) => {
    const settings = settingsWith({ imprint_title: "Legal notice of Jo", imprint_title_de: german });
    expect(localizedSetting(settings, "imprint_title", "de")).toBe("Legal notice of Jo");
  });

  it("never shows German text to English visitors", () => {
    const settings = settingsWith({ faq_page_title: "", faq_page_title_de: "Fragen" });
    expect(localizedSetting(settings, "faq_page_title", "en")).toBe("");
  });
});

describe("site title and description", () => {
  it("uses meta_title first", () => {
    expect(siteTitle(settingsWith({ meta_title: "Jo's photos", site_name: "Vitrine" }))).toBe("Jo's photos");
  });

  it("falls back to the site name when meta_title is empty or blank", () => {
    expect(siteTitle(settingsWith({ meta_title: "", site_name: "Jo" }))).toBe("Jo");
    expect(siteTitle(settingsWith({ meta_title: "  ", site_name: "Jo" }))).toBe("Jo");
  });

  it("falls back to 'Tech Blog' when both are empty", () => {
    expect(DEFAULT_TITLE).toBe("Tech Blog");
    expect(siteTitle(settingsWith({ meta_title: "", site_name: " " }))).toBe("Tech Blog");
  });

  it("uses meta_description, else the footer's description, else the spec's default description", () => {
    expect(siteDescription(settingsWith({ meta_description: "Pictures from the Alps" }))).toBe(
      "Pictures from the Alps",
    );
    // A fresh site describes itself as a personal site, in each language.
    expect(siteDescription(settingDefaults)).toBe("A personal site with a gallery, links, questions and videos.");
    expect(siteDescription(settingDefaults, "de")).toBe(
      "Eine persönliche Website mit Galerie, Links, Fragen und Videos.",
    );
    expect(siteDescription(settingsWith({ meta_description: "  ", footer_description: "Jo's notes" }))).toBe(
      "Jo's notes",
    );
    expect(DEFAULT_DESCRIPTION).toBe("Explore the latest in technology, innovation, and design");
    const bare = { meta_description: "", footer_description: "", footer_description_de: " " };
    expect(siteDescription(settingsWith(bare))).toBe("Explore the latest in technology, innovation, and design");
    expect(siteDescription(settingsWith(bare), "de")).toBe("Explore the latest in technology, innovation, and design");
  });

  it("gives German pages the German description, falling back to the English one", () => {
    const both = settingsWith({
      meta_description: "Pictures from the Alps",
      meta_description_de: "Bilder aus den Alpen",
    });
    expect(siteDescription(both, "de")).toBe("Bilder aus den Alpen");
    expect(siteDescription(both, "en")).toBe("Pictures from the Alps");
    const englishOnly = settingsWith({ meta_description: "Pictures from the Alps", meta_description_de: "  " });
    expect(siteDescription(englishOnly, "de")).toBe("Pictures from the Alps");
  });

  it("gives a fresh site the title Vitrine", () => {
    expect(siteTitle(settingDefaults)).toBe("Vitrine");
  });
});

describe.each(databaseKinds)("settings kept until the database changes (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  /**
   * Waits until the change version stays put: PostgreSQL's listener connects on first use (until then every
   * call counts as a change) and its notification of a commit arrives a moment after the write.
   */
  async function quiet() {
    if (kind !== "postgres") return;
    let previous = database.changeVersion();
    for (let steady = 0; steady < 5; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const next = database.changeVersion();
      steady = next === previous ? steady + 1 : 0;
      previous = next;
    }
  }

  it("reads the table once while nothing is written, and again after a write", async () => {
    await quiet();
    const selectFrom = vi.spyOn(database.db, "selectFrom");
    const reads = () => selectFrom.mock.calls.filter(([table]) => table === "site_settings").length;
    const first = await readSettings(database.db);
    const second = await readSettings(database.db);
    expect(second).toEqual(first);
    expect(reads()).toBe(1);
    // Each caller gets its own object: changing one changes no one else's.
    second.site_name = "Changed here only";
    expect((await readSettings(database.db)).site_name).toBe(first.site_name);
    expect(reads()).toBe(1);

    await database.db.updateTable("site_settings").set({ value: "Saved" }).where("key", "=", "site_name").execute();
    // Right after the write (before any notification), the page answering it sees what was saved.
    expect((await readSettings(database.db)).site_name).toBe("Saved");
    expect(reads()).toBe(2);
    await quiet();
    const settled = reads();
    expect((await readSettings(database.db)).site_name).toBe("Saved");
    expect((await readSettings(database.db)).site_name).toBe("Saved");
    expect(reads()).toBeLessThanOrEqual(settled + 1);
  });

  it("reads afresh inside a transaction, and keeps nothing from a failed read", async () => {
    await readSettings(database.db);
    await database.db.transaction().execute(async (trx) => {
      await trx.updateTable("site_settings").set({ value: "In the write" }).where("key", "=", "site_name").execute();
      expect((await readSettings(trx)).site_name).toBe("In the write");
    });

    const error = vi.spyOn(getLogger(), "error").mockImplementation(() => {});
    const failing = vi.spyOn(database.db, "selectFrom").mockImplementationOnce(() => {
      throw new Error("database gone");
    });
    database.noteChange();
    expect(await readSettings(database.db)).toEqual(settingDefaults);
    expect(error).toHaveBeenCalledOnce();
    failing.mockRestore();
    error.mockRestore();
    // The defaults of the failure were not kept: the next read (same version) goes to the table.
    expect((await readSettings(database.db)).site_name).toBe("In the write");
  });
});
