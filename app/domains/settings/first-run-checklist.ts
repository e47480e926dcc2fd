import { settingSpecs } from "./setting-registry.ts";
import { isShippedValue, type SettingKey, type SiteSettings, settingDefaults } from "./settings-defaults.ts";

/** The steps a new owner takes before the site is their own, in the order the dashboard lists them. */
export type ChecklistItemId =
  | "legal-notice"
  | "privacy-policy"
  | "home-text"
  | "share-description"
  | "first-pictures"
  | "watermark-text"
  | "mail"
  | "two-factor";

export type ChecklistItem = {
  id: ChecklistItemId;
  /** Where the step is done: a settings section, the gallery, the account's two-factor page, the users. */
  to: string;
  /** For the two-factor step: the admins who still sign in with a password alone. */
  emails?: string[];
};

export type ChecklistInput = {
  settings: SiteSettings;
  /** Pictures in the gallery, published or not: an owner who uploaded has found the gallery. */
  pictureCount: number;
  /** Whether mails leave the server (SMTP_URL is set); without it they only reach the outbox. */
  mailConfigured: boolean;
  /** The e-mail addresses of admins without two-factor sign-in. */
  adminsWithoutTwoFactor: string[];
  /** The admin looking at the dashboard: sent to their own two-factor page when they are one of those admins. */
  viewerEmail: string;
};

/** Whether a text setting still holds what was shipped, in English or in German (both are shown to someone). */
function isShipped(settings: SiteSettings, key: "imprint_content" | "privacy_content"): boolean {
  const german = settingSpecs[key].german ?? key;
  return (
    settings[key].trim() === settingDefaults[key].trim() || settings[german].trim() === settingDefaults[german].trim()
  );
}

/** The settings screen's section where the key is edited (the registry's group). */
function settingsPageOf(key: SettingKey): string {
  return `/admin/settings?section=${settingSpecs[key].group}`;
}

/**
 * The first-run steps still open, each linking to where it is done. A step that is done is not listed, and
 * when none is open the list is empty (the dashboard then shows no checklist at all). "Default" means what was
 * shipped: a brand text left empty follows the site name, so an empty watermark text is one the owner never set;
 * with the watermark switched off there is nothing to set.
 */
export function openChecklistItems(input: ChecklistInput): ChecklistItem[] {
  const { settings } = input;
  const items: ChecklistItem[] = [];
  if (isShipped(settings, "imprint_content")) items.push({ id: "legal-notice", to: settingsPageOf("imprint_content") });
  if (isShipped(settings, "privacy_content"))
    items.push({ id: "privacy-policy", to: settingsPageOf("privacy_content") });
  // The home page's text greets visitors from the start; the step is done once the owner wrote their own, in
  // either language (a text from an earlier version counts as shipped too).
  if (
    isShippedValue("home_content", settings.home_content) &&
    isShippedValue("home_content_de", settings.home_content_de)
  ) {
    items.push({ id: "home-text", to: settingsPageOf("home_content") });
  }
  if (settings.meta_description.trim() === "") {
    items.push({ id: "share-description", to: settingsPageOf("meta_description") });
  }
  if (input.pictureCount === 0) items.push({ id: "first-pictures", to: "/admin/gallery" });
  if (settings.watermark_enabled === "true" && settings.watermark_text.trim() === "") {
    items.push({ id: "watermark-text", to: settingsPageOf("watermark_text") });
  }
  if (!input.mailConfigured) items.push({ id: "mail", to: "/admin#mail" });
  const without = input.adminsWithoutTwoFactor;
  if (without.length > 0) {
    const own = without.includes(input.viewerEmail);
    items.push({ id: "two-factor", to: own ? "/account/two-factor" : "/admin/users", emails: without });
  }
  return items;
}
