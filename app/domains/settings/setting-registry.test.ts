import { describe, expect, it } from "vitest";
import { adminDe, adminEn } from "#app/i18n/admin-dictionary.ts";
import {
  SETTING_GROUP_IDS,
  SETTING_REGISTRY,
  SITE_IMAGE_SETTING,
  settingSpecs,
  settingsWithEffect,
} from "./setting-registry.ts";
import { settingDefaults, settingKeys } from "./settings-defaults.ts";
import { settingGroups, validateSettings } from "./settings-form.ts";
import { SITE_IMAGE_KINDS } from "./site-images.ts";

const specs = Object.values(settingSpecs);
const current = specs.filter((spec) => !spec.retired);

describe("the settings registry", () => {
  it("declares German twins only through `de`, and each twin has its English key's rules", () => {
    for (const key of Object.keys(SETTING_REGISTRY)) expect(key.endsWith("_de"), key).toBe(false);
    for (const spec of specs.filter((s) => s.language === "de")) {
      const english = settingSpecs[spec.english];
      expect(spec.key, spec.key).toBe(`${spec.english}_de`);
      expect(english.german, spec.key).toBe(spec.key);
      const { key: _k, language: _l, default: _d, former: _f, german: _g, ...rules } = english;
      const { key: _k2, language: _l2, default: _d2, former: _f2, ...twin } = spec;
      expect(twin, spec.key).toEqual(rules);
    }
    for (const spec of specs.filter((s) => s.german)) {
      expect(settingKeys, spec.key).toContain(spec.german);
    }
  });

  it("puts every key in a section the admin screen shows, with its titles and labels in both languages", () => {
    const shown = settingGroups.map((group) => group.id);
    expect(shown).toEqual([...SETTING_GROUP_IDS]);
    const dictionaries: Record<string, string>[] = [adminEn, adminDe];
    for (const dictionary of dictionaries) {
      for (const id of SETTING_GROUP_IDS) {
        expect(dictionary[`admin.settings.group.${id}`], id).toBeTruthy();
        expect(dictionary[`admin.settings.group.${id}Text`], id).toBeTruthy();
      }
      for (const spec of current) {
        expect(shown, spec.key).toContain(spec.group);
        expect(dictionary[`admin.settings.field.${spec.english}`], spec.key).toBeTruthy();
        if (spec.kind === "email") expect(dictionary[`admin.settings.hint.${spec.english}`], spec.key).toBeTruthy();
      }
    }
    for (const group of settingGroups) expect(group.fields.length, group.id).toBeGreaterThan(0);
  });

  it("gives every text a limit and no choice one", () => {
    for (const spec of specs) {
      const choice = spec.kind === "boolean" || spec.kind === "theme" || spec.kind === "retention";
      expect(spec.limit === undefined, spec.key).toBe(choice);
    }
  });

  it("has defaults that pass their own validation and are stored as they are", () => {
    const values = Object.fromEntries(current.map((spec) => [spec.key, spec.default]));
    expect(validateSettings(values)).toEqual({ ok: true, values });
  });

  it("leaves the texts that follow the site name empty, so that they follow it from the start", () => {
    for (const spec of specs.filter((s) => s.followsSiteName)) expect(settingDefaults[spec.key], spec.key).toBe("");
  });

  it("names one setting per kind of site image, each removing the files it no longer names", () => {
    const images = specs.filter((spec) => spec.siteImage);
    expect(images.map((spec) => spec.siteImage).sort()).toEqual([...SITE_IMAGE_KINDS].sort());
    expect(settingsWithEffect("site-image-cleanup")).toEqual(images.map((spec) => spec.key));
    expect(Object.values(SITE_IMAGE_SETTING)).toEqual(["site_logo_url", "site_favicon_url", "meta_og_image"]);
  });

  it("redraws the watermarks for the watermark settings and the site name a watermark follows", () => {
    expect(settingsWithEffect("watermark-redraw").sort()).toEqual(
      settingKeys.filter((key) => key.startsWith("watermark_") || key === "site_name").sort(),
    );
  });

  it("keeps from visitors only the settings that steer the server or the admin side", () => {
    expect(specs.filter((spec) => !spec.visitors).map((spec) => spec.key)).toEqual([
      "meta_og_url",
      "contact_email",
      "statistics_enabled",
      "statistics_retention_days",
      "admin_require_two_factor",
    ]);
  });
});
