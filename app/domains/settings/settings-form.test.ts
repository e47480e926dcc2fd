import { describe, expect, it } from "vitest";
import { RETIRED_SETTING_KEYS, settingDefaults, settingKeys } from "./settings-defaults.ts";
import { isAllowedUrl, SETTING_LIMITS, settingGroups, settingKinds, validateSettings } from "./settings-form.ts";

describe("the settings form's groups", () => {
  it("hold every setting but the retired ones exactly once (a German twin beside its English key)", () => {
    const listed = settingGroups.flatMap((group) =>
      group.fields.flatMap((field) => (field.german ? [field.key, field.german] : [field.key])),
    );
    const current = settingKeys.filter((key) => !RETIRED_SETTING_KEYS.includes(key));
    expect([...listed].sort()).toEqual([...current].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("offer visitors' downloads of pictures beside the watermark, off until the owner turns them on", () => {
    expect(settingDefaults.gallery_allow_download).toBe("false");
    expect(settingKinds.gallery_allow_download).toBe("boolean");
    const watermark = settingGroups.find((group) => group.id === "watermark");
    expect(watermark?.fields.map((field) => field.key)).toContain("gallery_allow_download");
    expect(validateSettings({ gallery_allow_download: "yes" })).toMatchObject({
      ok: false,
      problems: { gallery_allow_download: "badBoolean" },
    });
  });

  it("no longer edit the home page's shared address: og:url and the canonical link come from BASE_URL", () => {
    expect(RETIRED_SETTING_KEYS).toEqual(["meta_og_url"]);
    expect(validateSettings({ meta_og_url: "https://example.com/" })).toMatchObject({
      ok: false,
      unknownKeys: ["meta_og_url"],
    });
  });

  it("edits the long texts as Markdown and the addresses as URLs", () => {
    for (const key of ["imprint_content", "privacy_content_de", "home_content", "footer_imprint_content_de"] as const) {
      expect(settingKinds[key], key).toBe("markdown");
    }
    for (const key of ["meta_og_image", "watermark_url"] as const) {
      expect(settingKinds[key], key).toBe("url");
    }
    // Visitors' browsers load the logo and favicon, and the Content-Security-Policy allows only this site.
    for (const key of ["site_logo_url", "site_favicon_url"] as const) {
      expect(settingKinds[key], key).toBe("path");
    }
    expect(settingKinds.watermark_enabled).toBe("boolean");
  });
});

describe("setting addresses", () => {
  it.each(["", "https://example.com/logo.png", "http://example.com", "/media/site/logo-abc.png", "/og-image.png?v=2"])(
    "accepts %j",
    (value) => {
      expect(isAllowedUrl(value)).toBe(true);
    },
  );

  it.each([
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:image/png;base64,AAAA",
    "//evil.example/logo.png",
    "/\\evil.example",
    "ftp://example.com/file",
    "example.com/logo.png",
    "https://exa mple.com",
    "https://",
    "vbscript:msgbox",
    "/media/\u0000x",
  ])("refuses %j", (value) => {
    expect(isAllowedUrl(value)).toBe(false);
  });
});

describe("logo and favicon addresses", () => {
  it("take a path on this site, or nothing", () => {
    expect(
      validateSettings({ site_logo_url: " /media/site/logo-0123456789abcdef.webp ", site_favicon_url: "" }),
    ).toEqual({ ok: true, values: { site_logo_url: "/media/site/logo-0123456789abcdef.webp", site_favicon_url: "" } });
  });

  it.each([
    "https://example.com/logo.png",
    "http://example.com/favicon.ico",
    "//cdn.example/logo.png",
    "javascript:alert(1)",
  ])("refuse %j (another site's image would be blocked or a third-party request)", (value) => {
    expect(validateSettings({ site_logo_url: value, site_favicon_url: value })).toEqual({
      ok: false,
      unknownKeys: [],
      problems: { site_logo_url: "badPath", site_favicon_url: "badPath" },
    });
  });

  it("leave share-card addresses absolute: other sites' crawlers fetch them", () => {
    expect(
      validateSettings({ meta_og_image: "https://cdn.example/share.jpg", watermark_url: "https://example.com/" }).ok,
    ).toBe(true);
  });
});

describe("validating submitted settings", () => {
  it("returns the cleaned values when everything fits", () => {
    const result = validateSettings({
      site_name: "  Jo's Photographs  ",
      meta_og_image: " https://example.com/share.png ",
      imprint_content: "# Title\r\n\r\nText",
      watermark_enabled: "false",
    });
    expect(result).toEqual({
      ok: true,
      values: {
        site_name: "Jo's Photographs",
        meta_og_image: "https://example.com/share.png",
        imprint_content: "# Title\n\nText",
        watermark_enabled: "false",
      },
    });
  });

  it("refuses an unknown key and names it", () => {
    const result = validateSettings({ site_name: "Fine", is_admin: "true", __proto__x: "1" });
    expect(result).toMatchObject({ ok: false, unknownKeys: ["is_admin", "__proto__x"] });
  });

  it("refuses every oversize, badly addressed or non-boolean value at once", () => {
    const result = validateSettings({
      site_name: "x".repeat(SETTING_LIMITS.text + 1),
      meta_description: "x".repeat(SETTING_LIMITS.longText + 1),
      privacy_content: "x".repeat(SETTING_LIMITS.markdown + 1),
      watermark_url: "javascript:alert(1)",
      watermark_enabled: "yes",
      footer_copyright: "ok",
    });
    expect(result).toEqual({
      ok: false,
      unknownKeys: [],
      problems: {
        site_name: "tooLong",
        meta_description: "tooLong",
        privacy_content: "tooLong",
        watermark_url: "badUrl",
        watermark_enabled: "badBoolean",
      },
    });
  });

  it("takes texts exactly at their limits", () => {
    const result = validateSettings({
      site_name: "x".repeat(SETTING_LIMITS.text),
      privacy_content: "x".repeat(SETTING_LIMITS.markdown),
    });
    expect(result.ok).toBe(true);
  });

  it("counts a Markdown line break sent as CRLF once", () => {
    const text = `${"x".repeat(SETTING_LIMITS.markdown - 2)}\r\n\r\n`;
    const result = validateSettings({ imprint_content: text });
    expect(result.ok).toBe(true);
  });

  it("refuses invisible control characters in a text", () => {
    expect(validateSettings({ site_name: "Jo\u0007" })).toMatchObject({
      ok: false,
      problems: { site_name: "control" },
    });
  });
});
