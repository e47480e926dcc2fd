import { z } from "zod";
import { addressCompletion } from "#app/domains/content/content-schema.ts";
import { menuOrderProblem, normalizeMenuOrder } from "#app/domains/content/menu-sections.ts";
import { isValidEmail } from "#app/domains/users/email.ts";
import { THEME_SETTINGS } from "#app/lib/preferences.ts";
import { CONTROL_CHARACTERS, type TextProblem, textSchema } from "#app/lib/text-schema.ts";
import { type SettingKey, settingDefaults } from "./settings-defaults.ts";

/**
 * How the admin screen edits each setting, and what the server accepts for it. Shared by the settings
 * form (to lay out fields) and the save action (to validate them), so the two never disagree.
 */
export type SettingKind =
  | "text"
  | "longText"
  | "markdown"
  | "url"
  | "path"
  | "boolean"
  | "email"
  | "menuOrder"
  | "theme";

export const SETTING_LIMITS = {
  text: 200,
  longText: 1000,
  markdown: 20_000,
  url: 2000,
  path: 2000,
  email: 254,
} as const;

export type SettingGroupId =
  | "identity"
  | "home"
  | "pages"
  | "footer"
  | "legal"
  | "watermark"
  | "sharing"
  | "contact"
  | "security";

/** A field of the form: a setting, and its German twin when it has one (shown side by side). */
export type SettingField = { key: SettingKey; german?: SettingKey; kind: SettingKind };

const field = (key: SettingKey, kind: SettingKind = "text"): SettingField => {
  const german = `${key}_de`;
  return Object.hasOwn(settingDefaults, german) ? { key, german: german as SettingKey, kind } : { key, kind };
};

/** The groups in the order a site owner thinks of them; each group is saved on its own. */
export const settingGroups: { id: SettingGroupId; fields: SettingField[] }[] = [
  {
    id: "identity",
    fields: [
      field("site_name"),
      field("site_logo_text"),
      field("site_logo_url", "path"),
      field("site_favicon_url", "path"),
      field("default_theme", "theme"),
    ],
  },
  {
    id: "home",
    fields: [field("home_title"), field("home_subtitle", "longText"), field("home_content", "markdown")],
  },
  {
    id: "pages",
    fields: [
      field("gallery_page_title"),
      field("gallery_page_subtitle", "longText"),
      field("links_page_title"),
      field("links_page_subtitle", "longText"),
      field("faq_page_title"),
      field("faq_page_subtitle", "longText"),
      field("video_page_title"),
      field("video_page_subtitle", "longText"),
      field("menu_show_empty_sections", "boolean"),
      field("menu_order", "menuOrder"),
    ],
  },
  {
    id: "footer",
    fields: [
      field("footer_site_name"),
      field("footer_description", "longText"),
      field("footer_copyright"),
      field("footer_imprint_title"),
      field("footer_imprint_content", "markdown"),
      field("footer_privacy_title"),
      field("footer_privacy_content", "markdown"),
    ],
  },
  {
    id: "legal",
    fields: [
      field("imprint_title"),
      field("imprint_content", "markdown"),
      field("privacy_title"),
      field("privacy_content", "markdown"),
    ],
  },
  {
    id: "watermark",
    fields: [
      field("watermark_enabled", "boolean"),
      field("watermark_text"),
      field("watermark_url", "url"),
      field("thumbnail_watermark", "boolean"),
      field("thumbnail_titles", "boolean"),
      field("gallery_allow_download", "boolean"),
    ],
  },
  {
    id: "sharing",
    fields: [
      field("meta_title"),
      field("meta_description", "longText"),
      field("meta_og_image", "url"),
      field("feed_full_content", "boolean"),
    ],
  },
  { id: "contact", fields: [field("contact_enabled", "boolean"), field("contact_email", "email")] },
  { id: "security", fields: [field("admin_require_two_factor", "boolean")] },
];

/** The kind of every setting key (a German twin has its English key's kind). */
export const settingKinds = Object.fromEntries(
  settingGroups.flatMap((group) =>
    group.fields.flatMap((f) =>
      f.german ? [[f.key, f.kind] as const, [f.german, f.kind] as const] : [[f.key, f.kind] as const],
    ),
  ),
) as Record<SettingKey, SettingKind>;

const CONTROL = CONTROL_CHARACTERS;

/**
 * An http(s) URL, or a path on this site such as `/media/…` (uploaded files). Nothing else:
 * no `javascript:`, `data:`, protocol-relative `//host` or backslash tricks.
 */
