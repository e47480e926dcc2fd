import { z } from "zod";
import { addressCompletion } from "#app/domains/content/content-schema.ts";
import { menuOrderProblem, normalizeMenuOrder } from "#app/domains/content/menu-sections.ts";
import { isValidEmail } from "#app/domains/users/email.ts";
import { THEME_SETTINGS } from "#app/lib/preferences.ts";
import { CONTROL_CHARACTERS, type TextProblem, textSchema } from "#app/lib/text-schema.ts";
import {
  RETENTION_CHOICES,
  SETTING_GROUP_IDS,
  type SettingGroupId,
  type SettingKind,
  settingSpecs,
} from "./setting-registry.ts";
import type { SettingKey } from "./settings-defaults.ts";

// The limits are declared with the kinds in the registry; the form's and the preview's importers read them here.
export { SETTING_LIMITS } from "./setting-registry.ts";

/** A field of the form: a setting, and its German twin when it has one (shown side by side). */
export type SettingField = { key: SettingKey; german?: SettingKey; kind: SettingKind };

/**
 * The form's groups in the registry's order of sections, each with its fields in the registry's order: every
 * English key but the retired ones, its German twin beside it. Shared by the settings form (to lay out fields)
 * and the save action (to validate them), so the two never disagree.
 */
export const settingGroups: { id: SettingGroupId; fields: SettingField[] }[] = SETTING_GROUP_IDS.map((id) => ({
  id,
  fields: Object.values(settingSpecs)
    .filter((spec) => spec.group === id && spec.language === "en" && !spec.retired)
    .map(({ key, german, kind }) => (german ? { key, german, kind } : { key, kind })),
}));

/** The kind of every setting the form edits (a German twin has its English key's kind; retired keys have none). */
export const settingKinds = Object.fromEntries(
  Object.values(settingSpecs)
    .filter((spec) => !spec.retired)
    .map((spec) => [spec.key, spec.kind]),
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
  | "badRetention"
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

/** The check of a value of the kind, `max` its key's limit in the registry. */
function valueSchema(kind: SettingKind, max: number) {
  switch (kind) {
    case "boolean":
      return z.enum(["true", "false"], { message: "badBoolean" });
    case "menuOrder":
      // One of each known section (menu-sections.ts), stored as "gallery,home,…".
      return textSchema({ max, messages: TEXT_MESSAGES })
        .superRefine((value, context) => {
          const problem = menuOrderProblem(value);
          if (problem) context.addIssue({ code: "custom", message: problem });
        })
        .transform(normalizeMenuOrder);
    case "theme":
      return z.enum(THEME_SETTINGS, { message: "badTheme" });
    case "retention":
      return z.enum(RETENTION_CHOICES, { message: "badRetention" });
    case "url":
      return textSchema({ max, messages: TEXT_MESSAGES }).superRefine((value, context) => {
        if (isAllowedUrl(value)) return;
        // "example.com/x" without https://: refused with the completed address offered (the action adds it).
        const message = addressCompletion(value)?.startsWith("https://") ? "badUrlScheme" : "badUrl";
        context.addIssue({ code: "custom", message });
      });
    case "path":
      return textSchema({ max, messages: TEXT_MESSAGES }).refine(isSitePath, {
        message: "badPath",
      });
    case "email":
      // Empty is allowed (the first admin's address is used); stored trimmed and in lower case, as sign-in does.
      return textSchema({ max, messages: TEXT_MESSAGES })
        .transform((value) => value.toLowerCase())
        .refine((value) => value === "" || isValidEmail(value), { message: "badEmail" });
    case "markdown":
      // Line endings as the browser sends them (CRLF) count once, as they are stored; indentation is Markdown.
      return textSchema({ max, multiline: true, trim: false, messages: TEXT_MESSAGES });
    case "longText":
      return textSchema({ max, multiline: true, messages: TEXT_MESSAGES });
    default:
      return textSchema({ max, messages: TEXT_MESSAGES });
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
    const spec = settingSpecs[settingKey];
    const parsed = valueSchema(spec.kind, spec.limit ?? 0).safeParse(raw);
    if (parsed.success) values[settingKey] = parsed.data;
    else problems[settingKey] = (parsed.error.issues[0]?.message ?? "badUrl") as SettingProblem;
  }
  if (unknownKeys.length > 0 || Object.keys(problems).length > 0) return { ok: false, unknownKeys, problems };
  return { ok: true, values };
}
