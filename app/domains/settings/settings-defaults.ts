import { type LocalizedSettingKey, type SettingKey, settingSpecs } from "./setting-registry.ts";

/**
 * The settings' defaults and key lists, read from the registry (setting-registry.ts). Keys ending in `_de` hold
 * the German text; an empty German value falls back to the English one.
 */
export type { LocalizedSettingKey, SettingKey };

export type SiteSettings = Record<SettingKey, string>;

/** Every site setting with its default. */
export const settingDefaults: Readonly<SiteSettings> = Object.fromEntries(
  Object.values(settingSpecs).map((spec) => [spec.key, spec.default]),
) as SiteSettings;

export const settingKeys = Object.keys(settingSpecs) as SettingKey[];

/** What earlier versions shipped for a setting (the registry's `former`), for the keys that had other texts. */
export const FORMER_DEFAULTS: Partial<Record<SettingKey, readonly string[]>> = Object.fromEntries(
  Object.values(settingSpecs)
    .filter((spec) => spec.former.length > 0)
    .map((spec) => [spec.key, spec.former]),
);

/** Whether a setting still holds what this or an earlier version shipped (spaces around it aside). */
export function isShippedValue(key: SettingKey, value: string): boolean {
  const shipped = [settingDefaults[key], ...(FORMER_DEFAULTS[key] ?? [])];
  return shipped.some((text) => text.trim() === value.trim());
}

/** Settings that no longer do anything (the registry's `retired`). */
export const RETIRED_SETTING_KEYS: readonly SettingKey[] = settingKeys.filter((key) => settingSpecs[key].retired);

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(settingSpecs, key);
}
