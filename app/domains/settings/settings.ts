import type { Language } from "#app/i18n/i18n.ts";
import { settingSpecs } from "./setting-registry.ts";
import { type LocalizedSettingKey, type SiteSettings, settingDefaults } from "./settings-defaults.ts";

export const DEFAULT_TITLE = "Tech Blog";
export const DEFAULT_DESCRIPTION = "Explore the latest in technology, innovation, and design";

/** The German text of a setting, or the English one when the German is empty. */
export function localizedSetting(settings: SiteSettings, key: LocalizedSettingKey, lang: Language): string {
  const twin = settingSpecs[key].german;
  if (lang === "de" && twin) {
    const german = settings[twin]?.trim();
    if (german) return german;
  }
  return settings[key] ?? settingDefaults[key];
}

export function siteTitle(settings: SiteSettings): string {
  return settings.meta_title.trim() || settings.site_name.trim() || DEFAULT_TITLE;
}

/**
 * The description search engines and share cards get, in the page's language: the owner's own (German falling
 * back to English), else the footer's description of the site (written for a personal site, and the owner's once
 * they change it), else the spec's sentence.
 */
export function siteDescription(settings: SiteSettings, lang: Language = "en"): string {
  return (
    localizedSetting(settings, "meta_description", lang).trim() ||
    localizedSetting(settings, "footer_description", lang).trim() ||
    DEFAULT_DESCRIPTION
  );
}
