import { type BrandKey, type DeclaredSettingKey, SETTING_REGISTRY, settingSpecs } from "./setting-registry.ts";
import type { SettingKey, SiteSettings } from "./settings-defaults.ts";

/**
 * Settings that carry the site's name unless the owner writes something else (the registry's `followsSiteName`).
 * They are stored empty until then, and an empty one stands for a value made from `site_name` when it is shown:
 * renaming the site renames the header, the footer, the copyright line and the watermark at once. (Stored copies
 * of the name, as shipped before, kept saying "Vitrine" after a rename.)
 */
export const FOLLOWS_SITE_NAME: readonly BrandKey[] = (Object.keys(SETTING_REGISTRY) as DeclaredSettingKey[]).filter(
  (key): key is BrandKey => settingSpecs[key].followsSiteName === true,
);

/** The year a default copyright line names: the current one, in UTC as the server counts it. */
export function currentYear(now: Date = new Date()): number {
  return now.getUTCFullYear();
}

/** What an empty brand setting stands for (the year matters to the copyright line only). */
export function brandDefault(key: BrandKey, siteName: string, year: number = currentYear()): string {
  const name = siteName.trim();
  switch (key) {
    case "footer_copyright":
      return name ? `© ${year} ${name}` : `© ${year}`;
    case "watermark_text":
      // No name, no watermark: a lone "©" on every picture says nothing.
      return name ? `© ${name}` : "";
    default:
      return name;
  }
}

/** The value a brand setting shows: the owner's text, or the one made from the site name. */
export function brandValue(settings: Pick<SiteSettings, BrandKey | "site_name">, key: BrandKey, year: number): string {
  return settings[key].trim() || brandDefault(key, settings.site_name, year);
}

/**
 * What an empty field of the settings form stands for, shown as its placeholder; null for a field that does not
 * follow the site name. A German twin left empty shows the English value, which may itself follow the name.
 */
export function followedValue(settings: SiteSettings, key: SettingKey, year: number): string | null {
  const english = settingSpecs[key].english;
  if (!(FOLLOWS_SITE_NAME as readonly string[]).includes(english)) return null;
  return brandValue(settings, english as BrandKey, year);
}

/** The settings with every brand key as it shows (the public settings API gives what the pages show). */
export function withBrandValues(settings: SiteSettings, year: number): SiteSettings {
  const shown = { ...settings };
  for (const key of FOLLOWS_SITE_NAME) shown[key] = brandValue(settings, key, year);
  return shown;
}