export function isAllowedUrl(value: string): boolean {
  if (value === "") return true;
  if (/\s/.test(value) || value.includes("\\") || CONTROL.test(value)) return false;
  if (value.startsWith("/")) return !value.startsWith("//");
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * A path on this site (or nothing): what every visitor's browser loads, the logo and the favicon. The
 * Content-Security-Policy allows images from this site only, and the site promises no third-party requests.
 */
export function isSitePath(value: string): boolean {
  return value === "" || (value.startsWith("/") && isAllowedUrl(value));
}

/** Stable problem codes the admin screen translates. */
export type SettingProblem =
  | "tooLong"
  | "badUrl"
  | "badUrlScheme"
  | "badPath"
  | "badBoolean"
  | "badEmail"
  | "badTheme"
  | "control"
  | "lineBreak"
  | "menuOrderUnknown"
  | "menuOrderDuplicate"
  | "menuOrderMissing";

/** The shared text rule's problems as the settings screen names them. */
const TEXT_MESSAGES: Record<TextProblem, SettingProblem> = {
  required: "tooLong",
  tooLong: "tooLong",
  control: "control",
  lineBreak: "lineBreak",
  invalid: "control",
};

function valueSchema(kind: SettingKind) {
  switch (kind) {
    case "boolean":
      return z.enum(["true", "false"], { message: "badBoolean" });
    case "menuOrder":
      // One of each known section (menu-sections.ts), stored as "gallery,home,…".
      return textSchema({ max: SETTING_LIMITS.text, messages: TEXT_MESSAGES })
        .superRefine((value, context) => {
          const problem = menuOrderProblem(value);
          if (problem) context.addIssue({ code: "custom", message: problem });
        })
        .transform(normalizeMenuOrder);
    case "theme":
      return z.enum(THEME_SETTINGS, { message: "badTheme" });
    case "url":
      return textSchema({ max: SETTING_LIMITS.url, messages: TEXT_MESSAGES }).superRefine((value, context) => {
        if (isAllowedUrl(value)) return;
        // "example.com/x" without https://: refused with the completed address offered (the action adds it).
        const message = addressCompletion(value)?.startsWith("https://") ? "badUrlScheme" : "badUrl";
        context.addIssue({ code: "custom", message });
      });
    case "path":
      return textSchema({ max: SETTING_LIMITS.path, messages: TEXT_MESSAGES }).refine(isSitePath, {
        message: "badPath",
      });
    case "email":
      // Empty is allowed (the first admin's address is used); stored trimmed and in lower case, as sign-in does.
      return textSchema({ max: SETTING_LIMITS.email, messages: TEXT_MESSAGES })
        .transform((value) => value.toLowerCase())
        .refine((value) => value === "" || isValidEmail(value), { message: "badEmail" });
    case "markdown":
      // Line endings as the browser sends them (CRLF) count once, as they are stored; indentation is Markdown.
      return textSchema({ max: SETTING_LIMITS.markdown, multiline: true, trim: false, messages: TEXT_MESSAGES });
    case "longText":
      return textSchema({ max: SETTING_LIMITS.longText, multiline: true, messages: TEXT_MESSAGES });
    default:
      return textSchema({ max: SETTING_LIMITS.text, messages: TEXT_MESSAGES });
  }
}

export type SettingsValidation =
  | { ok: true; values: Partial<Record<SettingKey, string>> }
  | { ok: false; unknownKeys: string[]; problems: Partial<Record<SettingKey, SettingProblem>> };

/**
 * Checks submitted settings: every key must be a known setting and every value fit its kind.
 * Returns the cleaned values, or every problem at once.
 */
export function validateSettings(input: Record<string, string>): SettingsValidation {
  const unknownKeys: string[] = [];
  const problems: Partial<Record<SettingKey, SettingProblem>> = {};
  const values: Partial<Record<SettingKey, string>> = {};
  for (const [key, raw] of Object.entries(input)) {
    if (!Object.hasOwn(settingKinds, key)) {
      unknownKeys.push(key);
      continue;
    }
    const settingKey = key as SettingKey;
    const parsed = valueSchema(settingKinds[settingKey]).safeParse(raw);
    if (parsed.success) values[settingKey] = parsed.data;
    else problems[settingKey] = (parsed.error.issues[0]?.message ?? "badUrl") as SettingProblem;
  }
  if (unknownKeys.length > 0 || Object.keys(problems).length > 0) return { ok: false, unknownKeys, problems };
  return { ok: true, values };
}
