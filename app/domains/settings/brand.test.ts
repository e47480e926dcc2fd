import { describe, expect, it } from "vitest";
import { brandDefault, brandValue, currentYear, followedValue, withBrandValues } from "./brand.ts";
import { type SiteSettings, settingDefaults } from "./settings-defaults.ts";

const site = (overrides: Partial<SiteSettings>): SiteSettings => ({ ...settingDefaults, ...overrides });

describe("brand texts that follow the site name", () => {
  it("makes the logo text, footer name, copyright and watermark from the site name while they are empty", () => {
    const settings = site({ site_name: "Lena Kraus Photography" });
    expect(brandValue(settings, "site_logo_text", 2031)).toBe("Lena Kraus Photography");
    expect(brandValue(settings, "footer_site_name", 2031)).toBe("Lena Kraus Photography");
    expect(brandValue(settings, "footer_copyright", 2031)).toBe("© 2031 Lena Kraus Photography");
    expect(brandValue(settings, "watermark_text", 2031)).toBe("© Lena Kraus Photography");
  });

  it("keeps what the owner wrote, and treats blanks as empty", () => {
    const settings = site({
      site_name: "Lena",
      footer_copyright: "© Lena K., all rights reserved",
      watermark_text: " ",
    });
    expect(brandValue(settings, "footer_copyright", 2031)).toBe("© Lena K., all rights reserved");
    expect(brandValue(settings, "watermark_text", 2031)).toBe("© Lena");
  });

  it("draws no watermark and names no one when the site has no name", () => {
    expect(brandDefault("watermark_text", " ", 2031)).toBe("");
    expect(brandDefault("footer_copyright", "", 2031)).toBe("© 2031");
  });

  it("counts the year in UTC", () => {
    expect(currentYear(new Date("2030-12-31T23:30:00-02:00"))).toBe(2031);
  });

  it("gives the settings form a placeholder for each following field, the German one the English value", () => {
    const settings = site({ site_name: "Lena", footer_site_name: "Lena Kraus" });
    expect(followedValue(settings, "footer_site_name_de", 2031)).toBe("Lena Kraus");
    expect(followedValue(settings, "footer_copyright_de", 2031)).toBe("© 2031 Lena");
    expect(followedValue(settings, "watermark_text", 2031)).toBe("© Lena");
    expect(followedValue(settings, "home_title", 2031)).toBeNull();
    expect(followedValue(settings, "site_name", 2031)).toBeNull();
  });

  it("fills the English brand keys for the settings API and leaves the rest as stored", () => {
    const settings = site({ site_name: "Lena" });
    const shown = withBrandValues(settings, 2031);
    expect(shown).toMatchObject({ footer_copyright: "© 2031 Lena", footer_copyright_de: "", watermark_text: "© Lena" });
    expect({ ...shown, site_logo_text: "", footer_site_name: "", footer_copyright: "", watermark_text: "" }).toEqual(
      settings,
    );
  });
});
